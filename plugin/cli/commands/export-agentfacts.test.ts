/**
 * `agentdef export agentfacts` through the CLI, on a temp copy of the examples: it prints the
 * trust layer's projection, writes it to --out, and with --write puts it into the definition
 * (only that value changed; YAML comments kept), which validate then accepts; a definition that
 * does not validate for another reason, or a JSON file it cannot edit in place, is refused,
 * located, with nothing written.
 */
// runCli loads the command modules with Node's require (see require-typescript.ts).
import '../../../executors/__test-support__/require-typescript';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentDefinition } from '../../schema/generated/agent-definition.types';
import { projectAgentFacts } from '../../trust/agentfacts';
import { runCli } from '../main';
import { captureRun, copyExamplesWorkspace } from './test-support';

let root: string;
beforeAll(() => {
  root = copyExamplesWorkspace('agentdef-export-');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const run = (argv: string[]) => captureRun((args, io) => runCli(args, io), argv, root);
const read = (file: string) => readFileSync(join(root, file), 'utf8');

function projection(file: string, options: Parameters<typeof projectAgentFacts>[1]) {
  const definition = JSON.parse(read(file)) as AgentDefinition;
  const projected = projectAgentFacts(definition, options);
  if (!projected.ok) throw new Error(JSON.stringify(projected.failures));
  return projected.facts;
}

describe('agentdef export agentfacts', () => {
  it("prints the trust layer's projection and writes nothing; --out writes the same document", async () => {
    const file = 'examples/text-stats/agent.json';
    const before = read(file);
    const printed = await run(['export', 'agentfacts', file, '--target', 'local-mac']);
    expect(printed.code, printed.stderr).toBe(0);
    expect(JSON.parse(printed.stdout)).toEqual(projection(file, { target: 'local-mac', port: 8080 }));
    const worker = await run([
      'export',
      'agentfacts',
      file,
      '--target',
      'cloudflare-dynamic-worker',
      '--worker-url',
      'https://text-stats.example.workers.dev',
    ]);
    expect(worker.code, worker.stderr).toBe(0);
    expect(JSON.parse(worker.stdout).endpoints.static).toEqual(['https://text-stats.example.workers.dev/']);
    const out = await run(['export', 'agentfacts', file, '--target', 'local-mac', '--out', 'facts.json']);
    expect(out.code, out.stderr).toBe(0);
    expect(read('facts.json')).toBe(printed.stdout);
    expect(read(file)).toBe(before);
  });

  it('--write replaces only a stale agentFacts value in a JSON file; validate then accepts it; again changes nothing', async () => {
    const file = 'examples/edit-assistant/agent.json';
    const original = read(file);
    const stale = original.replace('"label": "Edit assistant"', '"label": "Hand-edited"');
    expect(stale).not.toBe(original);
    writeFileSync(join(root, file), stale);
    const refused = await run(['validate', file]);
    expect(refused.code).toBe(1);
    expect(refused.stdout + refused.stderr).toContain('/metadata/cardExports/agentFacts/label');
    const written = await run(['export', 'agentfacts', file, '--target', 'hb3', '--write']);
    expect(written.code, written.stderr).toBe(0);
    expect(written.stdout).toBe(`wrote metadata.cardExports.agentFacts into ${file}\n`);
    expect(read(file)).toBe(original);
    const again = await run(['export', 'agentfacts', file, '--target', 'hb3', '--write', '--format', 'json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).written).toBe(false);
    expect((await run(['validate', file])).code).toBe(0);
  });

  it('--write adds agentFacts to a YAML file, its comments and other nodes kept', async () => {
    const file = 'examples/pdf-extractor/agent.yaml';
    const before = read(file);
    const written = await run(['export', 'agentfacts', file, '--target', 'local-mac', '--write']);
    expect(written.code, written.stderr).toBe(0);
    const after = read(file);
    expect(after.startsWith(before.split('\n').slice(0, 12).join('\n'))).toBe(true);
    for (const comment of before.split('\n').filter((line) => line.trimStart().startsWith('#')))
      expect(after).toContain(comment);
    expect(after).toContain('agentFacts:');
    const validated = await run(['validate', file]);
    expect(validated.code, validated.stderr).toBe(0);
  });

  it('--write adds agentFacts to a canonical JSON file; a JSON file it would have to reformat is refused, located, unchanged', async () => {
    const file = 'examples/text-stats/agent.json';
    const original = read(file);
    const written = await run(['export', 'agentfacts', file, '--target', 'local-mac', '--write']);
    expect(written.code, written.stderr).toBe(0);
    const parsed = JSON.parse(read(file)) as AgentDefinition;
    expect(parsed.metadata.cardExports?.agentFacts).toEqual(projection(file, { target: 'local-mac', port: 8080 }));
    expect((await run(['validate', file])).code).toBe(0);

    const squeezed = JSON.stringify(JSON.parse(original));
    writeFileSync(join(root, file), squeezed);
    const refused = await run(['export', 'agentfacts', file, '--target', 'local-mac', '--write']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/examples\/text-stats\/agent\.json:1:\d+/);
    expect(refused.stderr).toContain('"cardExports": { "agentFacts": {} }');
    expect(read(file)).toBe(squeezed);

    // As the refusal says: an empty agentFacts placeholder is replaced in place, the rest of the line kept.
    const placeholder = squeezed.replace('"metadata":{', '"metadata":{"cardExports":{"agentFacts":{}},');
    writeFileSync(join(root, file), placeholder);
    const filled = await run(['export', 'agentfacts', file, '--target', 'local-mac', '--write']);
    expect(filled.code, filled.stderr).toBe(0);
    const [head] = placeholder.split('"agentFacts":');
    expect(read(file).startsWith(`${head}"agentFacts":{`)).toBe(true);
    expect((await run(['validate', file])).code).toBe(0);
  });

  it('a definition invalid for another reason is refused, located, with nothing written', async () => {
    const file = 'examples/code-search/agent.json';
    const broken = read(file).replace(/"versionSemver": "[^"]*"/, '"versionSemver": "not-a-version"');
    writeFileSync(join(root, file), broken);
    const refused = await run([
      'export',
      'agentfacts',
      file,
      '--target',
      'local-mac',
      '--write',
      '--out',
      'never.json',
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('/identity/versionSemver');
    expect(read(file)).toBe(broken);
    expect(() => read('never.json')).toThrow();
  });
});
