import { describe, expect, it } from 'vitest';
import { contractTask, describeTaskStoreContract } from './__test-support__/task-store-contract';
import { createTaskStore } from './task-store';

describeTaskStoreContract('in memory', async (limits) => createTaskStore(limits));

describe('the in-memory task store', () => {
  it('measures what it holds exactly, two bytes a UTF-16 code unit, and never holds more than maxBytes', async () => {
    const store = createTaskStore({ maxTasks: 1000, maxBytes: 100_000 });
    for (let i = 0; i < 50; i++) {
      await store.put(contractTask(`t${i}`, 'x'.repeat(10_000)));
      expect(store.bytes()).toBeLessThanOrEqual(100_000);
    }
    expect(store.size()).toBeGreaterThan(1);
    expect(store.has('t49')).toBe(true);
    // 55,000 code units do not fit in 100,000 bytes, whatever the characters.
    const wide = createTaskStore({ maxTasks: 1000, maxBytes: 100_000 });
    await wide.put(contractTask('w', '€'.repeat(55_000)));
    expect(wide.has('w')).toBe(true);
    expect((await wide.get('w'))!.userMessage).toBeUndefined();
    expect(wide.bytes()).toBeLessThanOrEqual(100_000);
  });

  it('keeps nothing when maxTasks is 0, and is not shared', async () => {
    const store = createTaskStore({ maxTasks: 0, maxBytes: 1e6 });
    expect(await store.put(contractTask('a', 'hi'))).toBe(false);
    expect(store.size()).toBe(0);
    expect(store.shared).toBe(false);
  });
});
