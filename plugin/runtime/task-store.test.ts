import { describe, expect, it } from 'vitest';
import type { TaskView } from './a2a-wire';
import { createTaskStore } from './task-store';

function task(id: string, userText: string, answerText = 'ok'): TaskView {
  return {
    id,
    contextId: 'ctx',
    state: 'completed',
    replyText: answerText,
    answer: { text: answerText },
    userMessage: { messageId: `m-${id}`, parts: [{ kind: 'text', text: userText }] },
    timestamp: '2026-11-30T00:00:00.000Z',
    metadata: { runId: id },
  };
}

describe('the task store', () => {
  it('keeps at most maxTasks, evicting the oldest', () => {
    const store = createTaskStore({ maxTasks: 3, maxBytes: 1e9 });
    for (const id of ['a', 'b', 'c', 'd']) store.put(task(id, 'hi'));
    expect(store.size()).toBe(3);
    expect(store.has('a')).toBe(false);
    expect(store.get('d')).toEqual(task('d', 'hi'));
  });

  it('keeps at most maxBytes, measured on what is stored, evicting the oldest', () => {
    const store = createTaskStore({ maxTasks: 1000, maxBytes: 100_000 });
    for (let i = 0; i < 50; i++) {
      store.put(task(`t${i}`, 'x'.repeat(10_000)));
      expect(store.bytes()).toBeLessThanOrEqual(100_000);
    }
    expect(store.size()).toBeGreaterThan(1);
    expect(store.size()).toBeLessThan(5);
    expect(store.has('t49')).toBe(true);
    expect(store.has('t0')).toBe(false);
    // Two bytes a code unit, whatever the characters: 55,000 of them do not fit in 100,000 bytes.
    const wide = createTaskStore({ maxTasks: 1000, maxBytes: 100_000 });
    wide.put(task('w', '€'.repeat(55_000)));
    expect(wide.has('w')).toBe(true);
    expect(wide.get('w')!.userMessage).toBeUndefined();
  });

  it('keeps only the answer of a task larger than the budget, and nothing of one whose answer alone is larger', () => {
    const store = createTaskStore({ maxTasks: 10, maxBytes: 10_000 });
    store.put(task('big-question', 'q'.repeat(50_000)));
    const kept = store.get('big-question')!;
    expect(kept.userMessage).toBeUndefined();
    expect(kept.answer).toEqual({ text: 'ok' });
    store.put(task('big-answer', 'q', 'a'.repeat(50_000)));
    expect(store.has('big-answer')).toBe(false);
    expect(store.has('big-question')).toBe(true);
    expect(store.bytes()).toBeLessThanOrEqual(10_000);
  });

  it('shares nothing with the task it was given, and survives what JSON cannot hold', () => {
    const store = createTaskStore({ maxTasks: 10, maxBytes: 1e6 });
    const original = task('a', 'hi');
    store.put(original);
    original.userMessage!.parts[0]!.text = 'changed';
    expect(store.get('a')!.userMessage!.parts[0]!.text).toBe('hi');
    const cyclic = task('cyclic', 'hi') as TaskView & { metadata: Record<string, unknown> };
    cyclic.metadata['self'] = cyclic;
    expect(() => store.put(cyclic)).not.toThrow();
    expect(store.has('cyclic')).toBe(false);
    expect(createTaskStore({ maxTasks: 0, maxBytes: 1e6 }).has('a')).toBe(false);
  });

  it('lists every kept task, oldest put first; putting a task again (working, then finished) replaces it and makes it the newest', () => {
    const store = createTaskStore({ maxTasks: 10, maxBytes: 1e6 });
    const working: TaskView = { ...task('a', 'hi'), state: 'working' };
    delete working.replyText;
    delete working.answer;
    store.put(working);
    store.put(task('b', 'hello'));
    expect(store.list().map((t) => [t.id, t.state])).toEqual([
      ['a', 'working'],
      ['b', 'completed'],
    ]);
    store.put(task('a', 'hi', 'done'));
    expect(store.list().map((t) => [t.id, t.state, t.replyText])).toEqual([
      ['b', 'completed', 'ok'],
      ['a', 'completed', 'done'],
    ]);
    expect(store.size()).toBe(2);
    const listed = store.list();
    listed[0]!.contextId = 'changed';
    expect(store.get('b')!.contextId).toBe('ctx');
  });
});
