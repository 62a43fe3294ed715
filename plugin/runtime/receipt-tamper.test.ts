/**
 * Attack tests for "receipts are tamper-evident": a verifier must accept exactly the receipt that
 * was signed, in any key order, and nothing else. Each attack keeps the signature bytes or the
 * parsed value the same while changing what a reader sees: alternative base64url encodings of the
 * same signature bytes, extra or changed members of the signature object, duplicated property
 * names (two readers, two receipts), and single-byte edits anywhere in the text.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { toolOnlyConfig } from './__test-support__/configs';
import { loopResult } from './__test-support__/loop-result';
import type { Receipt } from './receipts';
import { buildReceipt, generateReceiptKeyPair, signReceipt, verifyReceipt, verifyReceiptText } from './receipts';
import { parseStrictJson } from './strict-json';

let keys: { privateJwk: JsonWebKey; publicJwk: JsonWebKey };
let receipt: Receipt;
let text: string;

const result = loopResult();

beforeAll(async () => {
  keys = await generateReceiptKeyPair();
  const unsigned = await buildReceipt(toolOnlyConfig(), result, {
    runId: '01JA0000000000000000000000',
    issuedAtMs: Date.UTC(2026, 0, 2),
    latencyMs: 5,
  });
  receipt = await signReceipt(unsigned, keys.privateJwk, 'keyref:calc-agent');
  text = JSON.stringify(receipt);
});

const withSignature = (signature: Record<string, unknown>) => ({ ...receipt, signature });

describe('signature encoding', () => {
  it('the issued signature is 86 canonical base64url characters, and verifies as object and as text', async () => {
    expect(receipt.signature.value).toMatch(/^[A-Za-z0-9_-]{86}$/);
    expect(await verifyReceipt(receipt, keys.publicJwk)).toBe(true);
    expect(await verifyReceiptText(text, keys.publicJwk)).toBe(true);
  });

  it('refuses every other encoding of the same 64 bytes: trailing bits, padding, standard alphabet, whitespace', async () => {
    const value = receipt.signature.value;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(value[85]!);
    // The last character carries 2 meaningful bits and 4 that must be zero: 15 other characters decode to the same bytes.
    const sameBytes = [...alphabet]
      .filter((_c, i) => i !== last && i >> 4 === last >> 4)
      .map((c) => value.slice(0, 85) + c);
    expect(sameBytes).toHaveLength(15);
    for (const alt of sameBytes) {
      expect(Buffer.from(alt, 'base64url').equals(Buffer.from(value, 'base64url'))).toBe(true); // really the same bytes
      expect(await verifyReceipt(withSignature({ ...receipt.signature, value: alt }), keys.publicJwk), alt).toBe(false);
    }
    const std = Buffer.from(value, 'base64url').toString('base64');
    for (const alt of [
      `${value}==`,
      `${value}=`,
      std,
      std.replace(/=+$/, ''),
      ` ${value}`,
      `${value}\n`,
      value.slice(0, 85),
      `${value}A`,
      `${value}AA`,
    ]) {
      if (alt === value) continue;
      expect(
        await verifyReceipt(withSignature({ ...receipt.signature, value: alt }), keys.publicJwk),
        JSON.stringify(alt),
      ).toBe(false);
    }
  });
});

describe('the signature object', () => {
  it('refuses unknown members, a missing member and non-string members', async () => {
    const sig = receipt.signature;
    for (const extra of [
      { crit: ['b64'] },
      { b64: false },
      { jwk: keys.publicJwk },
      { value2: sig.value },
      { __proto__: null },
    ]) {
      const tampered = withSignature({ ...sig, ...extra });
      if (Object.keys(tampered.signature).length === 3) continue; // `__proto__: null` in a literal sets the prototype, not a member
      expect(await verifyReceipt(tampered, keys.publicJwk), JSON.stringify(extra)).toBe(false);
    }
    const own = JSON.parse(JSON.stringify(receipt).replace('"signature":{', '"signature":{"__proto__":{"x":1},'));
    expect(Object.keys(own.signature)).toContain('__proto__');
    expect(await verifyReceipt(own, keys.publicJwk)).toBe(false);
    const { kid: _kid, ...noKid } = sig;
    expect(await verifyReceipt(withSignature(noKid), keys.publicJwk)).toBe(false);
    expect(await verifyReceipt(withSignature({ ...sig, kid: 7 }), keys.publicJwk)).toBe(false);
    expect(
      await verifyReceipt(withSignature({ ...sig, value: [...Buffer.from(sig.value, 'base64url')] }), keys.publicJwk),
    ).toBe(false);
    expect(await verifyReceipt({ ...receipt, signature: [sig.alg, sig.kid, sig.value] }, keys.publicJwk)).toBe(false);
  });

  it('accepts only the issued alg, and the kid is covered by the signature', async () => {
    for (const alg of ['EdDSA', 'ed25519', 'Ed25519 ', 'none', 'HS256']) {
      expect(await verifyReceipt(withSignature({ ...receipt.signature, alg }), keys.publicJwk), alg).toBe(false);
    }
    for (const kid of ['keyref:someone-else', 'keyref:calc-agent ', '', 'KEYREF:calc-agent']) {
      expect(await verifyReceipt(withSignature({ ...receipt.signature, kid }), keys.publicJwk), kid).toBe(false);
    }
  });
});

describe('receipt text', () => {
  it('refuses a duplicated property name at any depth, even when either reading alone would verify', async () => {
    const top = text.replace('"runId":', '"runId":"01JA0000000000000000000009","runId":');
    expect(JSON.parse(top).runId).toBe(receipt.runId); // JSON.parse keeps the last: it would verify
    expect(await verifyReceipt(JSON.parse(top), keys.publicJwk)).toBe(true);
    expect(await verifyReceiptText(top, keys.publicJwk)).toBe(false);
    const nested = text.replace('"stopReason":"answer"', '"stopReason":"error","stopReason":"answer"');
    expect(await verifyReceiptText(nested, keys.publicJwk)).toBe(false);
    const inSignature = text.replace('"alg":"Ed25519"', '"alg":"none","alg":"Ed25519"');
    expect(await verifyReceiptText(inSignature, keys.publicJwk)).toBe(false);
    const escaped = text.replace('"runId":', '"runId":"01JA0000000000000000000009","run\\u0049d":');
    expect(await verifyReceiptText(escaped, keys.publicJwk)).toBe(false);
  });

  it('accepts any key order and whitespace (the signature covers the canonical form)', async () => {
    const reorder = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(reorder)
        : value !== null && typeof value === 'object'
          ? Object.fromEntries(
              Object.entries(value)
                .reverse()
                .map(([k, v]) => [k, reorder(v)]),
            )
          : value;
    expect(await verifyReceiptText(JSON.stringify(reorder(receipt), null, 2), keys.publicJwk)).toBe(true);
  });

  it('refuses every single-character change of the text (that still parses)', async () => {
    let tried = 0;
    for (let i = 0; i < text.length; i++) {
      for (const replacement of ['0', 'a', 'Z', '"', ' ']) {
        if (text[i] === replacement) continue;
        const changed = text.slice(0, i) + replacement + text.slice(i + 1);
        const parsed = parseStrictJson(changed);
        if (!parsed.ok) continue;
        // A change inside insignificant whitespace would be harmless, but JSON.stringify emits none.
        tried++;
        expect(await verifyReceiptText(changed, keys.publicJwk), `offset ${i} -> ${replacement}`).toBe(false);
      }
    }
    expect(tried).toBeGreaterThan(text.length);
  });

  it('refuses texts that are not strict JSON', async () => {
    for (const bad of [
      `${text},`,
      `[${text}]`,
      text.replace('{', '{,'),
      `${text} x`,
      text.replace('"steps":1', '"steps":01'),
      '',
      'null',
    ]) {
      expect(await verifyReceiptText(bad, keys.publicJwk)).toBe(false);
    }
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(await verifyReceiptText(deep, keys.publicJwk)).toBe(false);
  });

  it('the strict parser agrees with JSON.parse on random JSON without duplicates, and keeps __proto__ as a key', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        const t = JSON.stringify(value);
        const parsed = parseStrictJson(t);
        expect(parsed.ok).toBe(true);
        if (parsed.ok) expect(JSON.stringify(parsed.value)).toBe(t);
      }),
      { numRuns: 300 },
    );
    const parsed = parseStrictJson('{"__proto__":{"polluted":true}}');
    expect(parsed.ok && Object.keys(parsed.value as object)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});
