/**
 * Run receipts (`receipt/v1`, schema: plugin/schema/receipt.v1.schema.json). One receipt per
 * terminal path of a run: the pinning tuple (card, cardVersion, skill, skillVersion), the run id
 * (a composed child carries its parent's), the lifecycle state, latency, the outcome (answer, or
 * the limit/error that stopped it, by code only), and the tool calls by name and order. No
 * prompt, answer text, error text or key ever goes in: an answer is represented by its digest.
 *
 * Signature: Ed25519 (WebCrypto) over the RFC 8785 canonical JSON of the receipt with
 * `signature.value` removed (so `alg` and `kid` are covered). Delivery to a sink never blocks the
 * response: hosts pass `waitUntil`.
 *
 * Every run gets its receipt whatever a model or tool returned: strings that came from outside
 * (tool names a model asked for, error codes a tool threw) are made encodable before signing (a
 * lone surrogate becomes U+FFFD) and capped in length, deterministically, so canonicalisation
 * cannot fail. Verification is strict: only the canonical base64url encoding of a 64-byte
 * signature, exactly the members `alg` (`Ed25519`), `kid` and `value`, and, from text, no
 * duplicated property names (`verifyReceiptText`).
 */
import type { LoopResult, StopReason } from './agent-loop';
import { base64UrlToBytes, bytesToBase64Url } from './base64url';
import type { CompositionTrace } from './composition';
import { canonicalize } from './jcs';
import type { LifecycleState, RuntimeConfig } from './runtime-config';
import { parseStrictJson } from './strict-json';
import { isoTimestamp } from './iso-timestamp';

export const RECEIPT_VERSION = 'receipt/v1';
const ED25519 = { name: 'Ed25519' } as const;

export interface ReceiptToolCall {
  seq: number;
  name: string;
  ok: boolean;
  errorCode?: string;
}

export interface Receipt {
  receiptVersion: typeof RECEIPT_VERSION;
  runId: string;
  issuedAt: string;
  pinning: { card: string; cardVersion: string; skill: string; skillVersion: string };
  agent: { definitionId: string; versionId: string };
  lifecycleState: LifecycleState;
  agenticGate: 'tool-only' | 'agentic';
  latencyMs: number;
  outcome: {
    stopReason: StopReason;
    status: 'answer' | 'limit' | 'error';
    errorCode?: string;
    /** `sha-256:<hex>` of the answer text. */
    answerDigest?: string;
  };
  toolCalls: ReceiptToolCall[];
  steps: number;
  subrequests: number;
  models: { role: string; providerId: string; model: string; modelVersion: string }[];
  compactions: number;
  /** Every model call of the run in order: the pin that answered it (role, name, exact model), why, and how it went. */
  modelCalls?: ReceiptModelCall[];
  /** Present when a model answer of the run came from a recording (agentdef's model replay), not a live model. */
  modelsReplayed?: true;
  /** For a composed child: the parent whose run id the receipt carries. */
  composedIn?: { card: string; cardVersion: string };
  /** For a dag: which children ran. */
  composition?: { nodes: { card: string; cardVersion: string; status: 'ran' | 'skipped'; stopReason?: StopReason }[] };
  signature: { alg: 'Ed25519'; kid: string; value: string };
}

export interface ReceiptModelCall {
  seq: number;
  purpose: 'answer' | 'route' | 'evaluate' | 'summarise';
  role: string;
  pin?: string;
  providerId: string;
  model: string;
  modelVersion: string;
  ok: boolean;
  inputTokens?: number;
  outputTokens?: number;
  /** For a hybrid leaf's route call: the label the router named (absent: the default answered). */
  label?: string;
  /** For an evaluate call: the evaluator's verdict. */
  verdict?: 'pass' | 'fail';
}

export type UnsignedReceipt = Omit<Receipt, 'signature'>;

export interface ReceiptSink {
  put(receipt: Receipt): Promise<void>;
}

export interface ReceiptMeta {
  runId: string;
  /** Epoch milliseconds when the receipt is issued. */
  issuedAtMs: number;
  latencyMs: number;
  composedIn?: { card: string; cardVersion: string };
  composition?: CompositionTrace;
}

/** Strings that came from a model or tool are capped at this many UTF-16 code units in a receipt. */
export const RECEIPT_STRING_MAX = 256;

const LONE_SURROGATES = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * `text` as a receipt can carry it: lone surrogates replaced by U+FFFD (what a UTF-8 encoder
 * does), cut to `RECEIPT_STRING_MAX` code units (never inside a surrogate pair) with a `…` marker.
 * Deterministic: the same input always gives the same output.
 */
export function receiptString(text: string): string {
  let out = text.replace(LONE_SURROGATES, '\uFFFD');
  if (out.length > RECEIPT_STRING_MAX) {
    let end = RECEIPT_STRING_MAX - 1;
    const last = out.charCodeAt(end - 1);
    if (last >= 0xd800 && last <= 0xdbff) end--;
    out = `${out.slice(0, end)}…`;
  }
  return out;
}

/** A deep copy of a JSON value whose strings (values and keys) are all encodable; non-finite numbers become null. */
export function receiptSafe<T>(value: T): T {
  return safeValue(value) as T;
}

function safeValue(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(LONE_SURROGATES, '\uFFFD');
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (Array.isArray(value)) return value.map(safeValue);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      if (child === undefined || typeof child === 'function') continue;
      Object.defineProperty(out, safeValue(key) as string, {
        value: safeValue(child),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}

async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export async function buildReceipt(
  config: RuntimeConfig,
  result: LoopResult,
  meta: ReceiptMeta,
): Promise<UnsignedReceipt> {
  const skill = config.skills.find((s) => s.id === result.skillId) ?? config.skills[0];
  const status: Receipt['outcome']['status'] =
    result.stopReason === 'answer' ? 'answer' : result.stopReason === 'error' ? 'error' : 'limit';
  const outcome: Receipt['outcome'] = { stopReason: result.stopReason, status };
  if (result.error) outcome.errorCode = receiptString(String(result.error.code));
  if (result.answer) outcome.answerDigest = `sha-256:${await sha256Hex(result.answer.text)}`;
  const receipt: UnsignedReceipt = {
    receiptVersion: RECEIPT_VERSION,
    runId: meta.runId,
    issuedAt: isoTimestamp(meta.issuedAtMs),
    pinning: {
      card: config.agent.slug,
      cardVersion: config.agent.version,
      skill: skill?.id ?? result.skillId,
      skillVersion: skill?.version ?? '0.0.0',
    },
    agent: { definitionId: config.agent.id, versionId: config.agent.versionId },
    lifecycleState: config.lifecycleState,
    agenticGate: config.agenticGate,
    latencyMs: Math.max(0, Math.round(meta.latencyMs)),
    outcome,
    toolCalls: result.toolCalls.map((c) => ({
      seq: c.seq,
      name: receiptString(String(c.name)) || '\uFFFD',
      ok: c.ok === true,
      ...(c.errorCode ? { errorCode: receiptString(String(c.errorCode)) } : {}),
    })),
    steps: result.steps,
    subrequests: result.subrequests,
    models: config.models.map((m) => ({
      role: m.role,
      providerId: m.providerId,
      model: m.model,
      modelVersion: m.modelVersion,
    })),
    compactions: result.compactions.length,
  };
  if (result.modelCalls && result.modelCalls.length > 0) receipt.modelCalls = receiptModelCalls(result);
  if (result.modelsReplayed === true) receipt.modelsReplayed = true;
  if (meta.composedIn) receipt.composedIn = meta.composedIn;
  if (meta.composition) {
    receipt.composition = {
      nodes: meta.composition.nodes.map((n) => ({
        card: n.slug,
        cardVersion: n.version,
        status: n.status,
        ...(n.stopReason ? { stopReason: n.stopReason } : {}),
      })),
    };
  }
  return receiptSafe(receipt);
}

/** The run's model calls as the receipt keeps them, with the route's label and each verdict from the hybrid trace. */
function receiptModelCalls(result: LoopResult): ReceiptModelCall[] {
  const verdicts = [...(result.hybrid?.verdicts ?? [])];
  let routed = false;
  return (result.modelCalls ?? []).map((call) => {
    const out: ReceiptModelCall = {
      seq: call.seq,
      purpose: call.purpose,
      role: call.role,
      ...(call.pin !== undefined ? { pin: receiptString(call.pin) } : {}),
      providerId: receiptString(call.providerId),
      model: receiptString(call.model),
      modelVersion: receiptString(call.modelVersion),
      ok: call.ok,
      ...(call.inputTokens !== undefined ? { inputTokens: call.inputTokens } : {}),
      ...(call.outputTokens !== undefined ? { outputTokens: call.outputTokens } : {}),
    };
    if (call.purpose === 'route' && call.ok && !routed && result.hybrid) {
      routed = true;
      if (result.hybrid.route?.label !== undefined) out.label = receiptString(result.hybrid.route.label);
    }
    if (call.purpose === 'evaluate' && call.ok) {
      const verdict = verdicts.shift();
      if (verdict) out.verdict = verdict.pass ? 'pass' : 'fail';
    }
    return out;
  });
}

/** The bytes a receipt's signature covers. */
export function receiptSigningInput(
  receipt: UnsignedReceipt & { signature?: { alg: string; kid: string; value?: string } },
  kid: string,
): Uint8Array<ArrayBuffer> {
  const { signature: _ignored, ...rest } = receipt;
  return new TextEncoder().encode(canonicalize({ ...rest, signature: { alg: 'Ed25519', kid } }));
}

/**
 * The OKP members of a JWK only. Runtimes disagree on `alg` (Node exports `Ed25519`, workerd wants
 * `EdDSA` or none) and `key_ops` would pin the usage, so both are dropped before import.
 */
function okpJwk(jwk: JsonWebKey, withPrivate: boolean): JsonWebKey {
  const out: JsonWebKey = { kty: jwk.kty ?? 'OKP', crv: jwk.crv ?? 'Ed25519' };
  if (jwk.x !== undefined) out.x = jwk.x;
  if (withPrivate && jwk.d !== undefined) out.d = jwk.d;
  return out;
}

export async function importSigningKey(key: CryptoKey | JsonWebKey | string): Promise<CryptoKey> {
  if (typeof key === 'string') key = JSON.parse(key) as JsonWebKey;
  if (isCryptoKey(key)) return key;
  return crypto.subtle.importKey('jwk', okpJwk(key, true), ED25519, false, ['sign']);
}

function isCryptoKey(key: unknown): key is CryptoKey {
  return typeof CryptoKey !== 'undefined' && key instanceof CryptoKey;
}

export async function signReceipt(
  unsigned: UnsignedReceipt,
  key: CryptoKey | JsonWebKey | string,
  kid: string,
): Promise<Receipt> {
  const cryptoKey = await importSigningKey(key);
  // The kid comes from the config: made encodable like every other string, so signing cannot fail on it.
  const safeKid = receiptString(String(kid)) || 'unnamed';
  const signature = new Uint8Array(
    await crypto.subtle.sign(ED25519, cryptoKey, receiptSigningInput(unsigned, safeKid)),
  );
  return { ...unsigned, signature: { alg: 'Ed25519', kid: safeKid, value: bytesToBase64Url(signature) } };
}

/**
 * The key as a CryptoKey that is known to sign (it signed a probe): a run checks this before it
 * starts, so no run with side effects ends without its receipt for want of a usable key.
 */
export async function usableSigningKey(key: CryptoKey | JsonWebKey | string): Promise<CryptoKey> {
  const cryptoKey = await importSigningKey(key);
  await crypto.subtle.sign(ED25519, cryptoKey, new Uint8Array(0));
  return cryptoKey;
}

/** An Ed25519 signature is 64 bytes: 86 base64url characters, no padding. */
const SIGNATURE_CHARS = 86;
const SIGNATURE_MEMBERS = ['alg', 'kid', 'value'];

/** The signature bytes when `value` is the one canonical encoding of 64 bytes, else undefined. */
function canonicalSignatureBytes(value: unknown): Uint8Array<ArrayBuffer> | undefined {
  if (typeof value !== 'string' || value.length !== SIGNATURE_CHARS || !/^[A-Za-z0-9_-]+$/.test(value))
    return undefined;
  const bytes = base64UrlToBytes(value);
  // Non-zero trailing bits decode to the same bytes: only the encoding we would produce is accepted.
  return bytes.length === 64 && bytesToBase64Url(bytes) === value ? bytes : undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * True when the receipt is intact and signed by the key; false for tampering, a wrong key or a
 * malformed receipt: a signature object with members other than `alg`, `kid` and `value`, an
 * `alg` other than the issued `Ed25519`, or a signature that is not the canonical base64url of 64
 * bytes. Every other member of the receipt is covered by the signature. For a receipt read from a
 * file or a response, use `verifyReceiptText`, which also refuses duplicated property names.
 */
export async function verifyReceipt(receipt: unknown, publicKeyJwk: JsonWebKey): Promise<boolean> {
  try {
    if (!isPlainObject(receipt)) return false;
    const r = receipt as unknown as Receipt;
    if (r.receiptVersion !== RECEIPT_VERSION) return false;
    const sig: unknown = r.signature;
    if (!isPlainObject(sig)) return false;
    const members = Object.keys(sig);
    if (members.length !== SIGNATURE_MEMBERS.length || !SIGNATURE_MEMBERS.every((m) => Object.hasOwn(sig, m)))
      return false;
    if (sig['alg'] !== 'Ed25519' || typeof sig['kid'] !== 'string' || sig['kid'] === '') return false;
    const signature = canonicalSignatureBytes(sig['value']);
    if (signature === undefined) return false;
    const key = await crypto.subtle.importKey('jwk', okpJwk(publicKeyJwk, false), ED25519, false, ['verify']);
    return await crypto.subtle.verify(ED25519, key, signature, receiptSigningInput(r, sig['kid']));
  } catch {
    return false;
  }
}

/**
 * `verifyReceipt` for a receipt as JSON text (a file, a response body): the text must be strict
 * JSON with no duplicated property name at any depth, since a duplicate lets two readers see two
 * different receipts under one signature.
 */
export async function verifyReceiptText(text: string, publicKeyJwk: JsonWebKey): Promise<boolean> {
  if (typeof text !== 'string') return false;
  const parsed = parseStrictJson(text);
  return parsed.ok ? verifyReceipt(parsed.value, publicKeyJwk) : false;
}

/** A fresh Ed25519 key pair as JWKs (for hosts provisioning a signer, and for tests). */
export async function generateReceiptKeyPair(): Promise<{ privateJwk: JsonWebKey; publicJwk: JsonWebKey }> {
  const pair = (await crypto.subtle.generateKey(ED25519, true, ['sign', 'verify'])) as CryptoKeyPair;
  return {
    privateJwk: await crypto.subtle.exportKey('jwk', pair.privateKey),
    publicJwk: await crypto.subtle.exportKey('jwk', pair.publicKey),
  };
}

/**
 * Hands a receipt to the sink without blocking the caller: the put runs under the host's
 * `waitUntil` (Workers `ctx.waitUntil`; a process host may pass its own tracker). A failing sink
 * is reported through `onError` and never reaches the response.
 */
export function deliverReceipt(
  receipt: Receipt,
  sink: ReceiptSink,
  options: { waitUntil?: (promise: Promise<unknown>) => void; onError?: (error: unknown) => void } = {},
): void {
  // Deferred to a microtask so even a sink that does synchronous work first cannot delay the caller.
  const settled = Promise.resolve()
    .then(() => sink.put(receipt))
    .catch((error: unknown) => options.onError?.(error));
  if (options.waitUntil) options.waitUntil(settled);
}
