/**
 * On the local host, a quarantined child runs as its own subprocess of the launcher
 * (`launch.mjs --child <node>`), the others in process; the child's receipt carries the
 * parent's run id. The router compiled for local-mac: its tuned child talks to a local
 * OpenAI-compatible server (a stub), its native tool is a fake executable.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyReceipt } from '../../plugin/runtime/receipts';
import { SPLICE_INPUT, fakeParseSpans, startInferenceStub } from '../hb3/support';
import {
  REPO,
  a2aAsk,
  compileExample,
  isolatedEnv,
  readReceipts,
  receiptKeys,
  scratch,
  startHostProcess,
  type Scratch,
} from './support/host-harness';

let tmp: Scratch;
beforeAll(async () => {
  tmp = scratch('local-quarantine');
  await compileExample('write-router', 'local-mac', tmp.path('out'));
});
afterAll(() => tmp.cleanup());

describe('a quarantined child on the local host', () => {
  it('runs in its own launcher subprocess and reports back a receipt under the parent run id', async () => {
    const keys = await receiptKeys();
    fakeParseSpans(tmp.path('bin'), tmp.path('parents.txt'));
    const inference = await startInferenceStub();
    const receipts = tmp.path('receipts.jsonl');
    const env = isolatedEnv(tmp.path('home'), {
      AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY: keys.secret,
      AGENTDEF_SECRET_OPENAI_API_KEY: 'sk-router',
      AGENTDEF_SECRET_ANTHROPIC_API_KEY: 'sk-fallback',
      AGENTDEF_NATIVE_BIN: tmp.path('bin'),
      AGENTDEF_INFERENCE_BASE_URL: inference.baseUrl,
      AGENTDEF_RECEIPTS_FILE: receipts,
      AGENTDEF_WORKSPACE: REPO,
    });
    const host = startHostProcess([tmp.path('out', 'launch.mjs')], { cwd: REPO, env });
    try {
      const { task, answer } = await a2aAsk(await host.ready, SPLICE_INPUT);
      expect(task.status?.state).toBe(3);
      expect(JSON.parse(answer!)).toMatchObject({ start: 7, end: 14, replacement: 'renamed' });
      expect(readFileSync(tmp.path('parents.txt'), 'utf8')).toMatch(
        /--max-old-space-size=6144 .*launch\.mjs --child write-router@1\.4\.0\/splice-resolver@0\.4\.2\n$/,
      );
      expect(await host.stop('SIGTERM')).toBe(0);
      const written = readReceipts(receipts);
      expect(written.map((r) => [r.pinning.card, r.runId === task.id, r.composedIn ?? null]).sort()).toEqual([
        ['splice-resolver', true, { card: 'write-router', cardVersion: '1.4.0' }],
        ['write-router', true, null],
      ]);
      for (const r of written) expect(await verifyReceipt(r, keys.publicJwk)).toBe(true);
    } finally {
      await host.stop('SIGKILL');
      await inference.close();
    }
  });
});
