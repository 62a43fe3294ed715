/**
 * `agentdef verify`: the W3C eddsa-jcs-2022 signed vector as it is and after one-character changes,
 * an issued AgentFacts credential, signed A2A cards (--key, --keys), receipts and a receipts JSONL
 * file line by line; exit codes 0 / 1 / 2 and located messages; private keys refused, never printed.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentCard } from '../../runtime/agent-card';
import { signAgentCard } from '../../runtime/card-signature';
import { jwkThumbprint } from '../../runtime/jwk-thumbprint';
import { generateReceiptKeyPair, signReceipt, type UnsignedReceipt } from '../../runtime/receipts';
import type { AgentDefinition } from '../../schema/generated/agent-definition.types';
import { issueAgentFactsCredential } from '../../trust/agentfacts-credential';
import { captureRun } from './test-support';
import { runVerifyCommandWith } from './verify';
import { generateKey, type KeyStoreOptions } from '../../hosts/node/key-store';
import { signLifecycleReceipt } from '../../trust/lifecycle-receipt';
import { promotionTransition } from '../../trust/__test-support__/promotion-transition';
import { ECHO_CARD } from '../../runtime/__test-support__/echo-card';
import { echoReceipt } from '../../runtime/__test-support__/echo-receipt';
import { HUNG_CHILD_MS } from '../../../e2e/support/hung-child';

const ROOT = join(__dirname, '..', '..', '..');
const SIGNED_VECTOR = join(
  ROOT,
  'e2e',
  'fixtures',
  'conformance',
  'vc',
  'vc-di-eddsa-TestVectors',
  'eddsa-jcs-2022',
  'signedJCS.json',
);
/** The local key store verify consults without --key or --keys: a folder of this test's own (empty unless a test fills it). */
let keyStore: KeyStoreOptions;
const verify = (argv: string[], cwd: string, store: KeyStoreOptions = keyStore) =>
  captureRun((a, io) => runVerifyCommandWith(a, io, store), argv, cwd);

let dir: string;
let keys: Awaited<ReturnType<typeof generateReceiptKeyPair>>;
let kid: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agentdef-verify-'));
  keyStore = { env: { AGENTDEF_KEYS_DIR: join(dir, 'empty-key-store'), AGENTDEF_KEYCHAIN: 'off' }, keychain: 'off' };
  keys = await generateReceiptKeyPair();
  kid = await jwkThumbprint(keys.publicJwk);
  writeFileSync(join(dir, 'public.jwk.json'), JSON.stringify(keys.publicJwk));
  writeFileSync(join(dir, 'private.jwk.json'), JSON.stringify(keys.privateJwk));
  mkdirSync(join(dir, 'keys'));
  writeFileSync(join(dir, 'keys', 'acme.public.jwk.json'), JSON.stringify(keys.publicJwk));
});

describe('agentdef verify: the W3C eddsa-jcs-2022 signed vector', () => {
  it('verifies it as it is, resolving its did:key', async () => {
    const run = await verify([SIGNED_VECTOR], ROOT);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('verified credential');
  });

  it('through the agentdef binary: exit 0 as it is, 1 after a one-character change', () => {
    const binary = (file: string) =>
      spawnSync(process.execPath, [join(ROOT, 'bin', 'agentdef.cjs'), 'verify', file], {
        cwd: dir,
        encoding: 'utf8',
        timeout: HUNG_CHILD_MS,
      });
    const asIs = binary(SIGNED_VECTOR);
    expect(asIs.status).toBe(0);
    expect(asIs.stdout).toContain(
      'verified credential (signed by did:key:z6MkrJVnaZkeFzdQyMZu1cgjg7k1pZZ6pvBQ7XJPt4swbTQ2#z6MkrJVnaZkeFzdQyMZu1cgjg7k1pZZ6pvBQ7XJPt4swbTQ2; issuer https://vc.example/issuers/5678 is not bound to this key)',
    );
    writeFileSync(
      join(dir, 'one-char.json'),
      readFileSync(SIGNED_VECTOR, 'utf8').replace('2023-01-01T00:00:00Z', '2023-01-01T00:00:01Z'),
    );
    const changed = binary('one-char.json');
    expect(changed.status).toBe(1);
    expect(changed.stderr).toContain('at /proof/proofValue');
  });

  it('fails after any one-character change inside any string of the file, saying where', async () => {
    const text = readFileSync(SIGNED_VECTOR, 'utf8');
    const file = join(dir, 'changed.json');
    let inString = false;
    let runs = 0;
    for (let i = 0; i < text.length; i++) {
      const ch = text[i];
      if (ch === '"') {
        inString = !inString;
        continue;
      }
      if (!inString || ch === '\\') continue;
      writeFileSync(file, text.slice(0, i) + (ch === 'a' ? 'b' : 'a') + text.slice(i + 1));
      const run = await verify([file, '--format', 'json'], dir);
      expect(run.code, `change at offset ${i}`).toBe(1);
      const report = JSON.parse(run.stdout) as { verified: boolean; documents: { failures: { pointer: string }[] }[] };
      expect(report.verified).toBe(false);
      expect(report.documents[0]!.failures.length).toBeGreaterThan(0);
      runs++;
    }
    expect(runs).toBeGreaterThan(500);
  });

  it('names the signature as what failed when a claim changes', async () => {
    const vector = JSON.parse(readFileSync(SIGNED_VECTOR, 'utf8')) as Record<string, Record<string, unknown>>;
    vector['credentialSubject']!['alumniOf'] = 'The School of Exampled';
    writeFileSync(join(dir, 'claim.json'), JSON.stringify(vector));
    const run = await verify(['claim.json'], dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('claim.json: NOT verified credential');
    expect(run.stderr).toContain('at /proof/proofValue: the signature does not match');
  });

  it('exits 2 for a missing file, text that is not JSON, and usage errors', async () => {
    writeFileSync(join(dir, 'broken.json'), '{"proof": ');
    expect((await verify(['missing.json'], dir)).code).toBe(2);
    expect((await verify(['broken.json'], dir)).code).toBe(2);
    expect((await verify([], dir)).code).toBe(2);
    expect((await verify([SIGNED_VECTOR, '--at', 'tomorrow'], dir)).code).toBe(2);
    // a time without its zone would be read in this machine's zone; a 30th of February is no day
    for (const at of ['2026-03-01T12:30:00', '2026-02-30T12:00:00Z']) {
      const run = await verify([SIGNED_VECTOR, '--at', at], dir);
      expect(run.code, at).toBe(2);
      expect(run.stderr, at).toContain('--at must be an RFC 3339 date-time with its time zone');
    }
  });
});

describe('agentdef verify: an AgentFacts credential', () => {
  it('verifies inside its validity window and not after it', async () => {
    const definition = JSON.parse(
      readFileSync(join(ROOT, 'examples', 'text-digest', 'agent.json'), 'utf8'),
    ) as AgentDefinition;
    const issued = await issueAgentFactsCredential(definition, {
      target: 'local-mac',
      port: 4100,
      ttlSeconds: 3600,
      issuedAt: '2026-03-01T12:00:00Z',
      privateJwk: keys.privateJwk,
    });
    if (!issued.ok) throw new Error('issue failed');
    writeFileSync(join(dir, 'facts.vc.json'), JSON.stringify(issued.credential, null, 2));
    const ok = await verify(['facts.vc.json', '--at', '2026-03-01T12:10:00Z'], dir);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('facts.vc.json: verified credential (signed by did:key:z6Mk');
    const late = await verify(['facts.vc.json', '--at', '2026-03-01T13:00:00Z'], dir);
    expect(late.code).toBe(1);
    expect(late.stderr).toContain('at /validUntil: expired at 2026-03-01T13:00:00Z');
  });
});

describe('agentdef verify: a credential or proof against a pinned key (--key, --keys)', () => {
  it('verifies one the pinned key signed, and fails one another key re-issued, whichever way the key is pinned', async () => {
    const definition = JSON.parse(
      readFileSync(join(ROOT, 'examples', 'text-digest', 'agent.json'), 'utf8'),
    ) as AgentDefinition;
    const other = await generateReceiptKeyPair();
    const issue = async (privateJwk: JsonWebKey) => {
      const issued = await issueAgentFactsCredential(definition, {
        target: 'local-mac',
        port: 4100,
        ttlSeconds: 3600,
        issuedAt: '2026-03-01T12:00:00Z',
        privateJwk,
      });
      if (!issued.ok) throw new Error('issue failed');
      return JSON.stringify(issued.credential, null, 2);
    };
    writeFileSync(join(dir, 'pinned.vc.json'), await issue(keys.privateJwk));
    writeFileSync(join(dir, 'reissued.vc.json'), await issue(other.privateJwk));
    mkdirSync(join(dir, 'other-keys'));
    writeFileSync(join(dir, 'other-keys', 'other.public.jwk.json'), JSON.stringify(other.publicJwk));
    const at = ['--at', '2026-03-01T12:10:00Z'];
    // Unpinned, both verify: each against the did:key it names (the output says which).
    expect((await verify(['reissued.vc.json', ...at], dir)).code).toBe(0);
    for (const pin of [
      ['--key', 'public.jwk.json'],
      ['--keys', 'keys'],
    ]) {
      expect((await verify(['pinned.vc.json', ...pin, ...at], dir)).code, pin.join(' ')).toBe(0);
      const reissued = await verify(['reissued.vc.json', ...pin, ...at], dir);
      expect(reissued.code, pin.join(' ')).toBe(1);
      expect(reissued.stderr).toContain(
        'at /proof/verificationMethod: not signed by the key given with --key or --keys',
      );
    }
    expect((await verify(['reissued.vc.json', '--keys', 'other-keys', ...at], dir)).code).toBe(0);
    // The W3C vector's own key is not the pinned one either.
    const vector = await verify([SIGNED_VECTOR, '--key', join(dir, 'public.jwk.json')], dir);
    expect(vector.code).toBe(1);
    expect(vector.stderr).toContain('not signed by the key given with --key or --keys');
  });
});

describe('agentdef verify: signed A2A cards', () => {
  const card: AgentCard = ECHO_CARD;

  it('verifies with --key and with --keys (kid = thumbprint), fails a changed card at its signature', async () => {
    const signed = await signAgentCard(card, keys.privateJwk);
    writeFileSync(join(dir, 'card.json'), JSON.stringify(signed));
    const withKey = await verify(['card.json', '--key', 'public.jwk.json'], dir);
    expect(withKey.code).toBe(0);
    expect(withKey.stdout).toContain(`verified agent-card (signed by kid ${kid})`);
    expect((await verify(['card.json', '--keys', 'keys'], dir)).code).toBe(0);
    writeFileSync(join(dir, 'card-changed.json'), JSON.stringify({ ...signed, description: 'Echoes text!' }));
    const changed = await verify(['card-changed.json', '--key', 'public.jwk.json'], dir);
    expect(changed.code).toBe(1);
    expect(changed.stderr).toContain('at /signatures/0/signature: signatures[0]: the signature does not match');
    const noKey = await verify(['card.json'], dir);
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toContain(`no public key is known for kid ${kid}`);
  });

  it('refuses a private key as --key without printing it', async () => {
    const run = await verify(['card.json', '--key', 'private.jwk.json'], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('holds a private key');
    expect(run.stdout + run.stderr).not.toContain(String(keys.privateJwk.d));
  });
});

describe('agentdef verify: receipts', () => {
  const unsigned = echoReceipt;

  it('verifies one receipt, and a JSONL file line by line naming the failing line', async () => {
    const receipts = await Promise.all(['r1', 'r2', 'r3'].map((id) => signReceipt(unsigned(id), keys.privateJwk, kid)));
    writeFileSync(join(dir, 'receipt.json'), JSON.stringify(receipts[0]));
    expect((await verify(['receipt.json', '--keys', 'keys'], dir)).code).toBe(0);
    const good = receipts.map((r) => JSON.stringify(r)).join('\n');
    writeFileSync(join(dir, 'receipts.jsonl'), `${good}\n`);
    const all = await verify(['receipts.jsonl', '--key', 'public.jwk.json'], dir);
    expect(all.code).toBe(0);
    expect(all.stdout).toContain('3 of 3 lines verified');
    const tampered = [
      JSON.stringify(receipts[0]),
      JSON.stringify({ ...receipts[1], latencyMs: 4 }),
      'not json',
      JSON.stringify(receipts[2]),
    ].join('\n');
    writeFileSync(join(dir, 'tampered.jsonl'), tampered);
    const run = await verify(['tampered.jsonl', '--key', 'public.jwk.json'], dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('tampered.jsonl:2: NOT verified receipt');
    expect(run.stderr).toContain('at /signature/value: the signature does not match the receipt');
    expect(run.stderr).toContain('tampered.jsonl:3: NOT verified document');
    expect(run.stdout).toContain('2 of 4 lines verified');
    const json = await verify(['tampered.jsonl', '--key', 'public.jwk.json', '--format', 'json'], dir);
    const report = JSON.parse(json.stdout) as {
      documents: { line: number; verified: boolean; failures: { line: number; pointer: string }[] }[];
    };
    expect(report.documents.map((d) => [d.line, d.verified])).toEqual([
      [1, true],
      [2, false],
      [3, false],
      [4, true],
    ]);
    expect(report.documents[1]!.failures[0]).toMatchObject({ line: 2, pointer: '/signature/value' });
    const noKey = await verify(['receipt.json'], dir);
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toContain('at /signature/kid: no public key for kid');
  });
});

describe('agentdef verify: public keys from the local key store (no --key, no --keys)', () => {
  it('verifies lifecycle receipts, run receipts and cards signed by a key `keys generate` made, naming the ref; never reads a private key', async () => {
    const store: KeyStoreOptions = {
      env: { AGENTDEF_KEYS_DIR: join(dir, 'local-store'), AGENTDEF_KEYCHAIN: 'off' },
      keychain: 'off',
    };
    const generated = await generateKey('keyref:acme-receipts', store);
    if (!generated.ok) throw new Error(generated.message);
    const privateJwk = JSON.parse(
      readFileSync(join(dir, 'local-store', 'acme-receipts.private.jwk.json'), 'utf8'),
    ) as JsonWebKey;
    const transition = await signLifecycleReceipt(promotionTransition(), privateJwk, generated.kid);
    writeFileSync(join(dir, 'lifecycle.receipts.jsonl'), `${JSON.stringify(transition)}\n`);
    const local = await verify(['lifecycle.receipts.jsonl'], dir, store);
    expect(local.stderr).toBe('');
    expect(local.stdout).toContain(
      `lifecycle.receipts.jsonl:1: verified lifecycle-receipt (signed by kid ${generated.kid}: keyref:acme-receipts, public key from the local key store)`,
    );
    expect(local.code).toBe(0);
    // The same file against an empty store: not verified, and the note says where verify looked.
    const empty = await verify(['lifecycle.receipts.jsonl'], dir);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain(`no public key for kid ${generated.kid}`);
    expect(empty.stderr).toContain(
      'note: with neither --key nor --keys, each kid was looked up in the local key store',
    );
    // --keys names the keys to trust: the local store is then not consulted.
    const named = await verify(['lifecycle.receipts.jsonl', '--keys', 'keys'], dir, store);
    expect(named.code).toBe(1);
    // Run receipts and cards the same way.
    const receipt = await signReceipt(echoReceipt('r-local'), privateJwk, generated.kid);
    writeFileSync(join(dir, 'local-receipt.json'), JSON.stringify(receipt));
    expect((await verify(['local-receipt.json'], dir, store)).stdout).toContain(
      'keyref:acme-receipts, public key from the local key store',
    );
    const byRef = await signReceipt(
      { ...(receipt as unknown as UnsignedReceipt), runId: 'r-ref' },
      privateJwk,
      'keyref:acme-receipts',
    );
    writeFileSync(join(dir, 'ref-receipt.json'), JSON.stringify(byRef));
    expect((await verify(['ref-receipt.json'], dir, store)).code).toBe(0);
    const card = await signAgentCard(
      {
        name: 'Echo',
        description: 'Echoes text.',
        supportedInterfaces: [
          { url: 'http://127.0.0.1:4100/a2a/v1', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        ],
        version: '1.0.0',
        capabilities: { streaming: false },
        defaultInputModes: ['text/plain'],
        defaultOutputModes: ['text/plain'],
        skills: [{ id: 'echo', name: 'Echo', description: 'Echo it back.', tags: ['text'] }],
      },
      privateJwk,
    );
    writeFileSync(join(dir, 'local-card.json'), JSON.stringify(card));
    expect((await verify(['local-card.json'], dir, store)).stdout).toContain(
      `verified agent-card (signed by kid ${generated.kid}: keyref:acme-receipts, public key from the local key store)`,
    );

    // Only the public file is read: without it (the private key still there) nothing verifies.
    renameSync(join(dir, 'local-store', 'acme-receipts.public.jwk.json'), join(dir, 'acme-receipts.public.moved'));
    try {
      const privateOnly = await verify(['lifecycle.receipts.jsonl'], dir, store);
      expect(privateOnly.code).toBe(1);
      expect(privateOnly.stdout + privateOnly.stderr).not.toContain(String(privateJwk.d));
    } finally {
      renameSync(join(dir, 'acme-receipts.public.moved'), join(dir, 'local-store', 'acme-receipts.public.jwk.json'));
    }
    // A public file whose key is another one does not verify what the generated key signed.
    const other = await generateReceiptKeyPair();
    writeFileSync(
      join(dir, 'local-store', 'acme-receipts.public.jwk.json'),
      JSON.stringify({ kty: 'OKP', crv: 'Ed25519', x: other.publicJwk.x }),
    );
    expect((await verify(['lifecycle.receipts.jsonl'], dir, store)).code).toBe(1);
    expect((await verify(['ref-receipt.json'], dir, store)).code).toBe(1);
  });
});
