/**
 * The batch executor against the per-task executor, in process, on every example agent (and one
 * the compile rejects): the same files byte for byte, the same lines per task as terminal output,
 * the same success per task, and every task reported once.
 */
import type { TaskGraph } from '@nx/devkit';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { snapshotTree } from '../../e2e/support/nx-workspace';
import { executorContext } from '../test-support';
import compileBatchExecutor, { type BatchTaskResult } from './batch';
import compileExecutor from './executor';
import type { CompileExecutorOptions } from './compile-task';

const REPO = join(__dirname, '..', '..');
let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'agentdef-compile-batch-'));
  writeFileSync(join(root, 'nx.json'), '{}\n');
  for (const entry of ['examples', 'tools.json', 'mcp.json'])
    cpSync(join(REPO, entry), join(root, entry), { recursive: true });
  // One agent the compile rejects (a runtime class the schema does not know).
  const broken = join(root, 'examples/text-stats/agent.json');
  cpSync(broken, join(root, 'examples/broken/agent.json'));
  writeFileSync(
    join(root, 'examples/broken/agent.json'),
    readFileSync(broken, 'utf8').replace('"text-stats"', '"broken"').replace('"workers-only"', '"workers-maybe"'),
  );
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(root, { recursive: true, force: true });
});

/** One compile task per example folder, as Nx would hand them over. */
function exampleTasks(): Record<string, CompileExecutorOptions> {
  const tasks: Record<string, CompileExecutorOptions> = {};
  for (const name of readdirSync(join(root, 'examples')).sort()) {
    const file = ['agent.json', 'agent.yaml'].find((candidate) =>
      readdirSync(join(root, 'examples', name)).includes(candidate),
    );
    if (file)
      tasks[`${name}:compile`] = {
        definition: `examples/${name}/${file}`,
        target: 'auto',
        outputPath: `dist/agents/${name}`,
      };
  }
  return tasks;
}

function taskGraph(ids: string[], dependencies: Record<string, string[]> = {}): TaskGraph {
  const tasks = Object.fromEntries(
    ids.map((id) => [
      id,
      { id, target: { project: id.split(':')[0]!, target: 'compile' }, overrides: {}, outputs: [], parallelism: true },
    ]),
  );
  const roots = ids.filter((id) => (dependencies[id] ?? []).length === 0);
  return {
    roots,
    tasks,
    dependencies: Object.fromEntries(ids.map((id) => [id, dependencies[id] ?? []])),
    continuousDependencies: Object.fromEntries(ids.map((id) => [id, []])),
  } as unknown as TaskGraph;
}

describe('compile batch executor', () => {
  it('compiles every task as the per-task executor does: same files, same output, same result', async () => {
    const inputs = exampleTasks();
    const ids = Object.keys(inputs);
    expect(ids.length).toBeGreaterThan(10);

    const perTask: Record<string, { success: boolean; terminalOutput: string }> = {};
    for (const id of ids) {
      let terminalOutput = '';
      const capture = (...args: unknown[]) => void (terminalOutput += `${args.join(' ')}\n`);
      vi.spyOn(console, 'log').mockImplementation(capture);
      vi.spyOn(console, 'error').mockImplementation(capture);
      const { success } = await compileExecutor(inputs[id]!, executorContext(root, id.split(':')[0]));
      vi.restoreAllMocks();
      perTask[id] = { success, terminalOutput };
    }
    const perTaskFiles = snapshotTree(join(root, 'dist'));
    rmSync(join(root, 'dist'), { recursive: true });

    const reported: BatchTaskResult[] = [];
    for await (const result of compileBatchExecutor(
      taskGraph(ids),
      inputs,
      {} as CompileExecutorOptions,
      executorContext(root),
    ))
      reported.push(result);

    expect(reported.map((r) => r.task).sort()).toEqual(ids);
    for (const { task, result } of reported) {
      expect({ success: result.success, terminalOutput: result.terminalOutput }, task).toEqual(perTask[task]);
      expect(result.endTime).toBeGreaterThanOrEqual(result.startTime);
    }
    expect(snapshotTree(join(root, 'dist'))).toEqual(perTaskFiles);
    expect(perTask['broken:compile']!.success).toBe(false);
    expect(Object.values(perTask).filter((r) => r.success).length).toBeGreaterThan(5);
  });

  it('runs a task after its dependencies in the batch and skips it, as Nx does, when one of them failed', async () => {
    // `dependsOn: ['^compile']` puts dependents in the same batch: text-digest depends on the failing
    // broken (and text-classify on text-digest), keyword-extract on the succeeding text-stats.
    const inputs = exampleTasks();
    const ids = [
      'text-classify:compile',
      'text-digest:compile',
      'keyword-extract:compile',
      'broken:compile',
      'text-stats:compile',
    ];
    const dependencies = {
      'text-digest:compile': ['broken:compile', 'text-stats:compile'],
      'text-classify:compile': ['text-digest:compile'],
      'keyword-extract:compile': ['text-stats:compile', 'outside:compile'],
    };
    const reported: BatchTaskResult[] = [];
    for await (const result of compileBatchExecutor(
      taskGraph(ids, dependencies),
      Object.fromEntries(ids.map((id) => [id, inputs[id]!])),
      {} as CompileExecutorOptions,
      executorContext(root),
    ))
      reported.push(result);

    expect(reported.map((r) => r.task).sort()).toEqual([...ids].sort());
    const byTask = Object.fromEntries(reported.map((r) => [r.task, r.result]));
    const order = reported.map((r) => r.task);
    for (const skipped of ['text-digest:compile', 'text-classify:compile']) {
      expect(byTask[skipped], skipped).toMatchObject({ success: false, status: 'skipped', terminalOutput: '' });
      expect(order.indexOf(skipped)).toBeGreaterThan(order.indexOf('broken:compile'));
    }
    expect(byTask['broken:compile']).toMatchObject({ success: false, status: 'failure' });
    expect(byTask['keyword-extract:compile']).toMatchObject({ success: true, status: 'success' });
    expect(order.indexOf('keyword-extract:compile')).toBeGreaterThan(order.indexOf('text-stats:compile'));
    expect(readdirSync(join(root, 'dist/agents')).sort()).toEqual(['keyword-extract', 'text-stats']);
  });

  it('fails a task whose options are of the wrong kind or unknown, alone, writing nothing and echoing no value', async () => {
    // Nx no longer checks these (schema.json states no types, so one task's options cannot end the batch).
    const hostile: Record<string, Record<string, unknown>> = {
      'a:compile': { definition: 'examples/text-stats/agent.json', outputPath: { path: 'dist/agents/a' } },
      'b:compile': {
        definition: 'examples/text-stats/agent.json',
        outputPath: 'dist/agents/b',
        maxDepth: 'deep-secret-value',
      },
      'c:compile': {
        definition: 'examples/text-stats/agent.json',
        outputPath: 'dist/agents/c',
        outptuPath: 'dist/agents/typo',
      },
      'd:compile': { definition: 42, outputPath: 'dist/agents/d' },
      'e:compile': { definition: 'examples/text-stats/agent.json', outputPath: 'dist/agents/e', maxNodes: 0 },
      'f:compile': {
        definition: 'examples/text-stats/agent.json',
        outputPath: 'dist/agents/f',
        registryRoot: ['registry'],
      },
      'g:compile': {
        definition: 'examples/text-stats/agent.json',
        outputPath: 'dist/agents/g',
        target: { name: 'hb3' },
      },
      'h:compile': { outputPath: 'dist/agents/h' },
    };
    const inputs = { ...hostile, 'text-stats:compile': exampleTasks()['text-stats:compile']! } as unknown as Record<
      string,
      CompileExecutorOptions
    >;
    const ids = Object.keys(inputs);
    const reported: BatchTaskResult[] = [];
    for await (const result of compileBatchExecutor(
      taskGraph(ids),
      inputs,
      {} as CompileExecutorOptions,
      executorContext(root),
    ))
      reported.push(result);
    const byTask = Object.fromEntries(reported.map((r) => [r.task, r.result]));
    const expected: Record<string, string> = {
      'a:compile': 'the "outputPath" option must be a folder path, not an object',
      'b:compile': 'the "maxDepth" option must be a whole number of at least 1, not a string',
      'c:compile': 'unknown option "outptuPath"',
      'd:compile': 'the "definition" option must be a file path, not a number',
      'e:compile': 'the "maxNodes" option must be a whole number of at least 1, not 0',
      'f:compile': 'the "registryRoot" option must be a folder path, not an array',
      'g:compile':
        'the "target" option must be auto, cloudflare-dynamic-worker, hb3, kubernetes or local-mac, not an object',
      'h:compile': 'the "definition" option is required',
    };
    for (const [task, message] of Object.entries(expected)) {
      expect(byTask[task], task).toMatchObject({ success: false, status: 'failure' });
      expect(byTask[task]!.terminalOutput, task).toBe(
        `agentdef:compile: ${message}${task === 'c:compile' ? ': the options are definition, target, outputPath, registryRoot, maxDepth, maxNodes' : ''}\n`,
      );
    }
    expect(byTask['b:compile']!.terminalOutput).not.toContain('deep-secret-value');
    expect(byTask['text-stats:compile']).toMatchObject({ success: true, status: 'success' });
    expect(readdirSync(join(root, 'dist/agents'))).toEqual(['text-stats']);
    expect(readdirSync(root).sort()).toEqual(['dist', 'examples', 'mcp.json', 'nx.json', 'tools.json']);

    // The per-task executor takes the same options through the same check: each fails, with the
    // same message, writing nothing and echoing no value.
    const errors: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((line: unknown) => void errors.push(String(line)));
    try {
      for (const [task, message] of Object.entries(expected)) {
        errors.length = 0;
        const { success } = await compileExecutor(
          hostile[task] as unknown as CompileExecutorOptions,
          executorContext(root, task.split(':')[0]),
        );
        expect(success, task).toBe(false);
        expect(errors.join('\n'), task).toContain(`agentdef:compile: ${message}`);
        expect(errors.join('\n'), task).not.toContain('deep-secret-value');
      }
    } finally {
      spy.mockRestore();
    }
    expect(readdirSync(join(root, 'dist/agents'))).toEqual(['text-stats']);
  });
});
