/**
 * The published package exposes its documented API and nothing else: installed from the tarball
 * (extracted into a temporary node_modules, its dependencies linked beside it), `require('agentdef')`
 * and `import('agentdef')` give exactly what plugin/index.ts exports (the README's "Using agentdef
 * from a script" names among them), the API plans an example, the files Nx reads by name resolve,
 * the JSON schemas resolve at `agentdef/schema/<file>`, and an internal file
 * (`agentdef/plugin/compiler/compile`) is not importable.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import * as sourceApi from '../plugin/index';
import { buildAndPack, e2eRoot } from './support/pack';

const repoRoot = join(__dirname, '..');
const cleanup: string[] = [];
let workspace: string;

beforeAll(() => {
  const provided = inject('agentdefTarball') as string | undefined;
  const tarball = provided ?? buildAndPack();
  if (!provided) cleanup.push(dirname(tarball));
  workspace = mkdtempSync(join(e2eRoot(), 'package-exports-'));
  cleanup.push(workspace);
  const installed = join(workspace, 'node_modules', 'agentdef');
  mkdirSync(installed, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1']);
  // What npm would install beside it: its dependencies and its peer nx, linked from this checkout.
  const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
  };
  for (const name of [...Object.keys(manifest.dependencies ?? {}), 'nx']) {
    const link = join(workspace, 'node_modules', name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(join(repoRoot, 'node_modules', name), link, 'dir');
  }
});

afterAll(() => {
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

/** Runs `script` (CommonJS) with node in the workspace; its last stdout line, parsed. */
function inWorkspace(script: string): unknown {
  const result = spawnSync(process.execPath, ['-e', script], {
    cwd: workspace,
    encoding: 'utf8',
    env: { PATH: process.env['PATH'], HOME: workspace },
  });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return JSON.parse(result.stdout.trim().split('\n').at(-1)!);
}

describe('the published package', () => {
  it('exports exactly the documented API, through require and import alike', () => {
    const documented = Object.keys(sourceApi).sort();
    for (const name of [
      'compileAgent',
      'emitAgent',
      'formatDiagnostics',
      'loadWorkspaceConfig',
      'planAgent',
      'validateDefinition',
      'createNodesV2',
      'createDependencies',
    ])
      expect(documented).toContain(name);
    const viaRequire = inWorkspace(
      `console.log(JSON.stringify(Object.keys(require('agentdef')).filter((k) => k !== '__esModule').sort()))`,
    );
    expect(viaRequire).toEqual(documented);
    const viaImport = inWorkspace(
      `import('agentdef').then((m) => console.log(JSON.stringify(Object.keys(m).filter((k) => k !== 'default' && k !== 'module.exports' && k !== '__esModule').sort())))`,
    );
    expect(viaImport).toEqual(documented);
  });

  it('plans an example through the installed API', () => {
    const file = JSON.stringify(join(repoRoot, 'examples', 'text-stats', 'agent.json'));
    const planned = inWorkspace(
      `require('agentdef').planAgent({ file: ${file}, workspaceRoot: ${JSON.stringify(repoRoot)} }).then((r) => console.log(JSON.stringify({ target: r.plan?.target, root: r.plan?.root, errors: r.diagnostics.length })))`,
    );
    expect(planned).toEqual({
      target: 'cloudflare-dynamic-worker',
      root: { slug: 'text-stats', version: '1.0.0' },
      errors: 0,
    });
  });

  it('exports every JSON schema at agentdef/schema/<file>, the same bytes with the same $id (docs/decisions/0005)', () => {
    const schemaDir = join(repoRoot, 'plugin', 'schema');
    const names = readdirSync(schemaDir).filter((name) => name.endsWith('.schema.json'));
    expect(names).toContain('agent-definition.v1.schema.json');
    const shipped = inWorkspace(
      `const { readFileSync } = require('node:fs'); const out = {}; for (const name of ${JSON.stringify(names)}) { const text = readFileSync(require.resolve('agentdef/schema/' + name), 'utf8'); out[name] = { text, id: JSON.parse(text).$id }; } console.log(JSON.stringify(out))`,
    ) as Record<string, { text: string; id: string }>;
    for (const name of names) {
      expect(shipped[name]?.text, name).toBe(readFileSync(join(schemaDir, name), 'utf8'));
      expect(shipped[name]?.id, name).toBe(`https://agentdef.dev/schema/${name}`);
    }
    const viaRequire = inWorkspace(
      `console.log(JSON.stringify(require('agentdef/schema/agent-definition.v1.schema.json').$id))`,
    );
    expect(viaRequire).toBe('https://agentdef.dev/schema/agent-definition.v1.schema.json');
  });

  it('resolves the files Nx reads by name, and refuses every internal path', () => {
    const resolved = inWorkspace(
      `const out = {}; for (const spec of ['agentdef/package.json', 'agentdef/executors.json', 'agentdef/generators.json', 'agentdef/plugin/compiler/compile', 'agentdef/plugin/schema/agent-definition.v1.schema.json', 'agentdef/schema/generated/agent-definition.types.js', 'agentdef/plugin/index.js', 'agentdef/plugin/cli/main.js', 'agentdef/bin/agentdef.cjs']) { try { require.resolve(spec); out[spec] = 'resolves'; } catch (e) { out[spec] = e.code; } } console.log(JSON.stringify(out))`,
    );
    expect(resolved).toEqual({
      'agentdef/package.json': 'resolves',
      'agentdef/executors.json': 'resolves',
      'agentdef/generators.json': 'resolves',
      'agentdef/plugin/compiler/compile': 'ERR_PACKAGE_PATH_NOT_EXPORTED',
      'agentdef/plugin/schema/agent-definition.v1.schema.json': 'ERR_PACKAGE_PATH_NOT_EXPORTED',
      'agentdef/schema/generated/agent-definition.types.js': 'ERR_PACKAGE_PATH_NOT_EXPORTED',
      'agentdef/plugin/index.js': 'ERR_PACKAGE_PATH_NOT_EXPORTED',
      'agentdef/plugin/cli/main.js': 'ERR_PACKAGE_PATH_NOT_EXPORTED',
      'agentdef/bin/agentdef.cjs': 'ERR_PACKAGE_PATH_NOT_EXPORTED',
    });
  });
});
