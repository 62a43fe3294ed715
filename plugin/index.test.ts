/**
 * The package's main entry: still the Nx plugin (and still light enough for Nx to load on every
 * command: no ts-morph, no esbuild), and the programmatic API scripts use, tried on one example.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFINITION_LEAVES } from '../e2e/architecture/layers';
import * as api from './index';
import {
  compileAgent,
  emitAgent,
  formatDiagnostics,
  loadWorkspaceConfig,
  planAgent,
  validateDefinition,
  validateDefinitionFiles,
} from './index';
import { HUNG_CHILD_MS } from '../e2e/support/hung-child';

const repoRoot = join(__dirname, '..');
const example = join(repoRoot, 'examples', 'text-stats', 'agent.json');

describe('the main entry', () => {
  it('keeps the Nx plugin exports and adds the API', () => {
    for (const name of ['createNodes', 'createNodesV2', 'createDependencies', 'preTasksExecution'])
      expect(api).toHaveProperty(name);
    expect(api.name).toBe('agentdef');
    for (const fn of [
      validateDefinition,
      validateDefinitionFiles,
      formatDiagnostics,
      planAgent,
      emitAgent,
      compileAgent,
      loadWorkspaceConfig,
    ])
      expect(typeof fn).toBe('function');
  });

  it('loads neither ts-morph nor esbuild', () => {
    const script = [
      `const api = require(${JSON.stringify(join(__dirname, 'index.ts'))});`,
      `const heavy = Object.keys(require.cache).filter((k) => /node_modules[\\\\/](ts-morph|@ts-morph|esbuild)[\\\\/]/.test(k));`,
      `const leaves = ${JSON.stringify(DEFINITION_LEAVES)};`,
      `const layers = Object.keys(require.cache).filter((k) => /plugin[\\\\/](compiler|hosts|runtime)[\\\\/]|agent-definition\\.validator/.test(k) && !leaves.some((leaf) => k.replaceAll('\\\\', '/').endsWith(leaf)));`,
      `process.stdout.write(JSON.stringify({ exports: Object.keys(api), heavy, layers }));`,
    ].join('\n');
    const run = spawnSync(process.execPath, ['-r', '@swc-node/register', '-e', script], {
      cwd: repoRoot,
      encoding: 'utf8',
      timeout: HUNG_CHILD_MS,
    });
    expect(run.status, run.stderr).toBe(0);
    const { exports, heavy, layers } = JSON.parse(run.stdout) as {
      exports: string[];
      heavy: string[];
      layers: string[];
    };
    expect(heavy).toEqual([]);
    // Nx loads this entry on every command: graph inference only, the API's layers on first call
    // (besides the dependency-free leaves the definition layer shares with the runtime).
    expect(layers).toEqual([]);
    expect(exports).toEqual(
      expect.arrayContaining(['createNodesV2', 'validateDefinition', 'planAgent', 'emitAgent', 'compileAgent']),
    );
  });
});

describe('validateDefinition', () => {
  it('finds an example valid, naming the file relative to cwd', async () => {
    const result = await validateDefinition('examples/text-stats/agent.json', { cwd: repoRoot });
    expect(result).toMatchObject({ valid: true, diagnostics: [] });
    expect(result.definition?.identity.slug).toBe('text-stats');
    expect(result.sources.has('examples/text-stats/agent.json')).toBe(true);
  });

  it('checks text, and its diagnostics print', async () => {
    const text = readFileSync(example, 'utf8').replace('"text-stats"', '"Text Stats"');
    const result = await validateDefinition('agent.json', { text, cwd: repoRoot });
    expect(result.valid).toBe(false);
    expect(result.diagnostics[0]).toMatchObject({ file: 'agent.json', path: '/identity/slug', severity: 'error' });
    expect(formatDiagnostics(result.diagnostics, { format: 'text', sources: result.sources })).toContain('agent.json:');
  });

  it('reports a missing file as an I/O problem', async () => {
    const result = await validateDefinition(join(repoRoot, 'examples', 'missing', 'agent.json'), { cwd: repoRoot });
    expect(result.valid).toBe(false);
    expect(result.ioError).toContain('examples/missing/agent.json');
  });
});

describe('plan, emit and compile', () => {
  let workspace: string;
  beforeAll(() => {
    workspace = mkdtempSync(join(tmpdir(), 'agentdef-api-'));
    writeFileSync(join(workspace, 'nx.json'), '{}\n');
    cpSync(join(repoRoot, 'examples'), join(workspace, 'examples'), { recursive: true });
    for (const file of ['tools.json', 'mcp.json']) cpSync(join(repoRoot, file), join(workspace, file));
  });
  afterAll(() => rmSync(workspace, { recursive: true, force: true }));

  it('plans for the Worker target and emits in memory, writing nothing', async () => {
    const planned = await planAgent({ file: example, workspaceRoot: repoRoot });
    expect(planned.ioError).toBeUndefined();
    expect(planned.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(planned.plan?.target).toBe('cloudflare-dynamic-worker');

    const config = await loadWorkspaceConfig(repoRoot);
    expect(config.diagnostics).toEqual([]);
    const emitted = await emitAgent(
      { plan: planned.plan!, resolved: planned.resolved! },
      { workspaceRoot: repoRoot, workspace: config.config },
    );
    expect(emitted.diagnostics).toEqual([]);
    const paths = emitted.files!.map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(['plan.json', 'worker.js']));
    expect(JSON.parse(emitted.files!.find((f) => f.path === 'plan.json')!.contents as string)).toMatchObject({
      target: 'cloudflare-dynamic-worker',
      digest: planned.plan!.digest,
    });
  });

  it('compiles into a workspace, through the guarded writer', async () => {
    const result = await compileAgent({ file: 'examples/text-stats/agent.json', workspaceRoot: workspace });
    expect(result.ioError).toBeUndefined();
    expect(result).toMatchObject({ target: 'cloudflare-dynamic-worker', outDir: 'dist/agents/text-stats' });
    for (const file of result.files!)
      expect(existsSync(join(workspace, 'dist/agents/text-stats', file.path))).toBe(true);
    expect(
      JSON.parse(readFileSync(join(workspace, 'dist/agents/text-stats/.agentdef-output.json'), 'utf8')),
    ).toBeTruthy();
  });
});
