import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolChildConfig } from '../../runtime/__test-support__/configs';
import type { Receipt } from '../../runtime/receipts';
import { generateReceiptKeyPair, verifyReceipt } from '../../runtime/receipts';
import { LimitReached } from '../../runtime/run-budget';
import { heapLimitMb } from '../../host-contract/heap-limit';
import { processChildRunner } from './child-runner';
import type { HostNodeSpec } from '../../host-contract/node-host-spec';

const FIXTURES = join(__dirname, '__fixtures__');
const config = toolChildConfig('worker');
config.limits = { wallClockMs: 300 };
const nodes: Record<string, HostNodeSpec> = {
  'p@1.0.0/worker@1.0.0': {
    nodeId: 'p@1.0.0/worker@1.0.0',
    config,
    memoryMb: 256,
    secrets: ['RECEIPT_SIGNING_JWK'],
    native: [],
    checkpoints: [],
  },
};
const child = { slug: 'worker', version: '1.0.0', nodeId: 'p@1.0.0/worker@1.0.0' };
const context = (signal = new AbortController().signal) => ({
  runId: '01J9RUN0000000000000000000',
  parent: { slug: 'p', version: '1.0.0' },
  quarantine: true,
  signal,
  remainingMs: 60_000,
});
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('quarantined children in their own process', () => {
  it('send the task with only the child subtree secrets and the child heap limit, and pass the reply and its receipts through', async () => {
    const delivered: Receipt[] = [];
    const runner = processChildRunner({
      nodes,
      entryFile: join(FIXTURES, 'child-answers.mjs'),
      env: { PATH: process.env['PATH'] },
      secretsFor: () => ({ RECEIPT_SIGNING_JWK: 'k' }),
      deliver: (r) => delivered.push(r),
    });
    const result = await runner(child, { text: 'go' }, context());
    expect(result).toEqual({
      stopReason: 'answer',
      answer: {
        text: `p@1.0.0/worker@1.0.0: go (01J9RUN0000000000000000000; secrets RECEIPT_SIGNING_JWK; args --child p@1.0.0/worker@1.0.0; node --max-old-space-size=192)`,
      },
    });
    expect(delivered).toEqual([{ runId: '01J9RUN0000000000000000000', receiptVersion: 'receipt/v1' }]);
    expect(heapLimitMb(256)).toBe(192);
    expect(heapLimitMb(32)).toBe(64);
  });

  it('kill a child that overruns its wall clock and issue its receipt themselves', async () => {
    const keys = await generateReceiptKeyPair();
    const delivered: Receipt[] = [];
    const pids: number[] = [];
    const runner = processChildRunner({
      nodes,
      entryFile: join(FIXTURES, 'child-hangs.mjs'),
      env: { PATH: process.env['PATH'] },
      secretsFor: () => ({ RECEIPT_SIGNING_JWK: JSON.stringify(keys.privateJwk) }),
      deliver: (r) => delivered.push(r),
      killGraceMs: 100,
      onSpawn: (pid) => pids.push(pid),
    });
    const started = Date.now();
    const result = await runner(child, { text: 'go' }, context());
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    expect(result).toEqual({
      stopReason: 'limit:wallClock',
      error: { code: 'killed_by_host', message: 'child worker@1.0.0 overran its wall clock and was killed' },
    });
    expect(alive(pids[0]!)).toBe(false);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]).toMatchObject({
      runId: '01J9RUN0000000000000000000',
      composedIn: { card: 'p', cardVersion: '1.0.0' },
      outcome: { stopReason: 'limit:wallClock', status: 'limit', errorCode: 'killed_by_host' },
    });
    expect(await verifyReceipt(delivered[0], keys.publicJwk)).toBe(true);
  });

  it('kill the child when the parent run is aborted, and rethrow the reason', async () => {
    const controller = new AbortController();
    const pids: number[] = [];
    const runner = processChildRunner({
      nodes,
      entryFile: join(FIXTURES, 'child-hangs.mjs'),
      env: { PATH: process.env['PATH'] },
      secretsFor: () => ({}),
      deliver: () => undefined,
      onSpawn: (pid) => pids.push(pid),
    });
    setTimeout(() => controller.abort(new LimitReached('limit:wallClock')), 100);
    await expect(runner(child, { text: 'go' }, context(controller.signal))).rejects.toBeInstanceOf(LimitReached);
    expect(alive(pids[0]!)).toBe(false);
  });
});
