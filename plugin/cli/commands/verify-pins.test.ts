/**
 * `agentdef verify` verifies exactly what it says (issue 23): a `__proto__`, `constructor` or
 * `prototype` member anywhere in a card, credential, receipt or lifecycle receipt, or a duplicated
 * member, is refused with the file, line, column and JSON Pointer; a proof created after `--at`
 * fails; every signature of a card is reported, and a forged one beside a valid one fails the card
 * unless `--any-signature` is given.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentCard } from '../../runtime/agent-card';
import { signAgentCard } from '../../runtime/card-signature';
import { jwkThumbprint } from '../../runtime/jwk-thumbprint';
import { generateReceiptKeyPair, signReceipt } from '../../runtime/receipts';
import type { AgentDefinition } from '../../schema/generated/agent-definition.types';
import { issueAgentFactsCredential } from '../../trust/agentfacts-credential';
import { type ProofOptions, signEddsaJcs2022 } from '../../trust/data-integrity';
import { didKeyOf, didKeyVerificationMethod } from '../../trust/did-key';
import { signLifecycleReceipt } from '../../trust/lifecycle-receipt';
import { commandHelp } from '../help-text';
import { VERIFY } from '../specs/verify';
import { captureRun } from './test-support';
import { runVerifyCommandWith } from './verify';
import { promotionTransition } from '../../trust/__test-support__/promotion-transition';
import { ECHO_CARD } from '../../runtime/__test-support__/echo-card';
import { echoReceipt } from '../../runtime/__test-support__/echo-receipt';

const ROOT = join(__dirname, '..', '..', '..');
let dir: string;
let keys: Awaited<ReturnType<typeof generateReceiptKeyPair>>;
let other: Awaited<ReturnType<typeof generateReceiptKeyPair>>;
let kid: string;
let otherKid: string;
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
const AT = ['--at', '2026-03-01T12:10:00Z'];

const card: AgentCard = ECHO_CARD;
const definition = (): AgentDefinition =>
  JSON.parse(readFileSync(join(ROOT, 'examples', 'text-digest', 'agent.json'), 'utf8')) as AgentDefinition;

/** The signed documents of each kind, as their files' text. */
const signed: Record<'card' | 'credential' | 'receipt' | 'lifecycle', string> = {
  card: '',
  credential: '',
  receipt: '',
  lifecycle: '',
};

beforeAll(async () => {
  dir = mkdtempSync(join(__dirname, '.verify-pins-'));
  keys = await generateReceiptKeyPair();
  other = await generateReceiptKeyPair();
  kid = await jwkThumbprint(keys.publicJwk);
  otherKid = await jwkThumbprint(other.publicJwk);
  writeFileSync(join(dir, 'public.jwk.json'), JSON.stringify(keys.publicJwk));
  writeFileSync(join(dir, 'other.jwk.json'), JSON.stringify(other.publicJwk));
  signed.card = JSON.stringify(await signAgentCard(card, keys.privateJwk), null, 2);
  const issued = await issueAgentFactsCredential(definition(), {
    target: 'local-mac',
    port: 4100,
    ttlSeconds: 3600,
    issuedAt: '2026-03-01T12:00:00Z',
    privateJwk: keys.privateJwk,
  });
  if (!issued.ok) throw new Error('issue failed');
  signed.credential = JSON.stringify(issued.credential, null, 2);
  signed.receipt = JSON.stringify(await signReceipt(echoReceipt('r1'), keys.privateJwk, kid));
  signed.lifecycle = JSON.stringify(await signLifecycleReceipt(promotionTransition(), keys.privateJwk, kid));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Line and column (1-based) of the first occurrence of `needle` in `text`. */
function where(text: string, needle: string): string {
  const offset = text.indexOf(needle);
  const before = text.slice(0, offset).split('\n');
  return `line ${before.length}, column ${before.at(-1)!.length + 1}`;
}

describe('reserved member names and duplicates, in every kind of signed document', () => {
  it('each document verifies as signed (the attacks start from valid documents)', async () => {
    for (const [name, text] of Object.entries(signed)) {
      writeFileSync(join(dir, `${name}.json`), text);
      const run = await verify([`${name}.json`, '--key', 'public.jwk.json', ...AT]);
      expect(run.code, `${name}: ${run.stderr}`).toBe(0);
    }
  });

  it('the published-card attack: "__proto__" with an icon and security schemes added is NOT verified, located', async () => {
    const evil = '"__proto__": {"iconUrl": "https://evil.example/i.png", "securitySchemes": {"x": {"type": "none"}}}';
    const text = signed.card.replace(/\n}$/, `,\n  ${evil}\n}`);
    writeFileSync(join(dir, 'proto-card.json'), text);
    const run = await verify(['proto-card.json', '--key', 'public.jwk.json']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      `proto-card.json: NOT verified document\n  at /__proto__ (${where(text, '"__proto__"')}): not strict JSON: reserved member name "__proto__"`,
    );
    const json = await verify(['proto-card.json', '--key', 'public.jwk.json', '--format', 'json']);
    const report = JSON.parse(json.stdout) as { verified: boolean; documents: { failures: object[] }[] };
    expect(report.verified).toBe(false);
    expect(report.documents[0]!.failures[0]).toMatchObject({
      pointer: '/__proto__',
      line: text.split('\n').length - 1,
      column: 3,
    });
  });

  for (const name of ['__proto__', 'constructor', 'prototype']) {
    for (const kind of ['card', 'credential', 'receipt', 'lifecycle'] as const) {
      it(`${kind}: "${name}" at the top, nested, or escaped is refused with its pointer (exit 1)`, async () => {
        const document = JSON.parse(signed[kind]) as Record<string, unknown>;
        const nestedIn = Object.keys(document).find(
          (k) => document[k] !== null && typeof document[k] === 'object' && !Array.isArray(document[k]),
        )!;
        const escaped = JSON.stringify(name).replace(/o/g, '\\u006f');
        const texts: [string, string][] = [
          [`${signed[kind].trimEnd().slice(0, -1)}, "${name}": {"a": 1}}`, `/${name}`],
          [
            signed[kind].replace(new RegExp(`"${nestedIn}": ?\\{`), `"${nestedIn}": {"${name}": 1, `),
            `/${nestedIn}/${name}`,
          ],
          [`${signed[kind].trimEnd().slice(0, -1)}, ${escaped}: null}`, `/${name}`],
        ];
        for (const [i, [text, pointer]] of texts.entries()) {
          writeFileSync(join(dir, 'reserved.json'), text);
          const run = await verify(['reserved.json', '--key', 'public.jwk.json', ...AT]);
          expect(run.code, `${kind} ${i}: ${run.stderr}`).toBe(1);
          expect(run.stderr).toMatch(
            new RegExp(
              `at ${pointer.replace(/[$()*+.?[\\\]^{|}]/g, '\\$&')} \\(line \\d+, column \\d+\\): not strict JSON: reserved member name "${name}"`,
            ),
          );
          // As one line of a JSON Lines file: that line fails, located by line and column.
          writeFileSync(
            join(dir, 'reserved.jsonl'),
            `${signed[kind].replace(/\n\s*/g, '')}\n${text.replace(/\n\s*/g, '')}\n`,
          );
          const lines = await verify(['reserved.jsonl', '--key', 'public.jwk.json', ...AT]);
          expect(lines.code, `${kind} ${i} jsonl`).toBe(1);
          expect(lines.stderr).toMatch(/reserved\.jsonl:2: NOT verified document\n {2}at \S+ \(line 2, column \d+\)/);
          expect(lines.stdout).toContain('1 of 2 lines verified');
        }
      });
    }
  }

  it('a duplicated member (in a signed part or not) is unreadable: exit 2, with file:line:column and pointer', async () => {
    const text = signed.card.replace('"name": "Echo",', '"name": "Echo",\n  "name": "Echo",');
    writeFileSync(join(dir, 'dup.json'), text);
    const run = await verify(['dup.json', '--key', 'public.jwk.json']);
    expect(run.code).toBe(2);
    const second = text.indexOf('"name"', text.indexOf('"name"') + 1);
    const line = text.slice(0, second).split('\n').length;
    expect(run.stderr).toContain(`error: dup.json:${line}:3 at /name: not JSON (duplicate property name "name"`);
  });
});

describe('a proof created after --at', () => {
  it('fails a credential (its window open at --at) and a plain Data Integrity document', async () => {
    const { proof, ...unsigned } = JSON.parse(signed.credential) as Record<string, unknown>;
    const { proofValue: _value, ...options } = proof as Record<string, unknown>;
    const later = await signEddsaJcs2022(
      unsigned,
      { ...(options as ProofOptions), created: '2026-03-01T12:30:00Z' },
      keys.privateJwk,
    );
    if (!later.ok) throw new Error('sign failed');
    writeFileSync(join(dir, 'later.vc.json'), JSON.stringify(later.document));
    const before = await verify(['later.vc.json', '--at', '2026-03-01T12:10:00Z']);
    expect(before.code).toBe(1);
    expect(before.stderr).toContain(
      'at /proof/created: the proof was created at 2026-03-01T12:30:00Z, after the time it is checked at',
    );
    expect(before.stderr).not.toContain('/validFrom');
    expect((await verify(['later.vc.json', '--at', '2026-03-01T12:30:00Z'])).code).toBe(0);

    const did = didKeyOf(keys.publicJwk);
    if (did === undefined) throw new Error('no did:key');
    const method = didKeyVerificationMethod(did);
    for (const [created, at, code] of [
      ['2026-03-01T12:30:00Z', '2026-03-01T12:10:00Z', 1],
      ['2026-03-01T12:30:00+01:00', '2026-03-01T12:10:00Z', 0],
      ['2026-03-01T12:00:00', '2026-03-01T12:10:00Z', 1],
      ['2026-03-01T12:00:00', '2026-03-02T02:00:00Z', 0],
    ] as const) {
      const document = await signEddsaJcs2022(
        { '@context': ['https://www.w3.org/ns/credentials/v2'], claim: 'x' },
        {
          type: 'DataIntegrityProof',
          cryptosuite: 'eddsa-jcs-2022',
          verificationMethod: method,
          proofPurpose: 'assertionMethod',
          created,
        },
        keys.privateJwk,
      );
      if (!document.ok) throw new Error('sign failed');
      writeFileSync(join(dir, 'proof.json'), JSON.stringify(document.document));
      const run = await verify(['proof.json', '--at', at]);
      expect(run.code, `${created} vs ${at}: ${run.stderr}`).toBe(code);
      if (code === 1) expect(run.stderr).toContain('at /proof/created');
    }
  });
});

describe('every signature of a card', () => {
  const forge = (signature: string) => `${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;

  it('one forged beside one valid: NOT verified, both reported; verified with --any-signature, the forged one still named', async () => {
    const twice = JSON.parse(signed.card) as AgentCard & { signatures: { protected: string; signature: string }[] };
    const valid = twice.signatures[0]!;
    for (const [file, signatures] of [
      ['forged-second.json', [valid, { ...valid, signature: forge(valid.signature) }]],
      ['forged-first.json', [{ ...valid, signature: forge(valid.signature) }, valid]],
    ] as const) {
      writeFileSync(join(dir, file), JSON.stringify({ ...twice, signatures }));
      const forgedAt = signatures[0] === valid ? 1 : 0;
      const run = await verify([file, '--key', 'public.jwk.json']);
      expect(run.code, file).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(`${file}: NOT verified agent-card`);
      expect(run.stderr).toContain(`  signature ${1 - forgedAt} (kid ${kid}): verified`);
      expect(run.stderr).toContain(
        `  signature ${forgedAt} (kid ${kid}): FAILED: signatures[${forgedAt}]: the signature does not match`,
      );
      expect(run.stderr).toContain(`at /signatures/${forgedAt}/signature:`);
      expect(run.stderr).toContain('every signature must, unless --any-signature');

      const any = await verify([file, '--key', 'public.jwk.json', '--any-signature']);
      expect(any.code, file).toBe(0);
      expect(any.stdout).toContain(
        `${file}: verified agent-card (signed by kid ${kid}; 1 of 2 signatures FAILED, accepted with --any-signature)`,
      );
      expect(any.stdout).toContain(`  signature ${forgedAt} (kid ${kid}): FAILED`);
      const json = JSON.parse((await verify([file, '--key', 'public.jwk.json', '--format', 'json'])).stdout) as {
        verified: boolean;
        documents: { signatures: { index: number; verified: boolean }[] }[];
      };
      expect(json.verified).toBe(false);
      expect(json.documents[0]!.signatures.map((s) => [s.index, s.verified])).toEqual([
        [0, forgedAt !== 0],
        [1, forgedAt !== 1],
      ]);
    }
  });

  it('two keys: both must verify; a key verify does not have fails the card unless --any-signature', async () => {
    const both = await signAgentCard(await signAgentCard(card, keys.privateJwk), other.privateJwk);
    writeFileSync(join(dir, 'two-keys.json'), JSON.stringify(both));
    const one = await verify(['two-keys.json', '--key', 'public.jwk.json']);
    expect(one.code).toBe(1);
    // --key is used for any kid: the second entry is checked with it and does not match.
    expect(one.stderr).toContain(`signature 1 (kid ${otherKid}): FAILED`);
    expect((await verify(['two-keys.json', '--key', 'public.jwk.json', '--any-signature'])).code).toBe(0);
    mkdirSync(join(dir, 'both-keys'), { mode: 0o700 });
    writeFileSync(join(dir, 'both-keys', 'a.json'), JSON.stringify(keys.publicJwk));
    writeFileSync(join(dir, 'both-keys', 'b.json'), JSON.stringify(other.publicJwk));
    const all = await verify(['two-keys.json', '--keys', 'both-keys']);
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toContain(`signed by kid ${kid}; kid ${otherKid}`);
    expect(all.stdout).toContain(`  signature 1 (kid ${otherKid}): verified`);
  });

  it('the help names --any-signature', () => {
    expect(commandHelp(VERIFY)).toMatch(
      /--any-signature\s+a card with several signatures verifies when one of them does/,
    );
  });
});
