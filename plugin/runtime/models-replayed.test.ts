/**
 * A replayed run never passes for a live one: when the model endpoint answers with agentdef's
 * replay header (its model replay server sets it on every answer from a recording), the run's
 * result, its signed receipt and the A2A task's metadata say `modelsReplayed`; a live answer leaves
 * all three without it. The receipt's flag is covered by its signature.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TEST_KEY, agenticConfig, calcTools, dagConfig, memorySink } from './__test-support__/configs';
import type { StubServer } from './__test-support__/stub-provider';
import { startScriptedProvider } from './__test-support__/stub-provider';
import { createA2aHandler } from './a2a-handler';
import { MODEL_REPLAY_HEADER } from './providers/post-json';
import { generateReceiptKeyPair, verifyReceipt } from './receipts';
import type { RunDeps } from './run-agent';
import { inProcessChildRunner, runAgent } from './run-agent';
import type { RuntimeConfig } from './runtime-config';

const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats(ajv);
const validateReceipt = ajv.compile(
  JSON.parse(readFileSync(join(__dirname, '..', 'schema', 'receipt.v1.schema.json'), 'utf8')),
);

const servers: StubServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
let keys: { privateJwk: JsonWebKey; publicJwk: JsonWebKey };
beforeAll(async () => {
  keys = await generateReceiptKeyPair();
});

/** A scripted Anthropic stub on loopback: one tool call, then an answer quoting the tool result. */
async function model(): Promise<StubServer & { baseUrl: string }> {
  const stub = await startScriptedProvider({
    wire: 'anthropic-messages',
    apiKey: TEST_KEY,
    script: [
      { toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] },
      { text: (ctx) => `sum: ${ctx.lastToolResults.join('')}` },
    ],
  });
  servers.push(stub);
  return stub;
}

/** fetch that adds the replay header to every response, as agentdef's replay server does. */
const replayingFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  const headers = new Headers(response.headers);
  headers.set(MODEL_REPLAY_HEADER, 'sha-256:0000');
  return new Response(await response.arrayBuffer(), { status: response.status, headers });
};

function deps(fetchFn: typeof fetch, sink = memorySink()): RunDeps {
  return {
    fetch: fetchFn,
    tools: calcTools,
    secrets: { ANTHROPIC_API_KEY: TEST_KEY, RECEIPT_SIGNING_JWK: JSON.stringify(keys.privateJwk) },
    receipts: { sink },
  };
}

describe('modelsReplayed', () => {
  it('a run answered by a replay endpoint says so in its result and in its signed receipt; a live run does not', async () => {
    const stub = await model();
    const config = agenticConfig('anthropic-messages', stub.baseUrl, { egress: { allow: [stub.url] } });
    const replayed = await runAgent(config, { text: 'add 2 and 3' }, deps(replayingFetch));
    expect(replayed.stopReason).toBe('answer');
    expect(replayed.modelsReplayed).toBe(true);
    expect(replayed.receipt?.modelsReplayed).toBe(true);
    expect(validateReceipt(replayed.receipt), JSON.stringify(validateReceipt.errors)).toBe(true);
    expect(await verifyReceipt(replayed.receipt, keys.publicJwk)).toBe(true);
    // The flag is signed: a receipt with it taken away (passing a replayed run off as live) no longer verifies.
    const { modelsReplayed: _dropped, ...stripped } = replayed.receipt!;
    expect(await verifyReceipt(stripped, keys.publicJwk)).toBe(false);

    const live = await runAgent(
      agenticConfig('anthropic-messages', (await model()).baseUrl, { egress: { allow: [servers[1]!.url] } }),
      { text: 'add 2 and 3' },
      deps(fetch),
    );
    expect(live.stopReason).toBe('answer');
    expect(live.answer?.text).toBe(replayed.answer?.text);
    expect(live.modelsReplayed).toBeUndefined();
    expect(live.receipt).toBeDefined();
    expect('modelsReplayed' in live.receipt!).toBe(false);
    expect(validateReceipt(live.receipt)).toBe(true);
  });

  it('the A2A task of a replayed run carries modelsReplayed in its metadata, beside the receipt', async () => {
    const stub = await model();
    const config = agenticConfig('anthropic-messages', stub.baseUrl, { egress: { allow: [stub.url] } });
    const send = async (fetchFn: typeof fetch) => {
      const handler = createA2aHandler(config, deps(fetchFn));
      const response = await handler(
        new Request('http://agent.test/a2a/v1', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'SendMessage',
            params: { message: { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'add 2 and 3' }] } },
          }),
        }),
      );
      return (
        (await response.json()) as {
          result: { task: { status: { state: string }; metadata: Record<string, unknown> } };
        }
      ).result.task;
    };
    const replayed = await send(replayingFetch);
    expect(replayed.status.state).toBe('TASK_STATE_COMPLETED');
    expect(replayed.metadata['modelsReplayed']).toBe(true);
    expect((replayed.metadata['receipt'] as { modelsReplayed?: boolean }).modelsReplayed).toBe(true);
    const live = await send(fetch);
    expect(live.status.state).toBe('TASK_STATE_COMPLETED');
    expect(live.metadata).not.toHaveProperty('modelsReplayed');
  });

  it("a composition whose child's model was replayed is marked replayed too, in its result and receipt", async () => {
    const stub = await model();
    const childConfig: RuntimeConfig = agenticConfig('anthropic-messages', stub.baseUrl, {
      agent: {
        id: '01J9ZZZZZZZZZZZZZZZZZZZZCA',
        slug: 'adder',
        name: 'Adder',
        version: '1.0.0',
        versionId: '01J9ZZZZZZZZZZZZZZZZZZZZCB',
        description: 'adds',
      },
      egress: { allow: [stub.url] },
      lifecycleState: 'composed',
    });
    const parent = dagConfig(['adder'], []);
    const sink = memorySink();
    const result = await runAgent(
      parent,
      { text: 'add 2 and 3' },
      { ...deps(replayingFetch, sink), runChild: inProcessChildRunner([childConfig], deps(replayingFetch, sink)) },
    );
    expect(result.stopReason).toBe('answer');
    expect(result.modelsReplayed).toBe(true);
    expect(result.receipt?.modelsReplayed).toBe(true);
    expect(await verifyReceipt(result.receipt, keys.publicJwk)).toBe(true);
    await new Promise((r) => setTimeout(r, 10));
    const child = sink.receipts.find((r) => r.pinning.card === 'adder');
    expect(child?.modelsReplayed).toBe(true);
  });
});
