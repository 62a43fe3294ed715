/**
 * A temporary workspace for the application executor tests: one agent (`summarizer@0.1.0`) and
 * the application `triage` composing it, with its sample `inputs.json`, written by the generator's
 * own scaffold (so the tests also show that a generated manifest plans, checks and executes as written).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { builtinCatalog } from '../../plugin/application/catalog';
import { definitionJson } from '../../plugin/graph/test-support';
import {
  INPUTS_FILE,
  manifestText,
  planApplicationScaffold,
  sampleInputsText,
  scaffoldManifest,
} from '../../generators/application/scaffold-manifest';

export const MANIFEST = 'apps/triage/application.json';

export interface ApplicationWorkspace {
  root: string;
  write(file: string, text: string): void;
  remove(): void;
}

export function applicationWorkspace(): ApplicationWorkspace {
  const root = mkdtempSync(join(tmpdir(), 'agentdef-app-executors-'));
  const write = (file: string, text: string) => {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  };
  write('nx.json', '{}\n');
  write('agents/summarizer/agent.json', definitionJson({ slug: 'summarizer', version: '0.1.0' }));
  const plan = planApplicationScaffold({ name: 'apps/triage', agents: 'summarizer@0.1.0' });
  if (!plan.ok) throw new Error(plan.problem);
  const manifest = scaffoldManifest(plan.value, builtinCatalog());
  if (!manifest.ok) throw new Error(manifest.problem);
  write(MANIFEST, manifestText(manifest.value));
  write(join(dirname(MANIFEST), INPUTS_FILE), sampleInputsText());
  return { root, write, remove: () => rmSync(root, { recursive: true, force: true }) };
}
