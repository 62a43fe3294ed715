import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ed from '@noble/ed25519';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import canonicalizeReference from 'canonicalize';
import { beforeAll, describe, expect, it } from 'vitest';
import { calcTools, memorySink, toolOnlyConfig } from './__test-support__/configs';
import { loopResult } from './__test-support__/loop-result';
import type { LoopResult } from './agent-loop';
import { base64UrlToBytes } from './base64url';
import type { Receipt } from './receipts';
import { buildReceipt, deliverReceipt, generateReceiptKeyPair, signReceipt, verifyReceipt } from './receipts';
import { runAgent } from './run-agent';

const schema = JSON.parse(readFileSync(join(__dirname, '..', 'schema', 'receipt.v1.schema.json'), 'utf8'));
const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats(ajv);
const validate = ajv.compile(schema);

let keys: { privateJwk: JsonWebKey; publicJwk: JsonWebKey };
let other: { privateJwk: JsonWebKey; publicJwk: JsonWebKey };
beforeAll(async () => {
  keys = await generateReceiptKeyPair();
  other = await generateReceiptKeyPair();
});

const RUN_ID = '01JA0000000000000000000000';

async function signed(overrides: Partial<LoopResult> = {}): Promise<Receipt> {
  const unsigned = await buildReceipt(toolOnlyConfig(), loopResult(overrides), {
    runId: RUN_ID,
    issuedAtMs: Date.UTC(2026, 0, 2, 3, 4, 5),
    latencyMs: 12.4,
  });
  return signReceipt(unsigned, keys.privateJwk, 'keyref:calc-agent');
}

describe('receipt/v1', () => {
  it('carries the pinning tuple, outcome and tool calls, and validates against the published schema', async () => {
    const receipt = await signed();
    expect(receipt).toMatchObject({
      receiptVersion: 'receipt/v1',
      runId: RUN_ID,
      issuedAt: '2026-01-02T03:04:05.000Z',
      pinning: { card: 'adder-tool', cardVersion: '0.3.0', skill: 'add', skillVersion: '0.3.0' },
      lifecycleState: 'tool-shipped',
      latencyMs: 12,
      outcome: { stopReason: 'answer', status: 'answer' },
      toolCalls: [{ seq: 1, name: 'add', ok: true }],
      signature: { alg: 'Ed25519', kid: 'keyref:calc-agent' },
    });
    expect(receipt.outcome.answerDigest).toMatch(/^sha-256:[0-9a-f]{64}$/);
    expect(validate(receipt), JSON.stringify(validate.errors)).toBe(true);
    for (const stop of ['limit:wallClock', 'limit:subrequests', 'limit:steps'] as const) {
      const limited = await signed({ stopReason: stop, answer: undefined });
      expect(limited.outcome).toEqual({ stopReason: stop, status: 'limit' });
      expect(validate(limited), JSON.stringify(validate.errors)).toBe(true);
    }
    const failed = await signed({
      stopReason: 'error',
      answer: undefined,
      error: { code: 'provider_http_error', message: 'openai-chat: HTTP 500' },
    });
    expect(failed.outcome).toEqual({ stopReason: 'error', status: 'error', errorCode: 'provider_http_error' });
    expect(JSON.stringify(failed)).not.toContain('HTTP 500'); // codes only, never messages
    expect(validate(failed)).toBe(true);
  });

  it('verifies with the public key', async () => {
    expect(await verifyReceipt(await signed(), keys.publicJwk)).toBe(true);
  });

  it('verifies with an independent Ed25519 and JCS implementation', async () => {
    const receipt = await signed();
    const { signature, ...rest } = receipt;
    const message = new TextEncoder().encode(
      canonicalizeReference({ ...rest, signature: { alg: signature.alg, kid: signature.kid } })!,
    );
    const publicKey = base64UrlToBytes(keys.publicJwk.x!);
    expect(await ed.verifyAsync(base64UrlToBytes(signature.value), message, publicKey)).toBe(true);
  });

  it('fails verification when tampered with, when the key is wrong, or when malformed', async () => {
    const receipt = await signed();
    const tamper = async (change: (r: any) => void) => {
      const copy = structuredClone(receipt) as any;
      change(copy);
      return verifyReceipt(copy, keys.publicJwk);
    };
    expect(await tamper((r) => (r.outcome.stopReason = 'limit:steps'))).toBe(false);
    expect(await tamper((r) => (r.pinning.skillVersion = '9.9.9'))).toBe(false);
    expect(await tamper((r) => (r.runId = '01JA0000000000000000000001'))).toBe(false);
    expect(await tamper((r) => r.toolCalls.push({ seq: 2, name: 'rm', ok: true }))).toBe(false);
    expect(await tamper((r) => (r.latencyMs += 1))).toBe(false);
    expect(await tamper((r) => (r.signature.kid = 'keyref:someone-else'))).toBe(false);
    expect(await tamper((r) => (r.extra = true))).toBe(false);
    expect(
      await tamper(
        (r) => (r.signature.value = r.signature.value.replace(/^./, (c: string) => (c === 'A' ? 'B' : 'A'))),
      ),
    ).toBe(false);
    expect(await verifyReceipt(receipt, other.publicJwk)).toBe(false);
    expect(await tamper((r) => delete r.signature)).toBe(false);
    expect(await verifyReceipt(null, keys.publicJwk)).toBe(false);
    expect(await verifyReceipt({ ...receipt, signature: { ...receipt.signature, value: '!!' } }, keys.publicJwk)).toBe(
      false,
    );
  });

  it('does not depend on key order', async () => {
    const receipt = await signed();
    const reordered = Object.fromEntries(Object.entries(receipt).reverse());
    expect(await verifyReceipt(reordered, keys.publicJwk)).toBe(true);
  });
});

describe('receipt delivery', () => {
  it('never blocks the run: a sink that never settles still lets runAgent return, under waitUntil', async () => {
    const waited: Promise<unknown>[] = [];
    let putCalls = 0;
    const result = await runAgent(
      toolOnlyConfig(),
      { text: '{"a":1,"b":2}' },
      {
        tools: calcTools,
        receipts: {
          signingKey: keys.privateJwk,
          sink: {
            put: () => {
              putCalls++;
              return new Promise(() => {});
            },
          },
        },
        waitUntil: (p) => waited.push(p),
      },
    );
    expect(result.stopReason).toBe('answer');
    expect(waited).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 5));
    expect(putCalls).toBe(1);
  });

  it('a failing sink is logged by code and never reaches the result', async () => {
    const logs: unknown[] = [];
    const result = await runAgent(
      toolOnlyConfig(),
      { text: '{"a":1,"b":2}' },
      {
        tools: calcTools,
        receipts: { signingKey: keys.privateJwk, sink: { put: () => Promise.reject(new Error('sink down')) } },
        log: (e) => logs.push(e),
      },
    );
    await new Promise((r) => setTimeout(r, 5));
    expect(result.stopReason).toBe('answer');
    expect(logs).toContainEqual(expect.objectContaining({ event: 'receipt.delivery_failed', errorCode: 'internal' }));
  });

  it('a synchronously throwing sink cannot break the caller either', async () => {
    const sink = memorySink();
    const receipt = await signed();
    expect(() =>
      deliverReceipt(receipt, {
        put: () => {
          throw new Error('sync');
        },
      }),
    ).not.toThrow();
    deliverReceipt(receipt, sink);
    expect(sink.receipts).toHaveLength(0); // deferred
    await Promise.resolve();
    await Promise.resolve();
    expect(sink.receipts).toHaveLength(1);
  });
});
