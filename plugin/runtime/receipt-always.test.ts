/**
 * Property tests for "exactly one receipt per run, whatever a model or tool returns": random model
 * answers and tool-call names (lone surrogates, huge strings, the key itself), random tool results
 * (nested objects, `__proto__` keys, lone surrogates, huge strings), through a wire-format provider
 * stub on loopback. Every run ends with exactly one receipt in the sink, it verifies from its text,
 * its strings are well-formed, and it is bounded in size.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADD_TOOL, TEST_KEY, agenticConfig, memorySink, toolOnlyConfig } from './__test-support__/configs';
import type { ScriptTurn, StubServer } from './__test-support__/stub-provider';
import { startScriptedProvider } from './__test-support__/stub-provider';
import type { RuntimeLogEvent } from './agent-loop';
import { RECEIPT_STRING_MAX, generateReceiptKeyPair, verifyReceiptText } from './receipts';
import { runAgent } from './run-agent';

let keys: { privateJwk: JsonWebKey; publicJwk: JsonWebKey };
let stub: StubServer & { baseUrl: string };
/** What the stub says, turn by turn; each property run sets it (and so restarts at its first turn). */
let turns: ScriptTurn[] = [];
let turn = 0;
const setScript = (next: ScriptTurn[]) => {
  turns = next;
  turn = 0;
};

beforeAll(async () => {
  keys = await generateReceiptKeyPair();
  stub = await startScriptedProvider({
    wire: 'openai-chat',
    apiKey: TEST_KEY,
    script: () => turns[Math.min(turn++, turns.length - 1)]!,
  });
});
afterAll(async () => {
  await stub.close();
});

const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Strings a hostile model or tool would send: lone surrogates, pairs, control characters, the key, huge runs. */
const hostileString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc
    .array(
      fc.constantFrom(
        '\uD800',
        '\uDFFF',
        '\uD83D',
        '\uDE00',
        '\uD83D\uDE00',
        '\u0000',
        '\u2028',
        'a',
        '"',
        '\\',
        TEST_KEY,
      ),
      { maxLength: 12 },
    )
    .map((parts) => parts.join('')),
  fc.integer({ min: 1, max: 200_000 }).map((n) => 'x'.repeat(n - 1) + '\uD800'),
);

const hostileJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    hostileString,
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    tie('array'),
    tie('object'),
  ),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc
    .array(
      fc.tuple(
        fc.oneof(hostileString, fc.constantFrom('__proto__', 'constructor', 'prototype', 'toJSON')),
        tie('value'),
      ),
      { maxLength: 4 },
    )
    .map((entries) => {
      const out: Record<string, unknown> = {};
      for (const [k, v] of entries)
        Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
      return out;
    }),
})).value;

async function oneRun(run: (deps: Parameters<typeof runAgent>[2]) => Promise<unknown>) {
  const sink = memorySink();
  const logs: RuntimeLogEvent[] = [];
  await run({
    secrets: { OPENAI_API_KEY: TEST_KEY },
    receipts: { signingKey: keys.privateJwk, sink },
    log: (e) => logs.push(e),
  });
  await new Promise((r) => setTimeout(r, 0));
  expect(sink.receipts, JSON.stringify(logs.filter((l) => l.event.startsWith('receipt')))).toHaveLength(1);
  const text = JSON.stringify(sink.receipts[0]);
  expect(LONE.test(text.replace(/\\u[dD][89abAB][0-9a-fA-F]{2}/g, ''))).toBe(false);
  expect(text).not.toMatch(/\\u[dD][89a-fA-F][0-9a-fA-F]{2}(?!\\u)/); // no escaped lone surrogate either
  expect(text.length).toBeLessThan(64 * 1024);
  expect(text).not.toContain(TEST_KEY);
  expect(await verifyReceiptText(text, keys.publicJwk)).toBe(true);
  // The full receipt, not the last-resort one that only says the receipt could not be built.
  expect(sink.receipts[0]!.outcome.errorCode).not.toBe('receipt_incomplete');
  expect(logs.map((l) => l.event)).not.toContain('receipt.failed');
  for (const call of sink.receipts[0]!.toolCalls) expect(call.name.length).toBeLessThanOrEqual(RECEIPT_STRING_MAX);
  return sink.receipts[0]!;
}

describe('exactly one verifiable receipt per run', () => {
  it('a tool name with a lone surrogate (the reported case) still yields its receipt', async () => {
    const name = 'add\uD800';
    setScript([{ toolCalls: [{ name, arguments: { a: 1, b: 2 } }] }, { text: 'ok\uDFFF' }]);
    const config = agenticConfig('openai-chat', stub.baseUrl, { tools: [{ ...ADD_TOOL, name }] });
    const receipt = await oneRun((deps) =>
      runAgent(config, { text: 'go' }, { ...deps, tools: { 'calc.add': () => ({ sum: '\uDC00' }) } }),
    );
    expect(receipt.toolCalls).toEqual([{ seq: 1, name: 'add\uFFFD', ok: true }]);
    expect(receipt.outcome.status).toBe('answer');
  });

  it('agentic runs: random model text, tool-call names and tool results', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(hostileString, { minLength: 1, maxLength: 3 }),
        hostileString,
        hostileJson,
        fc.boolean(),
        async (names, answer, toolResult, known) => {
          const tools = known ? [{ ...ADD_TOOL, name: names[0]! || 'add' }] : [ADD_TOOL];
          setScript([
            { toolCalls: names.map((name) => ({ name: name || 'x', arguments: { a: 1 } })) },
            { text: answer },
          ]);
          const config = agenticConfig('openai-chat', stub.baseUrl, {
            tools,
            limits: { wallClockMs: 10_000, maxSubrequests: 20, maxSteps: 4 },
          });
          const receipt = await oneRun((deps) =>
            runAgent(config, { text: 'go' }, { ...deps, tools: { 'calc.add': () => toolResult } }),
          );
          expect(receipt.toolCalls).toHaveLength(names.length);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('tool-only runs: random tool results and thrown values', async () => {
    await fc.assert(
      fc.asyncProperty(hostileJson, fc.boolean(), async (value, throws) => {
        const handler = () => {
          if (throws)
            throw Object.assign(new Error(String(JSON.stringify(value)).slice(0, 1000)), {
              code: typeof value === 'string' ? value : 'x',
            });
          return value;
        };
        await oneRun((deps) =>
          runAgent(toolOnlyConfig(), { text: '{"a":1}' }, { ...deps, tools: { 'calc.add': handler } }),
        );
      }),
      { numRuns: 150 },
    );
  });

  it('a signing key that cannot sign stops the run before any tool runs (never a run without its receipt)', async () => {
    let called = 0;
    const sink = memorySink();
    const result = await runAgent(
      toolOnlyConfig(),
      { text: '{"a":1,"b":2}' },
      {
        tools: { 'calc.add': () => called++ },
        receipts: { signingKey: '{"kty":"OKP","crv":"Ed25519","x":"AAAA","d":"AAAA"}', sink },
      },
    );
    expect(called).toBe(0);
    expect(result.error?.code).toBe('missing_secret');
    expect(JSON.stringify(result)).not.toContain('"d":"AAAA"');
  });

  it('a CryptoKey that cannot sign (a public key) stops the run before any tool runs too', async () => {
    let called = 0;
    const publicKey = await crypto.subtle.importKey(
      'jwk',
      { kty: 'OKP', crv: 'Ed25519', x: keys.publicJwk.x! },
      { name: 'Ed25519' },
      false,
      ['verify'],
    );
    const result = await runAgent(
      toolOnlyConfig(),
      { text: '{"a":1,"b":2}' },
      { tools: { 'calc.add': () => called++ }, receipts: { signingKey: publicKey, sink: memorySink() } },
    );
    expect(called).toBe(0);
    expect(result.error?.code).toBe('missing_secret');
  });

  it('a signer reference (kid) with a lone surrogate still yields a verifiable receipt', async () => {
    const config = toolOnlyConfig();
    config.receipts = { ...config.receipts, signerRef: 'keyref:calc\uD800' };
    const receipt = await oneRun((deps) =>
      runAgent(config, { text: '{"a":1,"b":2}' }, { ...deps, tools: { 'calc.add': () => 3 } }),
    );
    expect(receipt.signature.kid).toBe('keyref:calc\uFFFD');
  });
});
