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
 */
import type { LoopResult, StopReason } from './agent-loop';
import { base64UrlToBytes, bytesToBase64Url } from './base64url';
import type { CompositionTrace } from './composition';
import { canonicalize } from './jcs';
import type { LifecycleState, RuntimeConfig } from './runtime-config';

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
  /** For a composed child: the parent whose run id the receipt carries. */
  composedIn?: { card: string; cardVersion: string };
  /** For a dag: which children ran. */
  composition?: { nodes: { card: string; cardVersion: string; status: 'ran' | 'skipped'; stopReason?: StopReason }[] };
  signature: { alg: 'Ed25519'; kid: string; value: string };
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

async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export async function buildReceipt(config: RuntimeConfig, result: LoopResult, meta: ReceiptMeta): Promise<UnsignedReceipt> {
  const skill = config.skills.find((s) => s.id === result.skillId) ?? config.skills[0];
  const status: Receipt['outcome']['status'] = result.stopReason === 'answer' ? 'answer' : result.stopReason === 'error' ? 'error' : 'limit';
  const outcome: Receipt['outcome'] = { stopReason: result.stopReason, status };
  if (result.error) outcome.errorCode = result.error.code;
  if (result.answer) outcome.answerDigest = `sha-256:${await sha256Hex(result.answer.text)}`;
  const receipt: UnsignedReceipt = {
    receiptVersion: RECEIPT_VERSION,
    runId: meta.runId,
    issuedAt: new Date(meta.issuedAtMs).toISOString(),
    pinning: { card: config.agent.slug, cardVersion: config.agent.version, skill: skill?.id ?? result.skillId, skillVersion: skill?.version ?? '0.0.0' },
    agent: { definitionId: config.agent.id, versionId: config.agent.versionId },
    lifecycleState: config.lifecycleState,
    agenticGate: config.agenticGate,
    latencyMs: Math.max(0, Math.round(meta.latencyMs)),
    outcome,
    toolCalls: result.toolCalls.map((c) => ({ seq: c.seq, name: c.name, ok: c.ok, ...(c.errorCode ? { errorCode: c.errorCode } : {}) })),
    steps: result.steps,
    subrequests: result.subrequests,
    models: config.models.map((m) => ({ role: m.role, providerId: m.providerId, model: m.model, modelVersion: m.modelVersion })),
    compactions: result.compactions.length,
  };
  if (meta.composedIn) receipt.composedIn = meta.composedIn;
  if (meta.composition) {
    receipt.composition = {
      nodes: meta.composition.nodes.map((n) => ({ card: n.slug, cardVersion: n.version, status: n.status, ...(n.stopReason ? { stopReason: n.stopReason } : {}) })),
    };
  }
  return receipt;
}

/** The bytes a receipt's signature covers. */
export function receiptSigningInput(receipt: UnsignedReceipt & { signature?: { alg: string; kid: string; value?: string } }, kid: string): Uint8Array<ArrayBuffer> {
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

export async function signReceipt(unsigned: UnsignedReceipt, key: CryptoKey | JsonWebKey | string, kid: string): Promise<Receipt> {
  const cryptoKey = await importSigningKey(key);
  const signature = new Uint8Array(await crypto.subtle.sign(ED25519, cryptoKey, receiptSigningInput(unsigned, kid)));
  return { ...unsigned, signature: { alg: 'Ed25519', kid, value: bytesToBase64Url(signature) } };
}

/** True when the receipt is intact and signed by the key; false for tampering, a wrong key or a malformed receipt. */
export async function verifyReceipt(receipt: unknown, publicKeyJwk: JsonWebKey): Promise<boolean> {
  try {
    if (receipt === null || typeof receipt !== 'object') return false;
    const r = receipt as Receipt;
    if (r.receiptVersion !== RECEIPT_VERSION) return false;
    const sig = r.signature;
    if (sig?.alg !== 'Ed25519' || typeof sig.kid !== 'string' || typeof sig.value !== 'string') return false;
    const key = await crypto.subtle.importKey('jwk', okpJwk(publicKeyJwk, false), ED25519, false, ['verify']);
    return await crypto.subtle.verify(ED25519, key, base64UrlToBytes(sig.value), receiptSigningInput(r, sig.kid));
  } catch {
    return false;
  }
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
export function deliverReceipt(receipt: Receipt, sink: ReceiptSink, options: { waitUntil?: (promise: Promise<unknown>) => void; onError?: (error: unknown) => void } = {}): void {
  // Deferred to a microtask so even a sink that does synchronous work first cannot delay the caller.
  const settled = Promise.resolve()
    .then(() => sink.put(receipt))
    .catch((error: unknown) => options.onError?.(error));
  if (options.waitUntil) options.waitUntil(settled);
}
