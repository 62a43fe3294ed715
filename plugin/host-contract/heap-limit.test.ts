import { describe, expect, it } from 'vitest';
import { concurrentRunsFor, heapLimitMb } from './heap-limit';

describe('what the heap limit bounds', () => {
  it('gives a 128 MB container a 96 MB heap and 8 requests at once, never fewer than 2 nor more than 16', () => {
    expect(heapLimitMb(128)).toBe(96);
    expect(concurrentRunsFor(heapLimitMb(128))).toBe(8);
    expect(concurrentRunsFor(heapLimitMb(64))).toBe(5);
    expect(concurrentRunsFor(1)).toBe(2);
    expect(concurrentRunsFor(heapLimitMb(8192))).toBe(16);
  });
});
