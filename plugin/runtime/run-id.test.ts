import { describe, expect, it } from 'vitest';
import { RUN_ID_PATTERN, newRunId } from './run-id';

describe('newRunId', () => {
  it('is a 26-character ULID with the time first', () => {
    const id = newRunId(1_700_000_000_000);
    expect(id).toMatch(RUN_ID_PATTERN);
    expect(newRunId(1_700_000_000_001) > newRunId(1_700_000_000_000)).toBe(true);
  });

  it('encodes the time like the ulid package', async () => {
    const { encodeTime } = await import('ulid');
    expect(newRunId(1_700_000_000_000).slice(0, 10)).toBe(encodeTime(1_700_000_000_000, 10));
  });

  it('uses the injected random source deterministically', () => {
    const zeros = (b: Uint8Array<ArrayBuffer>) => b.fill(0);
    const ones = (b: Uint8Array<ArrayBuffer>) => b.fill(255);
    expect(newRunId(0, zeros)).toBe('0000000000' + '0'.repeat(16));
    expect(newRunId(0, ones)).toBe('0000000000' + 'Z'.repeat(16));
  });

  it('does not repeat', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newRunId(5)));
    expect(ids.size).toBe(1000);
  });
});
