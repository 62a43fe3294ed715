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
  for (const entry of ['examples', 'tools.json', 'mcp.json']) cpSync(join(REPO, entry), join(root, entry), { recursive: true });
  // One agent the compile rejects (a runtime class the schema does not know).
  const broken = join(root, 'examples/text-stats/agent.json');
  cpSync(broken, join(root, 'examples/broken/agent.json'));
  writeFileSync(join(root, 'examples/broken/agent.json'), readFileSync(broken, 'utf8').replace('"text-stats"', '"broken"').replace('"workers-only"', '"workers-maybe"'));
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(root, { recursive: true, force: true });
});

/** One compile task per example folder, as Nx would hand them over. */
function exampleTasks(): Record<string, CompileExecutorOptions> {
  const tasks: Record<string, CompileExecutorOptions> = {};
  for (const name of readdirSync(join(root, 'examples')).sort()) {
    const file = ['agent.json', 'agent.yaml'].find((candidate) => readdirSync(join(root, 'examples', name)).includes(candidate));
    if (file) tasks[`${name}:compile`] = { definition: `examples/${name}/${file}`, target: 'auto', outputPath: `dist/agents/${name}` };
  }
  return tasks;
}

function taskGraph(ids: string[]): TaskGraph {
  const tasks = Object.fromEntries(ids.map((id) => [id, { id, target: { project: id.split(':')[0]!, target: 'compile' }, overrides: {}, outputs: [], parallelism: true }]));
  return { roots: ids, tasks, dependencies: Object.fromEntries(ids.map((id) => [id, []])), continuousDependencies: Object.fromEntries(ids.map((id) => [id, []])) } as unknown as TaskGraph;
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
    for await (const result of compileBatchExecutor(taskGraph(ids), inputs, {} as CompileExecutorOptions, executorContext(root))) reported.push(result);

    expect(reported.map((r) => r.task).sort()).toEqual(ids);
    for (const { task, result } of reported) {
      expect({ success: result.success, terminalOutput: result.terminalOutput }, task).toEqual(perTask[task]);
      expect(result.endTime).toBeGreaterThanOrEqual(result.startTime);
    }
    expect(snapshotTree(join(root, 'dist'))).toEqual(perTaskFiles);
    expect(perTask['broken:compile']!.success).toBe(false);
    expect(Object.values(perTask).filter((r) => r.success).length).toBeGreaterThan(5);
  }, 180_000);
});
