/**
 * Eval receipts: built from a scored run (no answers, prompts or reasoning in them), signed, and
 * verified, by the function and by `agentdef verify`; a tampered, forged (another key), unsigned,
 * extended or self-contradicting receipt is refused, naming where.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureRun } from '../cli/commands/test-support';
import { runVerifyCommandWith } from '../cli/commands/verify';
import { jwkThumbprint } from '../runtime/jwk-thumbprint';
import { generateReceiptKeyPair } from '../runtime/receipts';
import type { AgentDefinition } from '../schema/generated/agent-definition.types';
import { definitionDigest } from '../trust/lifecycle-receipt';
import { evalDefinition, observation } from './__test-support__/eval-fixture';
import { evalCasesDigest } from './cases-digest';
import {
  buildEvalReceipt,
  type EvalReceipt,
  evalReceiptText,
  signEvalReceipt,
  verifyEvalReceipt,
} from './eval-receipt';
import type { Grade } from './observation';
import { parseEvalCasesText } from './parse-eval-cases';
import { scoreCase, scoreRun } from './score-case';

const SECRET_ANSWER = 'the secret answer text sk-live-0123456789abcdef';
const grade: Grade = async () => ({
  verdict: {
    pass: true,
    score: 1,
    critique: '',
    criteria: [{ index: 0, pass: true, reason: 'grader reasoning here' }],
  },
  grader: 'judge-mini',
  reasoning: 'grader reasoning here',
  usage: { inputTokens: 1, outputTokens: 1 },
});

let definition: AgentDefinition;
let keys: Awaited<ReturnType<typeof generateReceiptKeyPair>>;
let other: Awaited<ReturnType<typeof generateReceiptKeyPair>>;
let kid: string;
let signed: EvalReceipt;
let dir: string;

beforeAll(async () => {
  definition = evalDefinition();
  keys = await generateReceiptKeyPair();
  other = await generateReceiptKeyPair();
  kid = await jwkThumbprint(keys.publicJwk);
  const cases = parseEvalCasesText(
    '{"id":"a","input":{"text":"the prompt text"},"assertions":[{"type":"invariant","invariant":0}]}\n{"id":"b","input":{"text":"x"},"assertions":[{"type":"contains","value":"absent"}]}\n',
    'agents/web/evals/c.jsonl',
    'jsonl',
  ).cases;
  const results = [
    await scoreCase(
      cases[0]!,
      observation({ answer: { text: SECRET_ANSWER }, receiptDigest: 'c'.repeat(64) }),
      grade,
      definition,
    ),
    await scoreCase(cases[1]!, observation({ receiptDigest: `sha-256:${'d'.repeat(64)}` }), grade, definition),
  ];
  const run = scoreRun(results, cases, definition, 0.5);
  const unsigned = buildEvalReceipt({
    definition: {
      slug: definition.identity.slug,
      version: definition.identity.versionSemver,
      digest: await definitionDigest(definition),
    },
    casesDigest: await evalCasesDigest(cases),
    results,
    run,
  });
  signed = await signEvalReceipt(unsigned, keys.privateJwk, kid);
  dir = mkdtempSync(join(__dirname, '.tmp-eval-receipt-'));
  writeFileSync(join(dir, 'public.jwk.json'), JSON.stringify(keys.publicJwk));
  writeFileSync(join(dir, 'other.jwk.json'), JSON.stringify(other.publicJwk));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const keyFor = (jwk: JsonWebKey) => (k: string) => (k === kid ? jwk : undefined);
const clone = (): Record<string, any> => JSON.parse(JSON.stringify(signed));

describe('eval receipts', () => {
  it('carry the definition digest, cases digest, totals, per-case id/pass/score and run receipt digests; nothing of the answers', async () => {
    expect(signed).toMatchObject({
      receiptVersion: 'eval-receipt/v1',
      definition: { slug: 'web-summarizer', version: '2.0.0' },
      threshold: 0.5,
      passed: true,
      totals: { cases: 2, passed: 1, failed: 1, passRate: 0.5 },
      unscoredInvariants: [1, 2],
      cases: [
        { id: 'a', passed: true, score: 1, runReceiptDigest: `sha-256:${'c'.repeat(64)}` },
        { id: 'b', passed: false, score: 0, runReceiptDigest: `sha-256:${'d'.repeat(64)}` },
      ],
      signature: { alg: 'Ed25519', kid },
    });
    expect(signed.definition.digest).toMatch(/^sha-256:[0-9a-f]{64}$/);
    const text = evalReceiptText(signed);
    for (const leaked of ['secret answer', 'sk-live', 'the prompt text', 'grader reasoning', 'judge-mini'])
      expect(text).not.toContain(leaked);
  });

  it('the same run signs to the same bytes (no clock; Ed25519 is deterministic)', async () => {
    const { signature: _s, ...unsigned } = signed;
    expect(evalReceiptText(await signEvalReceipt(unsigned, keys.privateJwk, kid))).toBe(evalReceiptText(signed));
  });

  it("verifies with the signer's key", async () => {
    expect(await verifyEvalReceipt(JSON.parse(evalReceiptText(signed)), keyFor(keys.publicJwk))).toMatchObject({
      verified: true,
      kid,
    });
  });

  it.each([
    [
      'the definition digest',
      (r: Record<string, any>) => (r.definition.digest = `sha-256:${'0'.repeat(64)}`),
      '/signature/value',
    ],
    ["a case's score", (r: Record<string, any>) => (r.cases[1].score = 0.9), '/signature/value'],
    ['the threshold', (r: Record<string, any>) => (r.threshold = 0.4), '/signature/value'],
    [
      'a failed case turned passed (totals left)',
      (r: Record<string, any>) => (r.cases[1].passed = true),
      '/totals/passed',
    ],
    ['passed with totals that deny it', (r: Record<string, any>) => ((r.threshold = 1), (r.passed = true)), '/passed'],
    ['an added member', (r: Record<string, any>) => (r.note = 'trust me'), '/note'],
    [
      'a non-canonical signature',
      (r: Record<string, any>) => (r.signature.value = `${r.signature.value.slice(0, 85)}B`),
      '/signature/value',
    ],
  ])('refuses a receipt with %s changed', async (_name, change, pointer) => {
    const tampered = clone();
    change(tampered);
    const check = await verifyEvalReceipt(tampered, keyFor(keys.publicJwk));
    expect(check.verified).toBe(false);
    if (!check.verified) expect(check.failures.map((f) => f.pointer)).toContain(pointer);
  });

  it('refuses a forged receipt (signed by another key under the same kid), an unsigned one, and no key', async () => {
    const { signature: _s, ...unsigned } = signed;
    const forged = await signEvalReceipt(unsigned, other.privateJwk, kid);
    const check = await verifyEvalReceipt(forged, keyFor(keys.publicJwk));
    expect(check).toMatchObject({ verified: false, failures: [{ pointer: '/signature/value' }] });
    expect(await verifyEvalReceipt(unsigned, keyFor(keys.publicJwk))).toMatchObject({
      verified: false,
      failures: [{ pointer: '/signature', message: 'the receipt has no signature object (unsigned)' }],
    });
    expect(await verifyEvalReceipt(signed, () => undefined)).toMatchObject({
      verified: false,
      failures: [{ pointer: '/signature/kid' }],
    });
    expect(await verifyEvalReceipt('not a receipt', keyFor(keys.publicJwk))).toMatchObject({ verified: false });
  });
});

describe('agentdef verify on eval receipts', () => {
  const verify = (argv: string[]) =>
    captureRun(
      (a, io) =>
        runVerifyCommandWith(a, io, {
          env: { AGENTDEF_KEYS_DIR: join(dir, 'no-store'), AGENTDEF_KEYCHAIN: 'off' },
          keychain: 'off',
        }),
      argv,
      dir,
    );

  it('accepts a good one (exit 0) and names the signer', async () => {
    writeFileSync(join(dir, 'good.json'), evalReceiptText(signed));
    const run = await verify(['good.json', '--key', 'public.jwk.json']);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(`good.json: verified eval-receipt (signed by kid ${kid})\n`);
    expect(run.code).toBe(0);
  });

  it('rejects tampered, forged and unsigned receipts (exit 1) and an ambiguous one (exit 2), saying where', async () => {
    const tampered = clone();
    tampered.cases[0].score = 0.5;
    writeFileSync(join(dir, 'tampered.json'), JSON.stringify(tampered, null, 2));
    const { signature: _s, ...unsigned } = signed;
    writeFileSync(join(dir, 'forged.json'), evalReceiptText(await signEvalReceipt(unsigned, other.privateJwk, kid)));
    writeFileSync(join(dir, 'unsigned.json'), JSON.stringify(unsigned));
    const text = evalReceiptText(signed);
    writeFileSync(join(dir, 'duplicated.json'), text.replace('"passed": true,', '"passed": false,\n  "passed": true,'));
    const results = {
      tampered: await verify(['tampered.json', '--key', 'public.jwk.json']),
      forged: await verify(['forged.json', '--key', 'public.jwk.json']),
      unsigned: await verify(['unsigned.json', '--key', 'public.jwk.json']),
      otherKey: await verify(['good.json', '--key', 'other.jwk.json']),
    };
    for (const run of Object.values(results)) {
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
    }
    expect(results.tampered.stderr).toMatch(
      /NOT verified eval-receipt\n {2}at \/signature\/value: the signature does not match/,
    );
    expect(results.forged.stderr).toMatch(/at \/signature\/value: the signature does not match/);
    expect(results.unsigned.stderr).toMatch(/at \/signature: the receipt has no signature object \(unsigned\)/);
    // A duplicated member is read by no one: refused before any signature check, located.
    const duplicated = await verify(['duplicated.json', '--key', 'public.jwk.json']);
    expect(duplicated.code).toBe(2);
    expect(duplicated.stderr).toMatch(/^error: duplicated\.json:\d+:\d+ at \/passed: not JSON \(.*duplicate/i);
    expect(results.otherKey.stderr).toMatch(/does not match/);
  });
});
