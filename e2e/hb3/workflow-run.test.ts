/**
 * The router's workflow, run: its HB3 job drives the composition with the portable runtime, and
 * each quarantined child runs in its own process: by default a fresh process of the same
 * entrypoint (`--child <node>`, the child's own heap limit, only its own secrets), or, with
 * AGENTDEF_CHILD_LAUNCHER, the child's own job started from its job file (as HB3 would). The
 * child's receipt carries the parent's run id and both verify.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyReceipt } from '../../plugin/runtime/receipts';
import { descendantsOf, settle } from '../../plugin/hosts/node/__test-support__/process-tree';
import {
  a2aAsk,
  agentdefRun,
  compileExample,
  isolatedEnv,
  readReceipts,
  receiptKeys,
  scratch,
  startHostProcess,
  type Scratch,
} from '../local/support/host-harness';
import { SPLICE_INPUT, fakeCheckpoint, fakeParseSpans, startInferenceStub } from './support';

const CHILD = 'write-router@1.4.0/splice-resolver@0.4.2';
let tmp: Scratch;
let keys: Awaited<ReturnType<typeof receiptKeys>>;
beforeAll(async () => {
  tmp = scratch('hb3-workflow');
  keys = await receiptKeys();
  await compileExample('write-router', 'hb3', tmp.path('out'));
  fakeCheckpoint(tmp.path('weights'));
});
afterAll(() => tmp.cleanup());

/**
 * `agentdef run` (secrets from the local source, weights mapped), or the root job's entrypoint
 * started the way HB3 starts it (its environment as the job spec says, secrets injected).
 */
async function runRouter(name: string, how: 'agentdef-run' | 'entrypoint', extra: NodeJS.ProcessEnv) {
  fakeParseSpans(tmp.path(`bin-${name}`), tmp.path(`parents-${name}.txt`));
  const inference = await startInferenceStub();
  const receipts = tmp.path(`receipts-${name}.jsonl`);
  const common = {
    AGENTDEF_NATIVE_BIN: tmp.path(`bin-${name}`),
    AGENTDEF_INFERENCE_BASE_URL: inference.baseUrl,
    ...extra,
  };
  const host =
    how === 'agentdef-run'
      ? agentdefRun(
          tmp.path('out'),
          ['--weights', tmp.path('weights'), '--receipts', receipts],
          isolatedEnv(tmp.path(`home-${name}`), {
            AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY: keys.secret,
            AGENTDEF_SECRET_OPENAI_API_KEY: 'sk-router-unused',
            AGENTDEF_SECRET_ANTHROPIC_API_KEY: 'sk-fallback-unused',
            ...common,
          }),
        )
      : startHostProcess([tmp.path('out', 'image', 'entrypoint.mjs')], {
          cwd: tmp.path('out'),
          env: isolatedEnv(tmp.path(`home-${name}`), {
            HOST: '127.0.0.1',
            PORT: '0',
            AGENTDEF_RECEIPTS_FILE: receipts,
            AGENTDEF_RECEIPT_KEY: keys.secret,
            OPENAI_API_KEY: 'sk-router-unused',
            ANTHROPIC_API_KEY: 'sk-fallback-unused',
            ...common,
          }),
        });
  try {
    const url = await host.ready;
    if (how === 'agentdef-run') expect(host.stdout()).toContain('write-router@1.4.0 (HB3 Service) serves A2A at');
    const { task, answer } = await a2aAsk(url, SPLICE_INPUT);
    expect(task.status?.state).toBe(3);
    expect(JSON.parse(answer!)).toEqual({ start: 7, end: 14, replacement: 'renamed', node: 'export_statement' });
    const parents = readFileSync(tmp.path(`parents-${name}.txt`), 'utf8');
    expect(await host.stop('SIGTERM')).toBe(0);
    expect(await settle(() => descendantsOf(host.proc.pid!))).toEqual([]);
    const written = readReceipts(receipts);
    expect(written.map((r) => [r.pinning.card, r.runId, r.composedIn?.card ?? null, r.outcome.status]).sort()).toEqual([
      ['splice-resolver', task.id, 'write-router', 'answer'],
      ['write-router', task.id, null, 'answer'],
    ]);
    for (const r of written) expect(await verifyReceipt(r, keys.publicJwk)).toBe(true);
    expect(written.find((r) => r.pinning.card === 'write-router')!.composition!.nodes).toEqual([
      { card: 'splice-resolver', cardVersion: '0.4.2', status: 'ran', stopReason: 'answer' },
      { card: 'fallback-writer', cardVersion: '1.1.0', status: 'skipped' },
    ]);
    return { parents };
  } finally {
    await host.stop('SIGKILL');
    await inference.close();
  }
}

describe('the write-router workflow on the local HB3 host', () => {
  it('runs the quarantined splice-resolver as its own process, with its own heap limit', async () => {
    const { parents } = await runRouter('process', 'agentdef-run', {});
    expect(parents).toMatch(
      new RegExp(
        `--max-old-space-size=6144 .*image/entrypoint\\.mjs --child ${CHILD.replace(/[.@/]/g, (c) => `\\${c}`)}\\n$`,
      ),
    );
  });

  it('starts the quarantined child as its own job through AGENTDEF_CHILD_LAUNCHER', async () => {
    const log = tmp.path('launched.txt');
    const secrets = tmp.path('hb3-secrets.json');
    writeFileSync(secrets, JSON.stringify({ AGENTDEF_RECEIPT_KEY: keys.secret }));
    const { parents } = await runRouter('launcher', 'entrypoint', {
      AGENTDEF_CHILD_LAUNCHER: `${process.execPath} ${join(__dirname, 'fixtures', 'fake-hb3-launcher.cjs')}`,
      FAKE_HB3_OUTPUT: tmp.path('out'),
      FAKE_HB3_SECRETS: secrets,
      FAKE_HB3_WEIGHTS: tmp.path('weights'),
      FAKE_HB3_LOG: log,
    });
    expect(readFileSync(log, 'utf8')).toBe(
      'Job write-router-splice-resolver-0-4-2 jobs/splice-resolver-0.4.2.hb3-job.json\n',
    );
    expect(parents).toContain(`--child ${CHILD}`);
  });
});
