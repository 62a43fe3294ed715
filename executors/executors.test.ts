import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { indexRegistrySnapshots } from '../plugin/registry/__test-support__/registry-fixture';
import { COMPILE_TARGETS } from '../plugin/targets/targets';
import compileExecutor from './compile/executor';
import { executorContext } from './test-support';
import planExecutor from './plan/executor';
import validateExecutor from './validate/executor';

const REPO = join(__dirname, '..');
let root: string;
let logs: MockInstance;
let errors: MockInstance;
const printed = (spy: MockInstance) => spy.mock.calls.map((c) => c.join(' ')).join('\n');

const contextFor = executorContext;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'agentdef-executors-'));
  writeFileSync(join(root, 'nx.json'), '{}\n');
  cpSync(join(REPO, 'examples'), join(root, 'examples'), { recursive: true });
  logs = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(root, { recursive: true, force: true });
});

describe('validate executor', () => {
  it('succeeds on a valid definition', async () => {
    expect(await validateExecutor({ definition: 'examples/pdf-extractor/agent.yaml' }, contextFor(root))).toEqual({
      success: true,
    });
    expect(printed(logs)).toContain('examples/pdf-extractor/agent.yaml: valid');
  });

  it('fails and prints located diagnostics on an invalid one', async () => {
    const path = join(root, 'examples/text-stats/agent.json');
    writeFileSync(path, readFileSync(path, 'utf8').replace('"workers-only"', '"workers-maybe"'));
    expect(await validateExecutor({ definition: 'examples/text-stats/agent.json' }, contextFor(root))).toEqual({
      success: false,
    });
    expect(printed(errors)).toMatch(/--> examples\/text-stats\/agent\.json:\d+:\d+/);
  });

  it('fails on a missing file or a missing option', async () => {
    expect(await validateExecutor({ definition: 'examples/nope/agent.json' }, contextFor(root))).toEqual({
      success: false,
    });
    expect(await validateExecutor({} as never, contextFor(root))).toEqual({ success: false });
    expect(printed(errors)).toContain('the "definition" option is required');
  });
});

describe('plan executor', () => {
  it('prints the plan and writes plan.json when asked', async () => {
    const result = await planExecutor(
      { definition: 'examples/write-router/agent.json', outputPath: 'dist/plans/write-router' },
      contextFor(root),
    );
    expect(result).toEqual({ success: true });
    expect(printed(logs)).toContain('runtime workers-preferred -> container-required: target hb3');
    const plan = JSON.parse(readFileSync(join(root, 'dist/plans/write-router/plan.json'), 'utf8'));
    expect(plan.runtime.target).toBe('hb3');
  });

  it('writes nothing by default', async () => {
    expect(await planExecutor({ definition: 'examples/edit-assistant/agent.json' }, contextFor(root))).toEqual({
      success: true,
    });
    expect(existsSync(join(root, 'dist'))).toBe(false);
  });

  it('fails on composition errors and honours maxDepth', async () => {
    expect(
      await planExecutor({ definition: 'examples/edit-assistant/agent.json', maxDepth: 1 }, contextFor(root)),
    ).toEqual({ success: false });
    expect(printed(errors)).toContain('composition-too-deep');
  });
});

describe('compile executor', () => {
  it('compiles write-router for its planned target into dist/agents/write-router', async () => {
    expect(await compileExecutor({ definition: 'examples/write-router/agent.json' }, contextFor(root))).toEqual({
      success: true,
    });
    expect(readdirSync(join(root, 'dist/agents/write-router')).sort()).toEqual(
      expect.arrayContaining(['hb3-job.json', 'hb3-workflow.json', 'image', 'plan.json']),
    );
    expect(printed(logs)).toContain(
      'compiled write-router@1.4.0 for hb3 (container-required) into dist/agents/write-router',
    );
  });

  it('fails closed on a target the tree forbids, naming the child, writing nothing', async () => {
    const result = await compileExecutor(
      { definition: 'examples/write-router/agent.json', target: 'cloudflare-dynamic-worker' },
      contextFor(root),
    );
    expect(result).toEqual({ success: false });
    expect(printed(errors)).toContain('runtime_capability_mismatch');
    expect(printed(errors)).toContain('splice-resolver@0.4.2');
    expect(existsSync(join(root, 'dist'))).toBe(false);
  });

  it('takes outputPath and registryRoot relative to the workspace', async () => {
    const snapshots = join(root, 'snapshots/fallback-writer');
    cpSync(join(root, 'examples/fallback-writer/agent.json'), join(snapshots, '1.1.0.json'));
    rmSync(join(root, 'examples/fallback-writer'), { recursive: true });
    indexRegistrySnapshots(root, 'snapshots');
    const result = await compileExecutor(
      { definition: 'examples/write-router/agent.json', outputPath: 'build/wr', registryRoot: 'snapshots' },
      contextFor(root),
    );
    expect(result).toEqual({ success: true });
    const plan = JSON.parse(readFileSync(join(root, 'build/wr/plan.json'), 'utf8'));
    expect(plan.nodes[2].file).toBe('snapshots/fallback-writer/1.1.0.json');
  });

  it('fails on an I/O problem', async () => {
    expect(
      await compileExecutor(
        { definition: 'examples/write-router/agent.json', outputPath: 'examples' },
        contextFor(root),
      ),
    ).toEqual({ success: false });
    expect(printed(errors)).toContain('refusing to replace examples');
  });
});

describe('executors.json and the option schemas', () => {
  const manifest = JSON.parse(readFileSync(join(REPO, 'executors.json'), 'utf8')) as {
    executors: Record<string, { implementation: string; schema: string; description: string }>;
  };

  it('maps validate, plan and compile to existing implementations and schemas', () => {
    expect(Object.keys(manifest.executors).sort()).toEqual([
      'application-check',
      'application-execute',
      'application-plan',
      'compile',
      'deploy',
      'eval',
      'plan',
      'promote',
      'publish',
      'run',
      'serve',
      'validate',
    ]);
    for (const [name, entry] of Object.entries(manifest.executors)) {
      expect(entry.implementation).toBe(`./executors/${name}/executor`);
      expect(existsSync(join(REPO, `${entry.implementation}.ts`))).toBe(true);
      expect(existsSync(join(REPO, entry.schema))).toBe(true);
      expect(entry.description.length).toBeGreaterThan(10);
    }
  });

  it('requires definition everywhere and offers target only on compile', () => {
    const schema = (name: string) => JSON.parse(readFileSync(join(REPO, 'executors', name, 'schema.json'), 'utf8'));
    for (const name of ['validate', 'plan']) {
      expect(schema(name).required).toEqual(['definition']);
      expect(schema(name).properties.definition.type).toBe('string');
    }
    // compile checks each task's options itself (compile-task.ts optionsProblem, batch.test.ts): a
    // constraint Nx enforces would end a whole `--batch` on one task's options.
    expect(schema('compile').required).toBeUndefined();
    expect(schema('compile').additionalProperties).toBeUndefined();
    for (const property of Object.values(schema('compile').properties) as Array<Record<string, unknown>>)
      for (const key of ['type', 'enum', 'minimum']) expect(property[key]).toBeUndefined();
    for (const target of ['auto', ...COMPILE_TARGETS])
      expect(schema('compile').properties.target.description).toContain(target);
    expect(schema('compile').properties.target.default).toBe('auto');
    expect(schema('plan').properties.target).toBeUndefined();
    for (const name of ['plan', 'compile']) {
      expect(Object.keys(schema(name).properties).sort()).toEqual(
        [
          'definition',
          'maxDepth',
          'maxNodes',
          'outputPath',
          'registryRoot',
          ...(name === 'compile' ? ['target'] : []),
        ].sort(),
      );
      expect(schema(name).properties.maxDepth.default).toBe(16);
      expect(schema(name).properties.maxNodes.default).toBe(512);
    }
  });
});
