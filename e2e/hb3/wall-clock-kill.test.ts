/**
 * A job that overruns `wallClockMs` and cannot stop itself (its tool blocks the event loop, so no
 * timer inside it can fire) is killed by its host after `timeouts.killAfterMs`, and the host
 * writes its receipt: `limit:wallClock`, `killed_by_host`, signed, valid against receipt/v1.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyReceipt } from '../../plugin/runtime/receipts';
import { descendantsOf } from '../../plugin/hosts/node/__test-support__/process-tree';
import {
  REPO,
  agentdefRun,
  compileExample,
  isolatedEnv,
  readReceipts,
  receiptKeys,
  scratch,
  type Scratch,
} from '../local/support/host-harness';

const WORKSPACE = join(__dirname, 'fixtures', 'busy-workspace');
let tmp: Scratch;
beforeAll(async () => {
  tmp = scratch('hb3-kill');
  await compileExample(join(WORKSPACE, 'agents/busy-worker/agent.json'), 'hb3', tmp.path('out'), WORKSPACE);
});
afterAll(() => tmp.cleanup());

describe('the wall clock of an HB3 job', () => {
  it('kills a run that overruns it and records the kill in a signed receipt', async () => {
    const job = JSON.parse(readFileSync(tmp.path('out', 'hb3-job.json'), 'utf8')) as {
      timeouts: { runMs: number; killAfterMs: number };
    };
    expect(job.timeouts).toMatchObject({ runMs: 1000, killAfterMs: 3000 });
    const keys = await receiptKeys();
    const receipts = tmp.path('receipts.jsonl');
    const host = agentdefRun(
      tmp.path('out'),
      ['--receipts', receipts],
      isolatedEnv(tmp.path('home'), { AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY: keys.secret }),
    );
    try {
      const url = await host.ready;
      const jobPid = descendantsOf(host.proc.pid!).find((p) => p.args.includes('entrypoint.mjs'))!.pid;
      const started = Date.now();
      const call = fetch(`${url}/a2a/v1`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'SendMessage',
          params: { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'crunch' }] } },
        }),
      }).then(
        () => 'answered',
        () => 'connection lost',
      );
      expect(await call).toBe('connection lost');
      const elapsed = Date.now() - started;
      expect(await host.exited).toBe(1);
      // The tool spins for good: the host killing it at all, after the 3 s grace, is the limit at work.
      expect(elapsed).toBeGreaterThanOrEqual(2900);
      expect(host.stderr()).toMatch(
        /error: busy-worker@1\.0\.0 run [0-9A-Z]{26} exceeded its wall clock \(wallClockMs 1000 ms\) and was killed after 3000 ms; its receipt records limit:wallClock \(killed_by_host\)\n/,
      );
      expect(() => process.kill(jobPid, 0)).toThrow();

      const written = readReceipts(receipts);
      expect(written).toHaveLength(1);
      const receipt = written[0]!;
      expect(receipt).toMatchObject({
        pinning: { card: 'busy-worker', cardVersion: '1.0.0', skill: 'crunch', skillVersion: '1.0.0' },
        outcome: { stopReason: 'limit:wallClock', status: 'limit', errorCode: 'killed_by_host' },
        toolCalls: [],
      });
      expect(receipt.latencyMs).toBeGreaterThanOrEqual(3000);
      expect(await verifyReceipt(receipt, keys.publicJwk)).toBe(true);
      const ajv = new Ajv2020({ allErrors: true, strict: false });
      addFormats(ajv);
      const validate = ajv.compile(
        JSON.parse(readFileSync(join(REPO, 'plugin/schema/receipt.v1.schema.json'), 'utf8')) as object,
      );
      expect(validate(receipt), JSON.stringify(validate.errors)).toBe(true);
    } finally {
      await host.stop('SIGKILL');
    }
  });
});
