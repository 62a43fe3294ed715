/**
 * The eval tests' definition (the web-summarizer example with an `evaluator` pin added, validated
 * like any definition), a workspace folder of the test's own to write cases into, and an
 * observation builder.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { validateDefinition } from '../../definition/validate-definition-file';
import type { AgentDefinition } from '../../schema/generated/agent-definition.types';
import type { EvalObservation } from '../observation';

const REPO_ROOT = join(__dirname, '..', '..', '..');

/** The web-summarizer example with a second pin, role `evaluator` (model `judge-mini`). */
export function evalDefinitionText(): string {
  const value = JSON.parse(readFileSync(join(REPO_ROOT, 'examples', 'web-summarizer', 'agent.json'), 'utf8'));
  value.modelSet.push({
    role: 'evaluator',
    modelId: 'judge-mini',
    modelVersion: '2025-01-01',
    providerId: 'openai',
    samplingParams: { temperature: 0 },
    tier: 'small',
  });
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** The definition, checked valid (throws in the test when it is not, so a stale fixture is loud). */
export function evalDefinition(): AgentDefinition {
  const result = validateDefinition('agent.json', { text: evalDefinitionText(), cwd: REPO_ROOT });
  if (!result.valid || result.definition === undefined)
    throw new Error(`fixture definition invalid: ${JSON.stringify(result.diagnostics)}`);
  return result.definition;
}

/** A workspace of the test's own (inside the test folder): nx.json, agent.json; `write` adds files. */
export function evalWorkspace(prefix: string) {
  const root = mkdtempSync(join(__dirname, '..', `.tmp-${prefix}-`));
  writeFileSync(join(root, 'nx.json'), '{}\n');
  mkdirSync(join(root, 'agents', 'web'), { recursive: true });
  writeFileSync(join(root, 'agents', 'web', 'agent.json'), evalDefinitionText());
  return {
    root,
    definitionFile: 'agents/web/agent.json',
    write(file: string, text: string | Uint8Array) {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      writeFileSync(join(root, file), text);
    },
    remove() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}

export function observation(overrides: Partial<EvalObservation> = {}): EvalObservation {
  return {
    caseId: 'c1',
    answer: { text: 'The page at https://example.com says hello.' },
    stopReason: 'completed',
    latencyMs: 120,
    usage: { inputTokens: 100, outputTokens: 20 },
    modelCalls: 2,
    toolCalls: [{ name: 'fetch_page', ok: true }],
    egressBlocked: [],
    ...overrides,
  };
}
