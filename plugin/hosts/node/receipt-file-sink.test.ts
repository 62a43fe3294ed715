import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Receipt } from '../../runtime/receipts';
import { createReceiptFileSink } from './receipt-file-sink';

const dir = mkdtempSync(join(tmpdir(), 'agentdef-sink-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the JSONL receipt sink', () => {
  it('creates its folder, appends one receipt per line in order, and flushes', async () => {
    const path = join(dir, 'a', 'b', 'receipts.jsonl');
    const sink = createReceiptFileSink(path);
    const receipts = Array.from(
      { length: 20 },
      (_, i) => ({ runId: `R${i}`, receiptVersion: 'receipt/v1' }) as unknown as Receipt,
    );
    for (const r of receipts) void sink.put(r);
    await sink.flush();
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as Receipt).runId)).toEqual(receipts.map((r) => r.runId));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    await sink.put({ runId: 'late' } as unknown as Receipt);
    expect(readFileSync(path, 'utf8').trimEnd().split('\n')).toHaveLength(21);
  });

  it('reports a write that fails and keeps going', async () => {
    const errors: unknown[] = [];
    await createReceiptFileSink(join(dir, 'receipts.jsonl')).put({ runId: 'x' } as unknown as Receipt);
    const sink = createReceiptFileSink(join(dir, 'receipts.jsonl', 'under-a-file.jsonl'), (e) => errors.push(e));
    await expect(sink.put({ runId: 'y' } as unknown as Receipt)).rejects.toBeDefined();
    await sink.flush();
    expect(errors.length).toBeGreaterThan(0);
  });
});
