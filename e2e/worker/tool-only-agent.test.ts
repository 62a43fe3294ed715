/**
 * Tool-only agents compiled for Workers, running in workerd behind their loader: the A2A SDK
 * client reads the card and gets the tool's answer; an agent with signed receipts leaves exactly
 * one receipt per run, verifiable with the public key; text-stats (a tool prototype) signs none.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TaskState } from '@a2a-js/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateReceiptKeyPair, verifyReceipt } from '../../plugin/runtime/receipts';
import { askWithSdk, rawRpc, sendMessageBody } from './support/a2a-client';
import { compileWorker, exampleWorkspace, type ExampleWorkspace } from './support/example-workspace';
import { startCompiledWorker, type StartedWorker } from './support/start-compiled-worker';

let ws: ExampleWorkspace;
let keys: { privateJwk: JsonWebKey; publicJwk: JsonWebKey };
const started: StartedWorker[] = [];

beforeAll(async () => {
  ws = exampleWorkspace('tool-only');
  keys = await generateReceiptKeyPair();
});
afterAll(async () => {
  for (const worker of started.splice(0)) await worker.dispose();
  ws.remove();
});

async function start(slug: string, mode: 'loader' | 'direct' = 'loader') {
  const compiled = await compileWorker(ws.root, slug);
  expect(compiled.result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const worker = await startCompiledWorker(compiled.outDir, {
    mode,
    secrets: { AGENTDEF_RECEIPT_KEY: JSON.stringify(keys.privateJwk) },
  });
  started.push(worker);
  return { worker, compiled };
}

describe('a compiled tool-only agent in workerd', () => {
  it('text-stats: serves the card and counts words and lines for the SDK client, through the loader', async () => {
    const { worker, compiled } = await start('text-stats');
    const answer = await askWithSdk(worker.url, 'One two three.\nFour five.\n\nSix!');
    expect(answer.card.name).toBe('Text stats');
    expect(answer.card.supportedInterfaces[0]!.url).toBe(`${worker.url}/`);
    expect(answer.card.skills.map((s) => s.id)).toEqual(['text.stats']);
    expect(answer.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(JSON.parse(answer.text)).toEqual({
      characters: 31,
      words: 6,
      sentences: 3,
      paragraphs: 2,
      lines: 4,
      fleschReadingEase: expect.any(Number),
    });
    // The served card is the emitted agent-card.json, with the request's origin in the interface URLs.
    const emitted = JSON.parse(readFileSync(join(compiled.outDir, 'agent-card.json'), 'utf8')) as {
      supportedInterfaces: { url: string }[];
    };
    const served = (await (await fetch(`${worker.url}/.well-known/agent-card.json`)).json()) as typeof emitted;
    const placeholder = new URL(emitted.supportedInterfaces[0]!.url).origin;
    expect(served).toEqual(JSON.parse(JSON.stringify(emitted).split(placeholder).join(worker.url)));
    expect(placeholder).not.toBe(worker.url);
    // A tool prototype signs no receipts.
    expect(await worker.receipts(0, 200)).toEqual([]);
    expect(worker.outbound).toEqual([]);
  });

  it('keyword-extract: answers and leaves exactly one receipt per run that verifies against the public key', async () => {
    const { worker } = await start('keyword-extract');
    const first = await askWithSdk(worker.url, 'Workers run agents. Agents call tools; tools run in Workers.');
    const second = await askWithSdk(worker.url, 'Receipts prove runs. Receipts are signed.');
    expect(first.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(JSON.parse(first.text).keywords.slice(0, 3)).toEqual([
      { word: 'agents', count: 2 },
      { word: 'run', count: 2 },
      { word: 'tools', count: 2 },
    ]);
    const receipts = await worker.receipts(2);
    expect(receipts).toHaveLength(2);
    expect(receipts.filter((r) => r.runId === first.taskId)).toHaveLength(1);
    expect(receipts.filter((r) => r.runId === second.taskId)).toHaveLength(1);
    for (const receipt of receipts) {
      expect(await verifyReceipt(receipt, keys.publicJwk)).toBe(true);
      expect(receipt.pinning).toEqual({
        card: 'keyword-extract',
        cardVersion: '1.0.0',
        skill: 'text.keywords',
        skillVersion: '1.0.0',
      });
      expect(receipt.outcome).toMatchObject({ stopReason: 'answer', status: 'answer' });
      expect(receipt.toolCalls).toEqual([{ seq: 1, name: 'extract_keywords', ok: true }]);
    }
    // A receipt altered after signing no longer verifies.
    expect(await verifyReceipt({ ...receipts[0]!, latencyMs: receipts[0]!.latencyMs + 1 }, keys.publicJwk)).toBe(false);
    expect(worker.logs.join('')).not.toContain(keys.privateJwk.d!);
    // One log line per run, saying how it ended.
    const runEnds = worker.logs
      .join('')
      .split('\n')
      .filter((line) => line.includes('"event":"run.end"'));
    expect(runEnds.map((line) => (JSON.parse(line) as { runId: string }).runId).sort()).toEqual(
      [first.taskId, second.taskId].sort(),
    );
  });

  it('runs the same bundle as an ordinary Worker (what wrangler.jsonc deploys)', async () => {
    const { worker } = await start('keyword-extract', 'direct');
    const answer = await askWithSdk(worker.url, 'Direct mode, direct answer: direct.');
    expect(JSON.parse(answer.text).keywords[0]).toEqual({ word: 'direct', count: 3 });
    const receipts = await worker.receipts(1);
    expect(receipts.map((r) => r.runId)).toEqual([answer.taskId]);
    expect(await verifyReceipt(receipts[0], keys.publicJwk)).toBe(true);
  });

  it('answers malformed JSON and unknown methods with JSON-RPC errors, never a 500', async () => {
    const { worker } = await start('text-stats');
    const malformed = await rawRpc(worker.url, '{"jsonrpc":');
    expect(malformed).toEqual({
      status: 200,
      json: { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Invalid JSON payload' } },
    });
    const unknown = await rawRpc(
      worker.url,
      JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tasks/explode', params: {} }),
    );
    expect(unknown).toEqual({
      status: 200,
      json: { jsonrpc: '2.0', id: 7, error: { code: -32601, message: 'Method not found' } },
    });
    const ok = await rawRpc(worker.url, sendMessageBody('a b c'));
    expect(ok.json.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(JSON.stringify([malformed, unknown])).not.toMatch(/at .*\.(js|ts):\d+/);
  });
});
