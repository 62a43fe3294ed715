/**
 * One agent loop, three hosts. The same agent (fallback-writer: a small Anthropic pin and the
 * bundled diff tool) is compiled for each target and runs the same scripted conversation against
 * the same stub model (a real HTTP server speaking Anthropic messages with tool calls):
 *   - the Worker in workerd (the cloudflare-dynamic-worker adapter's output behind its loader);
 *   - the HB3 job, as a local process (`agentdef run`);
 *   - the local launcher (`agentdef run` of the local-mac output).
 * Asserted: the same answers, the same tool calls in the same order, the same requests reaching
 * the model (prompts, tools, tool results), and receipts that differ only in time, ids and
 * signatures (each verifies against the same public key).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedProvider,
  type RecordedRequest,
  type ScriptTurn,
  type TurnContext,
} from '../../plugin/runtime/__test-support__/stub-provider';
import type { Receipt } from '../../plugin/runtime/receipts';
import { verifyReceipt } from '../../plugin/runtime/receipts';
import { compileAgent } from '../../plugin/compiler/compile';
import { startCompiledWorker } from '../worker/support/start-compiled-worker';
import {
  REPO,
  a2aAsk,
  agentdefRun,
  compileExample,
  isolatedEnv,
  readReceipts,
  receiptKeys,
  scratch,
  type Scratch,
} from '../local/support/host-harness';

const ANTHROPIC_KEY = 'sk-ant-conformance-0123456789';
const SOURCE = 'const raw = read();\nconst config = parseConfig(raw);\nuse(config);\n';
const DIFF =
  '@@ -1,3 +1,4 @@\n const raw = read();\n+if (raw == null) throw new Error("no config");\n const config = parseConfig(raw);\n use(config);\n';
const CONVERSATION: (string | Record<string, unknown>)[] = [
  { path: 'src/config.ts', source: SOURCE, instruction: 'add a null check before the call to parseConfig' },
  'What can you do?',
];

/** The model, scripted from each request alone (so every host sees the same turns). */
function script(_index: number, ctx: TurnContext): ScriptTurn {
  if (ctx.lastToolResults.length > 0) {
    const result = JSON.parse(ctx.lastToolResults[0]!) as { applied: boolean; result?: string };
    return {
      text: JSON.stringify({
        path: 'src/config.ts',
        applied: result.applied,
        diff: DIFF,
        lines: result.result?.split('\n').length,
      }),
    };
  }
  if (ctx.allText.includes('What can you do?'))
    return { text: 'I rewrite one file at a time with a unified diff that must apply cleanly.' };
  return { toolCalls: [{ name: 'apply_unified_diff', arguments: { source: SOURCE, diff: DIFF } }] };
}

interface HostRun {
  answers: string[];
  receipts: Receipt[];
  modelRequests: RecordedRequest[];
}

let tmp: Scratch;
let keys: Awaited<ReturnType<typeof receiptKeys>>;
const runs: Record<'worker' | 'hb3' | 'local', HostRun> = {} as never;

async function converse(url: string): Promise<string[]> {
  const answers: string[] = [];
  for (const [i, message] of CONVERSATION.entries()) {
    const { task, answer } = await a2aAsk(url, message, `conv-${i}`);
    expect(task.status?.state).toBe(3);
    answers.push(answer!);
  }
  return answers;
}

async function runWorker(): Promise<HostRun> {
  const model = await startScriptedProvider({ wire: 'anthropic-messages', apiKey: ANTHROPIC_KEY, script });
  const out = tmp.path('worker');
  const compiled = await compileAgent({
    file: 'examples/fallback-writer/agent.json',
    workspaceRoot: REPO,
    target: 'cloudflare-dynamic-worker',
    outDir: out,
  });
  expect(compiled.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const worker = await startCompiledWorker(out, {
    secrets: { ANTHROPIC_API_KEY: ANTHROPIC_KEY, AGENTDEF_RECEIPT_KEY: keys.secret },
    upstreams: { 'https://api.anthropic.com': model.url },
  });
  try {
    const answers = await converse(worker.url);
    return { answers, receipts: await worker.receipts(CONVERSATION.length, 5000), modelRequests: model.requests };
  } finally {
    await worker.dispose();
    await model.close();
  }
}

async function runProcessHost(target: 'hb3' | 'local-mac'): Promise<HostRun> {
  const model = await startScriptedProvider({ wire: 'anthropic-messages', apiKey: ANTHROPIC_KEY, script });
  const out = tmp.path(target);
  await compileExample('fallback-writer', target, out);
  const receipts = tmp.path(`${target}-receipts.jsonl`);
  const env = isolatedEnv(tmp.path(`home-${target}`), {
    AGENTDEF_SECRET_ANTHROPIC_API_KEY: ANTHROPIC_KEY,
    AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY: keys.secret,
    AGENTDEF_BASE_URL_ANTHROPIC: model.url,
  });
  const host = agentdefRun(out, ['--receipts', receipts], env);
  try {
    const answers = await converse(await host.ready);
    expect(await host.stop('SIGTERM')).toBe(0);
    return { answers, receipts: readReceipts(receipts), modelRequests: model.requests };
  } finally {
    await host.stop('SIGKILL');
    await model.close();
  }
}

beforeAll(async () => {
  tmp = scratch('cross-host');
  keys = await receiptKeys();
  [runs.worker, runs.hb3, runs.local] = await Promise.all([
    runWorker(),
    runProcessHost('hb3'),
    runProcessHost('local-mac'),
  ]);
});
afterAll(() => tmp.cleanup());

/** A receipt without what may differ between hosts: time, ids, signature. */
function comparable(receipt: Receipt): Partial<Receipt> {
  const { runId: _runId, issuedAt: _issuedAt, latencyMs: _latencyMs, signature, ...rest } = receipt;
  return { ...rest, signature: { alg: signature.alg, kid: signature.kid, value: '' } };
}

const byRequestOrder = (receipts: Receipt[]) => [...receipts].sort((a, b) => (a.runId < b.runId ? -1 : 1));

describe('the same conversation on Workers, HB3 and the local host', () => {
  it('gives the same answers on every host', () => {
    expect(runs.worker.answers).toHaveLength(2);
    expect(JSON.parse(runs.worker.answers[0]!)).toEqual({ path: 'src/config.ts', applied: true, diff: DIFF, lines: 5 });
    expect(runs.hb3.answers).toEqual(runs.worker.answers);
    expect(runs.local.answers).toEqual(runs.worker.answers);
  });

  it('sends the model the same requests, tool results included, in the same order', () => {
    const bodies = (run: HostRun) => run.modelRequests.map((r) => r.body);
    expect(runs.worker.modelRequests).toHaveLength(3);
    expect(bodies(runs.hb3)).toEqual(bodies(runs.worker));
    expect(bodies(runs.local)).toEqual(bodies(runs.worker));
    for (const run of Object.values(runs))
      for (const r of run.modelRequests) expect(r.headers['x-api-key']).toBe(ANTHROPIC_KEY);
  });

  it('makes the same tool calls in the same order, and receipts that differ only in time, ids and signatures', async () => {
    const worker = byRequestOrder(runs.worker.receipts);
    expect(worker.map((r) => r.toolCalls)).toEqual([[{ seq: 1, name: 'apply_unified_diff', ok: true }], []]);
    for (const host of ['hb3', 'local'] as const) {
      const theirs = byRequestOrder(runs[host].receipts);
      expect(theirs.map(comparable)).toEqual(worker.map(comparable));
      expect(theirs.map((r) => r.runId)).not.toEqual(worker.map((r) => r.runId));
    }
    for (const run of Object.values(runs))
      for (const r of run.receipts) expect(await verifyReceipt(r, keys.publicJwk)).toBe(true);
  });
});
