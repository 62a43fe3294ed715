/**
 * The `TaskStore` contract as tests (task-store.ts says what it promises), run on every store:
 * the in-memory one, the Worker's Durable Object store, the Node hosts' SQLite store. Each store's
 * own test file calls `describeTaskStoreContract` with a factory that makes a fresh, empty store.
 */
import { describe, expect, it } from 'vitest';
import type { TaskView } from '../a2a-wire';
import type { TaskStore, TaskStoreLimits } from '../task-store';

export function contractTask(
  id: string,
  userText: string,
  answerText = 'ok',
  timestamp = '2026-11-30T00:00:00.000Z',
): TaskView {
  return {
    id,
    contextId: 'ctx',
    state: 'completed',
    replyText: answerText,
    answer: { text: answerText },
    userMessage: { messageId: `m-${id}`, parts: [{ kind: 'text', text: userText }] },
    timestamp,
    metadata: { runId: id },
  };
}

export function workingTask(id: string): TaskView {
  const { replyText: _r, answer: _a, ...rest } = contractTask(id, 'hi');
  return { ...rest, state: 'working' };
}

export function describeTaskStoreContract(
  name: string,
  makeStore: (limits: TaskStoreLimits) => Promise<TaskStore>,
): void {
  describe(`the TaskStore contract: ${name}`, () => {
    it('reads back what was put, and nothing for an unknown id', async () => {
      const store = await makeStore({ maxTasks: 10, maxBytes: 1e6 });
      expect(await store.put(contractTask('a', 'hi'))).toBe(true);
      expect(await store.get('a')).toEqual(contractTask('a', 'hi'));
      expect(await store.get('nope')).toBeUndefined();
    });

    it('lists oldest put first; putting again replaces the task and makes it the newest', async () => {
      const store = await makeStore({ maxTasks: 10, maxBytes: 1e6 });
      await store.put(workingTask('a'));
      await store.put(contractTask('b', 'hello'));
      expect((await store.list()).map((t) => [t.id, t.state])).toEqual([
        ['a', 'working'],
        ['b', 'completed'],
      ]);
      expect(await store.put(contractTask('a', 'hi', 'done'))).toBe(true);
      expect((await store.list()).map((t) => [t.id, t.state, t.replyText])).toEqual([
        ['b', 'completed', 'ok'],
        ['a', 'completed', 'done'],
      ]);
    });

    it('keeps a terminal task final: putting over it answers false and changes nothing', async () => {
      const store = await makeStore({ maxTasks: 10, maxBytes: 1e6 });
      await store.put(workingTask('a'));
      expect(await store.put({ ...workingTask('a'), state: 'canceled', timestamp: '2026-11-30T00:00:01.000Z' })).toBe(
        true,
      );
      expect(await store.put(contractTask('a', 'hi', 'late answer'))).toBe(false);
      expect(await store.put(workingTask('a'))).toBe(false);
      const kept = await store.get('a');
      expect(kept?.state).toBe('canceled');
      expect(kept?.replyText).toBeUndefined();
      expect((await store.list()).map((t) => t.id)).toEqual(['a']);
    });

    it('shares nothing with the task it was given or with earlier reads', async () => {
      const store = await makeStore({ maxTasks: 10, maxBytes: 1e6 });
      const original = contractTask('a', 'hi');
      await store.put(original);
      original.userMessage!.parts[0]!.text = 'changed';
      const first = await store.get('a');
      expect(first!.userMessage!.parts[0]!.text).toBe('hi');
      first!.contextId = 'changed';
      (await store.list())[0]!.metadata['x'] = 1;
      expect(await store.get('a')).toEqual(contractTask('a', 'hi'));
    });

    it('keeps at most maxTasks, evicting the oldest', async () => {
      const store = await makeStore({ maxTasks: 3, maxBytes: 1e9 });
      for (const id of ['a', 'b', 'c', 'd']) await store.put(contractTask(id, 'hi'));
      expect((await store.list()).map((t) => t.id)).toEqual(['b', 'c', 'd']);
      expect(await store.get('a')).toBeUndefined();
    });

    it('keeps within maxBytes, evicting the oldest, and drops the user message of a task larger than the budget', async () => {
      const store = await makeStore({ maxTasks: 1000, maxBytes: 100_000 });
      for (let i = 0; i < 30; i++) await store.put(contractTask(`t${i}`, 'x'.repeat(10_000)));
      const kept = (await store.list()).map((t) => t.id);
      expect(kept.length).toBeGreaterThan(1);
      expect(kept.length).toBeLessThan(10);
      expect(kept.at(-1)).toBe('t29');
      expect(kept).not.toContain('t0');
      await store.put(contractTask('big-question', 'q'.repeat(60_000)));
      const big = await store.get('big-question');
      expect(big?.userMessage).toBeUndefined();
      expect(big?.answer).toEqual({ text: 'ok' });
      expect(await store.put(contractTask('big-answer', 'q', 'a'.repeat(60_000)))).toBe(false);
      expect(await store.get('big-answer')).toBeUndefined();
    });

    it('forgets a non-terminal task whose new version cannot be kept, and keeps a terminal one', async () => {
      const store = await makeStore({ maxTasks: 10, maxBytes: 100_000 });
      const tooLarge = (id: string) => contractTask(id, 'q', 'a'.repeat(60_000));
      await store.put(contractTask('other', 'hi'));
      expect(await store.put(workingTask('run'))).toBe(true);
      expect(await store.put(tooLarge('run'))).toBe(false);
      expect(await store.get('run')).toBeUndefined();
      expect((await store.list()).map((t) => t.id)).toEqual(['other']);
      // A version JSON cannot hold is not kept either: the working one goes the same way.
      expect(await store.put(workingTask('cyclic'))).toBe(true);
      const cyclic = { ...workingTask('cyclic'), state: 'completed' as const } as TaskView & {
        metadata: Record<string, unknown>;
      };
      cyclic.metadata['self'] = cyclic;
      expect(await store.put(cyclic)).toBe(false);
      expect(await store.get('cyclic')).toBeUndefined();
      // A terminal version is final: a too-large one after it changes nothing.
      expect(await store.put(contractTask('done', 'hi', 'the answer'))).toBe(true);
      expect(await store.put(tooLarge('done'))).toBe(false);
      expect((await store.get('done'))?.replyText).toBe('the answer');
      expect((await store.list()).map((t) => [t.id, t.state])).toEqual([
        ['other', 'completed'],
        ['done', 'completed'],
      ]);
      // A task never kept: refused, nothing else touched.
      expect(await store.put(tooLarge('never'))).toBe(false);
      expect((await store.list()).map((t) => t.id)).toEqual(['other', 'done']);
    });

    it('refuses what JSON cannot hold, without throwing', async () => {
      const store = await makeStore({ maxTasks: 10, maxBytes: 1e6 });
      const cyclic = contractTask('cyclic', 'hi') as TaskView & { metadata: Record<string, unknown> };
      cyclic.metadata['self'] = cyclic;
      expect(await store.put(cyclic)).toBe(false);
      expect(await store.get('cyclic')).toBeUndefined();
    });

    it('gives a shared store one page-token key of 32 bytes, the same on every read', async () => {
      const store = await makeStore({ maxTasks: 10, maxBytes: 1e6 });
      if (!store.shared) {
        expect(store.pageTokenKey).toBeUndefined();
        return;
      }
      const first = await store.pageTokenKey!();
      expect(first.byteLength).toBe(32);
      expect([...(await store.pageTokenKey!())]).toEqual([...first]);
    });
  });
}
