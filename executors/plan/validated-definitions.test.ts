/**
 * The plan executor keeps the clean validations of a successful task for the next task's process
 * (validated-definition-store.ts), and prints the same plan from them; a task that fails keeps
 * nothing, and an edited child is reported as if nothing had been kept.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { agent, json } from '../../plugin/compiler/test-support';
import { contextWithGraph, inferredProjectGraph } from '../__test-support__/inferred-project-graph';
import planExecutor from './executor';

let root: string;
let logs: MockInstance;
let errors: MockInstance;
const write = (path: string, text: string) => {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
};
const store = () => join(root, '.nx', 'workspace-data', 'agentdef-validated-definitions');
const entries = () => (existsSync(store()) ? readdirSync(store()).length : 0);
const printed = (spy: MockInstance) => spy.mock.calls.map((c) => c.join(' ')).join('\n');

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'agentdef-plan-store-'));
  write('nx.json', '{}\n');
  write('parent/agent.json', json(agent('parent', '1.0.0', { nodes: [['base', '1.0.0']] })));
  write('base/agent.json', json(agent('base', '1.0.0')));
  logs = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(root, { recursive: true, force: true });
});

describe('the plan executor with kept validations', () => {
  it('keeps a successful task’s clean validations and prints the same plan from them', async () => {
    const graph = await inferredProjectGraph(root, ['parent/agent.json', 'base/agent.json']);
    const run = () => planExecutor({ definition: 'parent/agent.json' }, contextWithGraph(root, graph, 'parent'));
    expect(await run()).toEqual({ success: true });
    const first = printed(logs);
    expect(entries()).toBe(2);
    logs.mockClear();
    expect(await run()).toEqual({ success: true });
    expect(printed(logs)).toBe(first);
    // An edited child is validated again: its error is reported, and the failed task keeps nothing new.
    const broken = agent('base', '1.0.0');
    write('base/agent.json', json({ ...broken, schemaVersion: 'agent-definition/v0' }));
    rmSync(store(), { recursive: true });
    expect(await run()).toEqual({ success: false });
    expect(printed(errors)).toContain('base/agent.json');
    expect(entries()).toBe(0);
  });
});
