import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stableJson } from '../../compiler/canonical-json';
import { planAgent } from '../../compiler/compile';
import { runPlanCommand } from './plan';
import { captureRun, copyExamplesWorkspace } from './test-support';

let root: string;
beforeEach(() => {
  root = copyExamplesWorkspace('agentdef-cli-plan-');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const run = (argv: string[], cwd = root) => captureRun(runPlanCommand, argv, cwd);

describe('agentdef plan', () => {
  it('prints exactly the plan object with --format json', async () => {
    const { code, stdout, stderr } = await run(['examples/write-router/agent.json', '--format', 'json']);
    expect(code).toBe(0);
    // write-router validates without warnings: nothing beside the plan.
    expect(stderr).toBe('');
    const { plan } = await planAgent({ file: join(root, 'examples/write-router/agent.json'), workspaceRoot: root });
    expect(stdout).toBe(stableJson(plan));
    expect(JSON.parse(stdout)).toEqual(JSON.parse(JSON.stringify(plan)));
  });

  it('prints a readable table by default', async () => {
    const { code, stdout } = await run(['examples/edit-assistant/agent.json']);
    expect(code).toBe(0);
    expect(stdout).toContain('plan compile-plan/v1 for edit-assistant@1.0.0');
    expect(stdout).toContain('runtime workers-preferred -> container-required: target hb3');
    expect(stdout).toMatch(/\n {2}edit-assistant@1\.0\.0 +0 +workspace +workers-preferred +no /);
    expect(stdout).toMatch(/\n {6}splice-resolver@0\.4\.2 +2 +workspace +container-required +yes /);
    expect(stdout).toContain('splice-resolver@0.4.2  /modelSet/0');
    expect(stdout).toContain('write-router@1.4.0 pins splice-resolver@0.4.2');
    expect(stdout).toContain('splice-resolver@0.4.2 -> fallback-writer@1.1.0 (conditional) within write-router@1.4.0');
  });

  it('finds the workspace from the file, whatever the working directory', async () => {
    const { code, stdout } = await run([join(root, 'examples/write-router/agent.json'), '--format=json'], tmpdir());
    expect(code).toBe(0);
    expect(JSON.parse(stdout).nodes[1].file).toBe('examples/splice-resolver/agent.json');
  });

  it('exits 1 and prints located diagnostics when a pin does not resolve', async () => {
    const path = join(root, 'examples/write-router/agent.json');
    writeFileSync(path, readFileSync(path, 'utf8').replace('"version": "1.1.0"', '"version": "1.2.0"'));
    const text = await run(['examples/write-router/agent.json']);
    expect(text.code).toBe(1);
    expect(text.stdout).toBe('');
    expect(text.stderr).toContain(
      'error[agent_definition_invalid] unresolved-pin: pin "fallback-writer@1.2.0" in examples/write-router/agent.json resolves to nothing',
    );
    expect(text.stderr).toMatch(/--> examples\/write-router\/agent\.json:\d+:\d+/);
    expect(text.stderr).toContain('"version": "1.2.0"');
    const json = await run(['examples/write-router/agent.json', '--format', 'json']);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as { valid: boolean; diagnostics: { rule: string }[] };
    expect(report.valid).toBe(false);
    expect(report.diagnostics.map((d) => d.rule)).toContain('unresolved-pin');
  });

  it('passes --max-depth and --registry through', async () => {
    const deep = await run(['examples/edit-assistant/agent.json', '--max-depth', '1']);
    expect(deep.code).toBe(1);
    expect(deep.stderr).toContain('composition-too-deep');
    rmSync(join(root, 'examples/fallback-writer'), { recursive: true });
    const missing = await run(['examples/write-router/agent.json', '--registry', 'snapshots']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(
      'no definition of "fallback-writer" exists in the workspace or in the registry snapshots',
    );
  });

  it.each([
    [[], 'name the definition file'],
    [['a.json', 'b.json'], 'name one definition file, not 2'],
    [
      ['examples/write-router/agent.json', '--format', 'xml'],
      '--format "xml" is not allowed. It must be one of text, json',
    ],
    [['examples/write-router/agent.json', '--max-depth', 'ten'], '--max-depth must be a whole number'],
    [['examples/write-router/agent.json', '--max-nodes', '0'], '--max-nodes must be a whole number'],
    [['examples/write-router/agent.json', '--frobnicate'], 'Unknown option'],
  ])('exits 2 on usage errors: %j', async (argv, message) => {
    const { code, stdout, stderr } = await run(argv as string[]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(message);
    expect(stderr).toContain('usage: agentdef plan <file>');
  });

  it('exits 2 when the file cannot be read', async () => {
    const { code, stderr } = await run(['examples/nope/agent.json']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^error: .*examples\/nope\/agent\.json/);
  });
});
