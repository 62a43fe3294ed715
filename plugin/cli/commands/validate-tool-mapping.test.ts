/**
 * The tool mapping is checked by validation, with the compile's own diagnostic: a scripted or
 * skill-package tool the workspace's tools.json does not map is reported by `agentdef validate`
 * and by `validateDefinition` given the workspace, located at the tool's entry with what to add
 * to tools.json, exactly as compiling it for a Worker reports it. Before, validate passed such an
 * agent and only compile caught it. Without a workspace, `validateDefinition` checks no mapping.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileAgent } from '../../compiler/compile';
import type { Diagnostic } from '../../definition/diagnostic';
import { validateDefinition } from '../../definition/validate-definition-file';
import { runValidateCommand } from './validate';

const repoRoot = join(__dirname, '..', '..', '..');
let root: string;
const FILE = 'agents/text-stats/agent.json';

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'agentdef-tool-mapping-'));
  writeFileSync(join(root, 'nx.json'), '{}\n');
  mkdirSync(join(root, 'agents/text-stats'), { recursive: true });
  cpSync(join(repoRoot, 'examples/text-stats/agent.json'), join(root, FILE));
  mkdirSync(join(root, 'tools'));
  cpSync(join(repoRoot, 'examples/tools/text-metrics.ts'), join(root, 'tools/text-metrics.ts'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const MAPPED =
  '{\n  "tools": {\n    "text-metrics": { "module": "./tools/text-metrics.ts", "export": "countText" }\n  }\n}\n';
const UNMAPPED =
  '{\n  "tools": {\n    "text-metricz": { "module": "./tools/text-metrics.ts", "export": "countText" }\n  }\n}\n';

async function validateCli(argv: string[], cwd = root) {
  let stdout = '';
  let stderr = '';
  const code = await runValidateCommand(argv, { cwd, stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) });
  return { code, stdout, stderr };
}

/** What compiling for a Worker reports (the compile-time check), without the fields that differ by caller. */
async function compileDiagnostics(): Promise<Diagnostic[]> {
  const result = await compileAgent({
    file: FILE,
    workspaceRoot: root,
    target: 'cloudflare-dynamic-worker',
    outDir: 'dist/never',
  });
  return result.diagnostics.filter((d) => d.rule === 'tool-implementation');
}

describe('the tool mapping, checked by validation', () => {
  it('validate reports an unmapped tool with the same located diagnostic as compile, exit 1; a mapped one passes', async () => {
    writeFileSync(join(root, 'tools.json'), UNMAPPED);
    const fromCompile = await compileDiagnostics();
    expect(fromCompile).toHaveLength(1);
    const text = readFileSync(join(root, FILE), 'utf8');
    const line = text.split('\n').findIndex((l) => l.includes('"id": "text-metrics"'));
    expect(fromCompile[0]).toMatchObject({
      code: 'agent_definition_invalid',
      rule: 'tool-implementation',
      severity: 'error',
      file: FILE,
      path: '/toolInventory/0',
      line,
      column: 5,
      message:
        'skill-package tool "text-metrics" has no implementation: the workspace\'s tools.json does not map it to a module',
      suggestion:
        'add "tools": { "text-metrics": { "module": "./tools/text-metrics.ts", "export": "run" } } to tools.json',
    });

    const json = await validateCli([FILE, '--format', 'json']);
    expect(json.code).toBe(1);
    expect((JSON.parse(json.stdout) as { diagnostics: Diagnostic[] }).diagnostics).toEqual(fromCompile);
    const plain = await validateCli([FILE]);
    expect(plain.code).toBe(1);
    expect(plain.stdout).toContain(`--> ${FILE}:${line}:5  (/toolInventory/0)`);
    expect(plain.stdout).toMatch(/1 definition checked: 0 valid, 1 invalid \(1 error, 0 warnings\)\n$/);
    // Run from inside the agent's folder: named relative to the working folder, same place.
    const nested = await validateCli(['agent.json'], join(root, 'agents/text-stats'));
    expect(nested.stdout).toContain(`--> agent.json:${line}:5  (/toolInventory/0)`);

    writeFileSync(join(root, 'tools.json'), MAPPED);
    expect(await compileDiagnostics()).toEqual([]);
    expect(await validateCli([FILE])).toEqual({
      code: 0,
      stdout: '1 definition checked: 1 valid, 0 invalid (0 errors, 0 warnings)\n',
      stderr: '',
    });
  });

  it('validate reports a workspace without tools.json, and a tools.json that cannot map, located in tools.json', async () => {
    rmSync(join(root, 'tools.json'), { force: true });
    const missing = await validateCli([FILE]);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain(
      'error[agent_definition_invalid] tool-implementation: skill-package tool "text-metrics" has no implementation',
    );

    writeFileSync(
      join(root, 'tools.json'),
      '{\n  "tools": {\n    "text-metrics": { "module": "/etc/passwd", "export": "countText" }\n  }\n}\n',
    );
    const broken = await validateCli([FILE, '--format', 'json']);
    expect(broken.code).toBe(1);
    const diagnostics = (JSON.parse(broken.stdout) as { diagnostics: Diagnostic[] }).diagnostics;
    expect(diagnostics.map((d) => [d.file, d.rule, d.path, d.line])).toEqual([
      [FILE, 'tool-implementation', '/toolInventory/0', expect.any(Number)],
      ['tools.json', 'workspace-config', '/tools/text-metrics/module', 3],
    ]);
    writeFileSync(join(root, 'tools.json'), MAPPED);
  });

  it('validateDefinition checks the mapping when given the workspace, and only then', async () => {
    writeFileSync(join(root, 'tools.json'), UNMAPPED);
    const fromCompile = await compileDiagnostics();
    const withWorkspace = validateDefinition(FILE, { cwd: root, workspaceRoot: root });
    expect(withWorkspace.valid).toBe(false);
    expect(withWorkspace.diagnostics).toEqual(fromCompile);
    const relative = validateDefinition(FILE, { cwd: root, workspaceRoot: '.' });
    expect(relative.diagnostics).toEqual(fromCompile);
    const alone = validateDefinition(FILE, { cwd: root });
    expect(alone).toMatchObject({ valid: true, diagnostics: [] });
    writeFileSync(join(root, 'tools.json'), MAPPED);
    expect(validateDefinition(FILE, { cwd: root, workspaceRoot: root })).toMatchObject({
      valid: true,
      diagnostics: [],
    });
  });

  it('an agent without scripted or skill-package tools reads no tools.json: a broken one is not its problem', async () => {
    mkdirSync(join(root, 'agents/text-digest'), { recursive: true });
    cpSync(join(repoRoot, 'examples/text-digest/agent.json'), join(root, 'agents/text-digest/agent.json'));
    writeFileSync(join(root, 'tools.json'), '{ not json');
    expect(await validateCli(['agents/text-digest/agent.json'])).toMatchObject({ code: 0 });
    writeFileSync(join(root, 'tools.json'), MAPPED);
  });
});
