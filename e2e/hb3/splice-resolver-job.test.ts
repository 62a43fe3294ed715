/**
 * The HB3 job of the tuned specialist, run locally with `agentdef run`: a fake checkpoint folder
 * mapped to the job's weights mount (the host reads it and reports its digest), the fake native
 * tool, and its tuned pin talking to a stub of the in-container inference server (its address
 * overridden by env for the local run). It answers one A2A task (a `Job`), writes a verifiable
 * receipt, exits 0 and leaves nothing running.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyReceipt } from '../../plugin/runtime/receipts';
import { descendantsOf } from '../../plugin/hosts/node/__test-support__/process-tree';
import {
  a2aAsk,
  agentdefRun,
  compileExample,
  isolatedEnv,
  readReceipts,
  receiptKeys,
  scratch,
  type Scratch,
} from '../local/support/host-harness';
import { SPLICE_INPUT, fakeCheckpoint, fakeParseSpans, startInferenceStub } from './support';

let tmp: Scratch;
beforeAll(async () => {
  tmp = scratch('hb3-splice');
  await compileExample('splice-resolver', 'hb3', tmp.path('out'));
});
afterAll(() => tmp.cleanup());

describe('the splice-resolver HB3 job, run locally', () => {
  it('reads its checkpoint, runs its native tool and tuned model, answers one task, and exits with its receipt written', async () => {
    const keys = await receiptKeys();
    const digest = fakeCheckpoint(tmp.path('weights'));
    fakeParseSpans(tmp.path('bin'), tmp.path('parents.txt'));
    const inference = await startInferenceStub();
    const receipts = tmp.path('receipts.jsonl');
    const env = isolatedEnv(tmp.path('home'), {
      AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY: keys.secret,
      AGENTDEF_NATIVE_BIN: tmp.path('bin'),
      AGENTDEF_INFERENCE_BASE_URL: inference.baseUrl,
    });
    const host = agentdefRun(tmp.path('out'), ['--weights', tmp.path('weights'), '--receipts', receipts], env);
    try {
      const url = await host.ready;
      expect(host.stdout()).toContain(`splice-resolver@0.4.2 (HB3 Job) serves A2A at ${url}/`);
      const health = (await (await fetch(`${url}/healthz`)).json()) as {
        checkpoints: { checkpointId: string; digest: string; files: number }[];
        kind: string;
      };
      expect(health).toMatchObject({ status: 'ok', agent: 'splice-resolver@0.4.2', host: 'hb3', kind: 'Job' });
      expect(health.checkpoints).toEqual([{ checkpointId: 'ckpt:acme/splice-resolver/2026-10-02', digest, files: 2 }]);
      // The host's events as agentdef run prints them: one readable line each (JSON only with --log-format json).
      expect(host.stderr()).toMatch(/^loaded checkpoint ckpt:acme\/splice-resolver\/2026-10-02: 2 files\b/m);
      expect(host.stderr()).not.toMatch(/^\{/m);
      // The job's service origin (http://splice-resolver:8080) does not exist here: the card names loopback.
      const job = JSON.parse(readFileSync(tmp.path('out', 'hb3-job.json'), 'utf8')) as {
        env: { name: string; value?: string }[];
      };
      expect(job.env).toContainEqual({ name: 'AGENTDEF_PUBLIC_ORIGIN', value: 'http://splice-resolver:8080' });
      const card = (await (await fetch(`${url}/.well-known/agent-card.json`)).json()) as {
        supportedInterfaces: { url: string }[];
      };
      expect(card.supportedInterfaces.length).toBeGreaterThan(0);
      for (const i of card.supportedInterfaces) expect(i.url.startsWith(`${url}/`), i.url).toBe(true);

      const { task, answer } = await a2aAsk(url, SPLICE_INPUT);
      expect(task.status?.state).toBe(3);
      expect(JSON.parse(answer!)).toEqual({ start: 7, end: 14, replacement: 'renamed', node: 'export_statement' });
      // The tuned pin reached the inference server by its checkpoint, with the tool, temperature 0 and seed 7.
      expect(inference.requests).toHaveLength(2);
      expect(inference.requests[0]!.body).toMatchObject({
        model: 'ckpt:acme/splice-resolver/2026-10-02',
        temperature: 0,
        seed: 7,
        max_tokens: 1024,
      });
      expect(inference.requests[0]!.body.tools[0].function.name).toBe('parse_spans');
      expect(inference.requests[0]!.headers['authorization']).toBeUndefined();
      // The native tool ran as a child of the job's own process.
      expect(readFileSync(tmp.path('parents.txt'), 'utf8')).toMatch(
        /--max-old-space-size=6144 .*image\/entrypoint\.mjs/,
      );

      // A Job serves one task, then stops by itself: exit 0, receipt flushed.
      expect(await host.exited).toBe(0);
      const written = readReceipts(receipts);
      expect(written).toHaveLength(1);
      expect(written[0]).toMatchObject({
        runId: task.id,
        pinning: { card: 'splice-resolver', cardVersion: '0.4.2', skill: 'splice.resolve', skillVersion: '0.4.2' },
        outcome: { status: 'answer' },
        toolCalls: [{ seq: 1, name: 'parse_spans', ok: true }],
      });
      expect(await verifyReceipt(written[0], keys.publicJwk)).toBe(true);
      expect(descendantsOf(host.proc.pid!)).toEqual([]);
    } finally {
      await host.stop('SIGKILL');
      await inference.close();
    }
  });

  it('will not start without its checkpoint folder, saying how to map it', async () => {
    const env = isolatedEnv(tmp.path('home-2'), { AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY: (await receiptKeys()).secret });
    const host = agentdefRun(tmp.path('out'), [], env);
    expect(await host.exited).toBe(1);
    expect(host.stderr()).toBe(
      'error: the job splice-resolver@0.4.2 mounts checkpoint ckpt:acme/splice-resolver/2026-10-02 at /weights/acme/splice-resolver/2026-10-02: pass --weights <folder> (or set AGENTDEF_WEIGHTS_ROOT to it) holding acme/splice-resolver/2026-10-02/\n',
    );
    const empty = agentdefRun(tmp.path('out'), ['--weights', tmp.path('no-weights-here')], env);
    expect(await empty.exited).toBe(78);
    expect(empty.stderr()).toContain(
      `agentdef: error: checkpoint ckpt:acme/splice-resolver/2026-10-02 of splice-resolver@0.4.2 is missing: no folder at ${tmp.path('no-weights-here', 'acme', 'splice-resolver', '2026-10-02')}`,
    );
  });
});
