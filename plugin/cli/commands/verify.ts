/**
 * `agentdef verify <file> [--key public-jwk-file] [--keys dir] [--at date-time] [--any-signature] [--format text|json]`:
 * one command for what agentdef signs and what others sign for it:
 * Cards and receipts need the signer's public key: `--key`, `--keys`, else (neither given) the
 * local key store's public key whose thumbprint is the kid (or the `keyref:` the kid names), and
 * the output says which ref verified. Never a private key.
 * - a document with a DataIntegrityProof (`eddsa-jcs-2022`; a Verifiable Credential also gets its
 *   VC 2.0 checks and validity window): did:key verification methods resolve offline;
 * - an A2A AgentCard with JWS `signatures` (verifyAgentCard): the key from `--key`, or the kid
 *   looked up among the public JWKs of `--keys` (by RFC 7638 thumbprint or `kid` member);
 * - a run receipt (verifyReceiptText), and a receipts JSONL file line by line, same keys;
 * - a lifecycle transition receipt (`agentdef promote`, verifyLifecycleReceipt), same keys; in a
 *   JSONL file each transition must also start at the stage the one before it ended at;
 * - an eval receipt (`agentdef eval`, eval/eval-receipt.ts verifyEvalReceipt), same keys.
 * Every document is read strictly (runtime/strict-json.ts `parseSignedJson`): a duplicated member,
 * or a member named `__proto__`, `constructor` or `prototype` anywhere, is refused with its line,
 * column and JSON Pointer. A proof whose `created` is after `--at` fails. Every signature of a card
 * is checked and reported; the card verifies when all do (`--any-signature`: when one does).
 * It says what failed and where (line, JSON Pointer). Exit 0 verified, 1 not verified, 2
 * unreadable (or a usage error). A private key given as a key file is refused and never printed.
 * Every file is read only as a bounded regular file (a FIFO or a link to /dev/zero is refused).
 */
import { readdirSync, statSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { readRegularFileBytes } from '../../definition/read-source';
import { checkEveryCardSignature } from '../../runtime/card-signature';
import { jwkThumbprint } from '../../runtime/jwk-thumbprint';
import { verifyReceiptText } from '../../runtime/receipts';
import { parseSignedJson, parseStrictJson, type StrictJsonResult } from '../../runtime/strict-json';
import { verifyCredential } from '../../trust/agentfacts-credential';
import { dateTimeStampMillis, proofCreatedAfter, verifyEddsaJcs2022 } from '../../trust/data-integrity';
import { resolveDidKey } from '../../trust/did-key';
import { publicKeyBytesOfJwk } from '../../trust/multikey';
import {
  LIFECYCLE_RECEIPT_VERSION,
  lifecycleChainFailures,
  verifyLifecycleReceipt,
} from '../../trust/lifecycle-receipt';
import { keyFileTrustProblem, keyFolderTrustProblem } from '../../hosts/node/key-file-trust';
import {
  findLocalPublicKey,
  keyStoreFolderProblem,
  keysDir as keyStoreFolder,
  type KeyStoreOptions,
  type LocalPublicKey,
} from '../../hosts/node/key-store';
import { EVAL_RECEIPT_VERSION, verifyEvalReceipt } from '../../eval/eval-receipt';
import { EXIT, type CliIo } from '../io';
import { VERIFY } from '../specs/verify';
import { parseCommand, usageError } from '../usage';

/** Files larger than this are not read (a receipts log rotated long ago, or not ours). */
const MAX_FILE_BYTES = 32 * 1024 * 1024;
const MAX_KEY_FILE_BYTES = 64 * 1024;

type Kind =
  | 'credential'
  | 'data-integrity'
  | 'agent-card'
  | 'receipt'
  | 'lifecycle-receipt'
  | 'eval-receipt'
  | 'unknown';

export interface VerifyFailure {
  /** 1-based line of a JSONL file, or of the file where its text could not be read strictly. */
  line?: number;
  /** 1-based column, where the text could not be read strictly. */
  column?: number;
  pointer: string;
  message: string;
}

/** One entry of a card's `signatures`, as checked: every entry is, and each is reported. */
export interface SignatureOutcome {
  index: number;
  kid?: string;
  verified: boolean;
  /** Why it failed. */
  detail?: string;
}

export interface DocumentOutcome {
  line?: number;
  kind: Kind;
  verified: boolean;
  /** Who or what signed it: issuer DID, card kid, receipt kid. */
  signer?: string;
  /** A card: each of its signatures, verified or not. */
  signatures?: SignatureOutcome[];
  failures: VerifyFailure[];
}

interface VerifyOptions {
  /** `--at`: the time validity windows and proof creation times are checked at. */
  at: string;
  /** `--any-signature`: a card verifies when one of its signatures does (else every one must). */
  anySignature: boolean;
}

interface Keys {
  /** `--key`: used for any kid. */
  single?: JsonWebKey;
  /** `--keys`: kid (thumbprint or `kid` member) → key. */
  byKid: Map<string, JsonWebKey>;
  /**
   * Neither `--key` nor `--keys`: each kid is looked up in the local key store (the keys folder
   * `keys generate` writes; its public files only), once.
   */
  local?: { options: KeyStoreOptions; found: Map<string, LocalPublicKey | undefined> };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function kindOf(document: unknown): Kind {
  if (!isRecord(document)) return 'unknown';
  if (document['proof'] !== undefined)
    return Array.isArray(document['type']) && document['type'].includes('VerifiableCredential')
      ? 'credential'
      : 'data-integrity';
  if (document['receiptVersion'] === LIFECYCLE_RECEIPT_VERSION) return 'lifecycle-receipt';
  if (document['receiptVersion'] === EVAL_RECEIPT_VERSION) return 'eval-receipt';
  if (typeof document['receiptVersion'] === 'string') return 'receipt';
  if (
    document['signatures'] !== undefined &&
    (document['supportedInterfaces'] !== undefined || document['skills'] !== undefined)
  )
    return 'agent-card';
  return 'unknown';
}

function keyFor(keys: Keys, kid: string): JsonWebKey | undefined {
  return keys.single ?? keys.byKid.get(kid) ?? keys.local?.found.get(kid)?.publicJwk;
}

/** Looks `kid` up in the local key store (when it is consulted), so {@link keyFor} can answer synchronously. */
async function prepareKid(keys: Keys, kid: unknown): Promise<void> {
  if (keys.local === undefined || typeof kid !== 'string' || kid === '' || keys.local.found.has(kid)) return;
  keys.local.found.set(kid, await findLocalPublicKey(kid, keys.local.options));
}

/** Who signed, as printed: the kid, and the local key store's ref when that is where the key came from. */
function signerOf(keys: Keys, kid: string): string {
  const local = keys.single === undefined && !keys.byKid.has(kid) ? keys.local?.found.get(kid) : undefined;
  return local === undefined ? `kid ${kid}` : `kid ${kid}: ${local.ref}, public key from the local key store`;
}

/** The kid a receipt's signature names. */
function signatureKid(document: Record<string, unknown>): unknown {
  const signature = document['signature'];
  return isRecord(signature) ? signature['kid'] : undefined;
}

/** Where a receipt failed: its signature members first, then the signature itself. */
function receiptFailure(receipt: Record<string, unknown>, hasKey: boolean): VerifyFailure {
  const signature = receipt['signature'];
  if (receipt['receiptVersion'] !== 'receipt/v1')
    return { pointer: '/receiptVersion', message: `receiptVersion must be "receipt/v1"` };
  if (!isRecord(signature)) return { pointer: '/signature', message: 'the receipt has no signature object' };
  const extra = Object.keys(signature).filter((name) => !['alg', 'kid', 'value'].includes(name));
  if (extra.length > 0)
    return {
      pointer: '/signature',
      message: `the signature has members other than alg, kid and value (${extra.join(', ')})`,
    };
  if (signature['alg'] !== 'Ed25519') return { pointer: '/signature/alg', message: 'alg must be "Ed25519"' };
  if (typeof signature['kid'] !== 'string' || signature['kid'] === '')
    return { pointer: '/signature/kid', message: 'kid must be a non-empty string' };
  if (!hasKey)
    return {
      pointer: '/signature/kid',
      message: `no public key for kid ${signature['kid']}: pass --key <public JWK file> or --keys <folder of public JWKs>`,
    };
  if (typeof signature['value'] !== 'string' || !/^[A-Za-z0-9_-]{86}$/.test(signature['value']))
    return {
      pointer: '/signature/value',
      message: 'value must be the base64url (no padding) of a 64-byte Ed25519 signature',
    };
  return {
    pointer: '/signature/value',
    message: 'the signature does not match the receipt (changed, duplicated members, or signed by another key)',
  };
}

/**
 * With `--key` or `--keys`, a credential or a proof verifies only when one of those keys signed it:
 * its did:key verification method resolves offline and is compared with them. (Without either, the
 * did:key the document names is what it is verified against, and the output names it.)
 */
function pinnedKeyFailure(keys: Keys, method: string | undefined): VerifyFailure | undefined {
  if (keys.local !== undefined) return undefined;
  const pinned = [...(keys.single !== undefined ? [keys.single] : []), ...keys.byKid.values()];
  const resolved = resolveDidKey(method);
  const signedBy = resolved.ok ? Buffer.from(resolved.publicKey) : undefined;
  const matches = (jwk: JsonWebKey) => {
    const bytes = publicKeyBytesOfJwk(jwk);
    return signedBy !== undefined && bytes !== undefined && signedBy.equals(Buffer.from(bytes));
  };
  if (pinned.some(matches)) return undefined;
  return {
    pointer: '/proof/verificationMethod',
    message: 'not signed by the key given with --key or --keys (another key, or none this tool can resolve)',
  };
}

/** The outcome with the pinned-key check applied: a document another key signed does not verify. */
function withPinnedKey<T extends { verified: boolean; failures: VerifyFailure[] }>(
  keys: Keys,
  method: string | undefined,
  outcome: T,
): T {
  const failure = pinnedKeyFailure(keys, method);
  return failure === undefined ? outcome : { ...outcome, verified: false, failures: [...outcome.failures, failure] };
}

/** Where and why a text is not read as a signed document (strict JSON, no reserved member names). */
function notStrictFailure(parsed: Extract<StrictJsonResult, { ok: false }>): VerifyFailure {
  return {
    line: parsed.line,
    column: parsed.column,
    pointer: parsed.pointer,
    message: `not strict JSON: ${parsed.reason}`,
  };
}

async function verifyDocument(text: string, keys: Keys, options: VerifyOptions): Promise<DocumentOutcome> {
  const { at } = options;
  // Duplicate members, and `__proto__`, `constructor` or `prototype` anywhere: refused, located.
  const parsed = parseSignedJson(text);
  if (!parsed.ok) return { kind: 'unknown', verified: false, failures: [notStrictFailure(parsed)] };
  const document = parsed.value;
  const kind = kindOf(document);
  switch (kind) {
    case 'credential': {
      const result = await verifyCredential(document, { at });
      const method = result.verificationMethod;
      const bound = method !== undefined && result.issuer !== undefined && method.split('#')[0] === result.issuer;
      const signer = bound
        ? result.issuer
        : method === undefined
          ? undefined
          : `${method}; issuer ${result.issuer ?? 'none'} is not bound to this key`;
      return withPinnedKey(keys, method, {
        kind,
        verified: result.verified,
        ...(signer ? { signer } : {}),
        failures: result.failures,
      });
    }
    case 'data-integrity': {
      const result = await verifyEddsaJcs2022(document);
      // A proof created after --at was not there at that time.
      const createdLater = proofCreatedAfter(document, dateTimeStampMillis(at) ?? Number.NaN);
      const failures = [...result.failures, ...(createdLater ? [createdLater] : [])];
      return withPinnedKey(keys, result.verificationMethod, {
        kind,
        verified: failures.length === 0,
        ...(result.verificationMethod ? { signer: result.verificationMethod } : {}),
        failures,
      });
    }
    case 'agent-card':
      return verifyCard(document, keys, options);
    case 'receipt': {
      const receipt = document as Record<string, unknown>;
      const signature = receipt['signature'];
      const kid = isRecord(signature) && typeof signature['kid'] === 'string' ? signature['kid'] : '';
      await prepareKid(keys, kid);
      const key = keyFor(keys, kid);
      if (key !== undefined && (await verifyReceiptText(text, key)))
        return { kind, verified: true, signer: signerOf(keys, kid), failures: [] };
      return { kind, verified: false, failures: [receiptFailure(receipt, key !== undefined)] };
    }
    case 'lifecycle-receipt': {
      await prepareKid(keys, signatureKid(document as Record<string, unknown>));
      const result = await verifyLifecycleReceipt(document, (kid) => keyFor(keys, kid));
      const signer = result.kid === undefined ? {} : { signer: signerOf(keys, result.kid) };
      return { kind, verified: result.verified, ...signer, failures: result.verified ? [] : result.failures };
    }
    case 'eval-receipt': {
      await prepareKid(keys, signatureKid(document as Record<string, unknown>));
      const result = await verifyEvalReceipt(document, (kid) => keyFor(keys, kid));
      const signer = result.kid === undefined ? {} : { signer: signerOf(keys, result.kid) };
      return { kind, verified: result.verified, ...signer, failures: result.verified ? [] : result.failures };
    }
    default:
      return {
        kind,
        verified: false,
        failures: [
          {
            pointer: '',
            message: 'not a credential or document with a DataIntegrityProof, a signed A2A card, or a receipt',
          },
        ],
      };
  }
}

/**
 * A signed card: every entry of `signatures` is checked and reported. It verifies when every entry
 * does, or with `--any-signature` when at least one does (the failing ones still reported).
 */
async function verifyCard(document: unknown, keys: Keys, options: VerifyOptions): Promise<DocumentOutcome> {
  const kind = 'agent-card';
  const report = await checkEveryCardSignature(document, async (kid) => {
    await prepareKid(keys, kid);
    return keyFor(keys, kid);
  });
  if (!report.ok) {
    const pointer = report.reason === 'no-signatures' ? '/signatures' : (report.pointer ?? '');
    return { kind, verified: false, failures: [{ pointer, message: report.detail }] };
  }
  const signatures: SignatureOutcome[] = report.entries.map((e) => ({
    index: e.index,
    ...(e.kid !== undefined ? { kid: e.kid } : {}),
    verified: e.verified,
    ...(e.verified ? {} : { detail: e.detail }),
  }));
  const good = report.entries.filter((e) => e.verified);
  const bad = report.entries.filter((e) => !e.verified);
  const verified = good.length > 0 && (bad.length === 0 || options.anySignature);
  const failures: VerifyFailure[] = verified
    ? []
    : bad.map((f) => ({
        pointer: `/signatures/${f.index}${f.reason === 'bad-signature' ? '/signature' : f.reason === 'bad-header' ? '/protected' : ''}`,
        message:
          good.length > 0
            ? `${f.detail} (another signature verified; every signature must, unless --any-signature)`
            : f.detail,
      }));
  const signer = good.map((e) => signerOf(keys, e.kid)).join('; ');
  return { kind, verified, ...(signer !== '' ? { signer } : {}), signatures, failures };
}

type KeyLoad = { ok: true; jwk: JsonWebKey } | { ok: false; message: string };

/** A public Ed25519 JWK from a file; a private key is refused (and never echoed). */
function readPublicJwk(path: string, shown: string, keyStore: KeyStoreOptions): KeyLoad {
  // A key file another user owns, or group or others can write, is not a key this user pinned.
  try {
    // (What is no regular file, a device or a FIFO, is refused by the read below, saying so.)
    const stat = statSync(path);
    const untrusted = stat.isFile() ? keyFileTrustProblem(stat, shown, trustOptions(keyStore)) : undefined;
    if (untrusted !== undefined) return { ok: false, message: untrusted };
  } catch {
    // missing or unreadable: the read below says so
  }
  const read = readRegularFileBytes(path, shown, MAX_KEY_FILE_BYTES);
  if (read.bytes === undefined) return { ok: false, message: read.ioError ?? `cannot read ${shown}` };
  const text = new TextDecoder().decode(read.bytes);
  const parsed = parseStrictJson(text);
  if (!parsed.ok || !isRecord(parsed.value)) return { ok: false, message: `${shown} is not a JSON object` };
  const jwk = parsed.value;
  if (Object.hasOwn(jwk, 'd'))
    return {
      ok: false,
      message: `${shown} holds a private key (member d); give the public JWK (agentdef keys export-public)`,
    };
  if (jwk['kty'] !== 'OKP' || jwk['crv'] !== 'Ed25519' || typeof jwk['x'] !== 'string')
    return { ok: false, message: `${shown} is not an Ed25519 public JWK (kty OKP, crv Ed25519, x)` };
  return {
    ok: true,
    jwk: {
      kty: 'OKP',
      crv: 'Ed25519',
      x: jwk['x'],
      ...(typeof jwk['kid'] === 'string' ? { kid: jwk['kid'] } : {}),
    } as JsonWebKey,
  };
}

/** The user keys must belong to (the key store's, injected by tests), for key-file-trust.ts. */
function trustOptions(keyStore: KeyStoreOptions): { uid?: number; platform?: NodeJS.Platform } {
  return {
    ...(keyStore.uid !== undefined ? { uid: keyStore.uid } : {}),
    ...(keyStore.platform !== undefined ? { platform: keyStore.platform } : {}),
  };
}

async function loadKeys(
  io: CliIo,
  keyFile: string | undefined,
  keysDir: string | undefined,
  keyStore: KeyStoreOptions,
): Promise<Keys | string> {
  const keys: Keys = { byKid: new Map() };
  // Without --key or --keys, the keys this machine made (`agentdef keys generate`) verify what they signed.
  if (keyFile === undefined && keysDir === undefined) {
    const untrusted = keyStoreFolderProblem(keyStore);
    if (untrusted !== undefined) return untrusted;
    keys.local = { options: keyStore, found: new Map() };
  }
  if (keyFile !== undefined) {
    const loaded = readPublicJwk(resolve(io.cwd, keyFile), keyFile, keyStore);
    if (!loaded.ok) return loaded.message;
    keys.single = loaded.jwk;
  }
  if (keysDir !== undefined) {
    // A folder group or others can write: anyone could have put a key there.
    const untrusted = keyFolderTrustProblem(resolve(io.cwd, keysDir), keysDir, trustOptions(keyStore));
    if (untrusted !== undefined) return untrusted;
    let names: string[];
    try {
      names = readdirSync(resolve(io.cwd, keysDir))
        .filter((name) => name.endsWith('.json'))
        .sort();
    } catch {
      return `cannot read the folder ${keysDir}`;
    }
    for (const name of names) {
      const loaded = readPublicJwk(join(resolve(io.cwd, keysDir), name), join(keysDir, name), keyStore);
      if (!loaded.ok) {
        io.stderr(`note: skipped ${loaded.message}\n`);
        continue;
      }
      try {
        keys.byKid.set(await jwkThumbprint(loaded.jwk), loaded.jwk);
      } catch {
        io.stderr(`note: skipped ${join(keysDir, name)}: x is not the base64url of 32 bytes\n`);
        continue;
      }
      const kid = (loaded.jwk as { kid?: unknown }).kid;
      if (typeof kid === 'string' && !keys.byKid.has(kid)) keys.byKid.set(kid, loaded.jwk);
    }
  }
  return keys;
}

/** Each signature of a card, one line each, when it has more than one or one failed. */
function describeSignatures(outcome: DocumentOutcome): string[] {
  const signatures = outcome.signatures ?? [];
  if (signatures.length < 2 && signatures.every((s) => s.verified)) return [];
  return signatures.map(
    (s) =>
      `  signature ${s.index}${s.kid !== undefined ? ` (kid ${s.kid})` : ''}: ${s.verified ? 'verified' : `FAILED: ${s.detail ?? 'not verified'}`}`,
  );
}

function describeOutcome(outcome: DocumentOutcome, label: string): string {
  const kind = outcome.kind === 'unknown' ? 'document' : outcome.kind;
  if (outcome.verified) {
    const failed = (outcome.signatures ?? []).filter((s) => !s.verified).length;
    const accepted =
      failed > 0 ? `; ${failed} of ${outcome.signatures!.length} signatures FAILED, accepted with --any-signature` : '';
    return [
      `${label}: verified ${kind}${outcome.signer ? ` (signed by ${outcome.signer}${accepted})` : ''}`,
      ...describeSignatures(outcome),
      '',
    ].join('\n');
  }
  const lines = [`${label}: NOT verified ${kind}`, ...describeSignatures(outcome)];
  for (const failure of outcome.failures) {
    const where = failure.column === undefined ? '' : ` (line ${failure.line}, column ${failure.column})`;
    lines.push(`  at ${failure.pointer === '' ? '(document)' : failure.pointer}${where}: ${failure.message}`);
  }
  return `${lines.join('\n')}\n`;
}

export async function runVerifyCommand(argv: string[], io: CliIo): Promise<number> {
  return runVerifyCommandWith(argv, io, {});
}

/** The command with the key store's environment injected (tests). */
export async function runVerifyCommandWith(argv: string[], io: CliIo, keyStore: KeyStoreOptions): Promise<number> {
  const parsed = parseCommand(io, VERIFY, argv);
  if (typeof parsed === 'number') return parsed;
  const { format } = parsed.values;
  if (parsed.positionals.length !== 1)
    return usageError(
      io,
      parsed.positionals.length === 0 ? 'name the file to verify' : `name one file, not ${parsed.positionals.length}`,
      VERIFY,
    );
  // The shell reads the clock (the libraries never do); --at makes a check reproducible.
  const at = parsed.values.at ?? new Date().toISOString();
  const options: VerifyOptions = { at, anySignature: parsed.values['any-signature'] === true };
  if (!Number.isFinite(dateTimeStampMillis(at) ?? Number.NaN) || !/^\d{4}-\d{2}-\d{2}T/.test(at))
    return usageError(io, `--at must be an RFC 3339 date-time with its time zone, not "${at}"`, VERIFY);
  const shown = parsed.positionals[0]!;
  const path = resolve(io.cwd, shown);

  let text: string;
  // Only a regular file, bounded: a FIFO or a link to /dev/zero is refused at once.
  const read = readRegularFileBytes(path, shown, MAX_FILE_BYTES);
  if (read.bytes === undefined) {
    io.stderr(`error: ${read.ioError ?? `cannot read ${shown}`}\n`);
    return EXIT.usage;
  }
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(read.bytes);
  } catch {
    io.stderr(`error: cannot read ${shown} as UTF-8 text\n`);
    return EXIT.usage;
  }
  const keys = await loadKeys(io, parsed.values.key, parsed.values.keys, keyStore);
  if (typeof keys === 'string') {
    io.stderr(`error: ${keys}\n`);
    return EXIT.usage;
  }

  const extension = extname(shown).toLowerCase();
  const whole = parseStrictJson(text);
  const nonBlank = text.split('\n').filter((line) => line.trim() !== '');
  // Lines of JSON when named so, or when the whole is no JSON text and its first line is one
  // document (a pretty-printed document with a duplicated member is one unreadable document).
  const firstLine = nonBlank.length > 1 ? parseStrictJson(nonBlank[0]!.replace(/\r$/, '')) : undefined;
  const jsonl =
    extension === '.jsonl' ||
    extension === '.ndjson' ||
    (!whole.ok && firstLine?.ok === true && firstLine.value !== null && typeof firstLine.value === 'object');
  if (!jsonl && !whole.ok) {
    const where = `${shown}:${whole.line}:${whole.column}${whole.pointer === '' ? '' : ` at ${whole.pointer}`}`;
    io.stderr(`error: ${where}: not JSON (${whole.reason}) nor JSON Lines\n`);
    return EXIT.usage;
  }

  const outcomes: DocumentOutcome[] = [];
  if (jsonl) {
    const lines = text.split('\n');
    for (const [index, line] of lines.entries()) {
      if (line.trim() === '') continue;
      const outcome = await verifyDocument(line.replace(/\r$/, ''), keys, options);
      outcomes.push({
        ...outcome,
        line: index + 1,
        failures: outcome.failures.map((f) => ({ ...f, line: index + 1 })),
      });
    }
    if (outcomes.length === 0) {
      io.stderr(`error: ${shown} has no lines to verify\n`);
      return EXIT.usage;
    }
    // Lifecycle receipts also chain: each transition starts where the previous one ended.
    const transitions = outcomes.filter((o) => o.kind === 'lifecycle-receipt');
    const values = transitions.map((o) => parseStrictJson(lines[o.line! - 1]!.replace(/\r$/, '')));
    for (const { index, failure } of lifecycleChainFailures(values.map((v) => (v.ok ? v.value : undefined)))) {
      const outcome = transitions[index]!;
      outcome.verified = false;
      outcome.failures.push({ line: outcome.line!, ...failure });
    }
  } else outcomes.push(await verifyDocument(text, keys, options));

  const verified = outcomes.every((o) => o.verified);
  // Receipts say "no public key for kid …", cards "…: no public key is known for kid …".
  const unknownKid = outcomes.some((o) => o.failures.some((f) => /no public key (is known )?for kid/.test(f.message)));
  if (keys.local !== undefined && unknownKid)
    io.stderr(
      `note: with neither --key nor --keys, each kid was looked up in the local key store (${keyStoreFolder(keyStore.env)}), which has no public key for it\n`,
    );
  if (format === 'json') io.stdout(`${JSON.stringify({ file: shown, verified, documents: outcomes }, null, 2)}\n`);
  else {
    for (const outcome of outcomes) {
      const label = outcome.line === undefined ? shown : `${shown}:${outcome.line}`;
      (outcome.verified ? io.stdout : io.stderr)(describeOutcome(outcome, label));
    }
    if (jsonl) io.stdout(`${outcomes.filter((o) => o.verified).length} of ${outcomes.length} lines verified\n`);
  }
  return verified ? EXIT.ok : EXIT.invalid;
}
