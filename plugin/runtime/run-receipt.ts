/**
 * The receipt of a run (`receipts.mode: signed`), the `receiptSigning` part (runtime-parts.ts):
 * the signing key, read and proved able to sign before the run starts (so no run with side
 * effects ends without its receipt), and the one receipt issued at the end, built from the
 * scrubbed result, signed, and handed to the sink without blocking. A config with receipts off
 * never needs it, so a Worker of such an agent does not carry it.
 */
import type { LoopResult, RuntimeLogEvent } from './agent-loop';
import { emptyLoopResult } from './agent-loop';
import { RuntimeError, describeError } from './errors';
import type { Receipt, ReceiptMeta } from './receipts';
import { buildReceipt, deliverReceipt, signReceipt, usableSigningKey } from './receipts';
import type { Redactor } from './redact';
import type { AgentRunResult, RunDeps } from './run-agent';
import type { RuntimeConfig } from './runtime-config';
import { readSecret } from './secret-source';

export interface ReceiptSigning {
  /** The receipt key as a CryptoKey that signs; its material is added to the redactor. Throws `missing_secret`. */
  key(config: RuntimeConfig, deps: RunDeps, redactor: Redactor): Promise<CryptoKey>;
  /** Sets `out.receipt` (never none: a receipt of the failure when the run's own cannot be built) and delivers it. */
  issue(out: AgentRunResult, context: ReceiptContext): Promise<void>;
}

export interface ReceiptContext {
  config: RuntimeConfig;
  deps: RunDeps;
  meta: ReceiptMeta;
  signingKey: CryptoKey;
  redactor: Redactor;
  log: (event: RuntimeLogEvent) => void;
}

async function receiptKey(config: RuntimeConfig, deps: RunDeps, redactor: Redactor): Promise<CryptoKey> {
  const material =
    deps.receipts?.signingKey ??
    (config.receipts.keyBinding ? await readSecret(deps.secrets, config.receipts.keyBinding) : undefined);
  if (material === undefined) throw new RuntimeError('missing_secret', 'the receipt signing key is not set');
  if (typeof material === 'string') redactor.add(material);
  if (typeof material === 'object' && !(typeof CryptoKey !== 'undefined' && material instanceof CryptoKey))
    redactor.add((material as JsonWebKey).d);
  if (typeof material === 'string') {
    // The private member alone too, wherever the JWK text puts it.
    try {
      redactor.add((JSON.parse(material) as JsonWebKey | null)?.d);
    } catch {
      // not JSON: importing it below fails with a clear code
    }
  }
  // Imported before anything runs: a key that cannot sign stops the run before any tool or
  // model call, never after it (a run with side effects and no receipt).
  try {
    return await usableSigningKey(material);
  } catch {
    throw new RuntimeError('missing_secret', 'the receipt signing key is not a usable Ed25519 private JWK');
  }
}

async function issueReceipt(
  out: AgentRunResult,
  { config, deps, meta, signingKey, redactor, log }: ReceiptContext,
): Promise<void> {
  const { runId } = meta;
  let receipt: Receipt | undefined;
  try {
    receipt = await signReceipt(
      redactor.json(await buildReceipt(config, out, meta)),
      signingKey,
      config.receipts.signerRef ?? 'unnamed',
    );
  } catch (error) {
    // describeError keeps only a foreign error's class name (for example DataError), never its text.
    log({ event: 'receipt.failed', runId, errorCode: describeError(error).code, detail: describeError(error).message });
    // Never no receipt: one that records only that the run's own receipt could not be built.
    const fallback: LoopResult = {
      ...emptyLoopResult(out.skillId),
      steps: out.steps,
      subrequests: out.subrequests,
      error: { code: 'receipt_incomplete', message: '' },
    };
    receipt = await signReceipt(
      await buildReceipt(config, fallback, meta),
      signingKey,
      config.receipts.signerRef ?? 'unnamed',
    ).catch(() => undefined);
  }
  if (!receipt) return;
  out.receipt = receipt;
  const sink = deps.receipts?.sink;
  if (sink) {
    deliverReceipt(receipt, sink, {
      ...(deps.waitUntil ? { waitUntil: deps.waitUntil } : {}),
      onError: (error) =>
        log({
          event: 'receipt.delivery_failed',
          runId,
          errorCode: describeError(error).code,
          detail: describeError(error).message,
        }),
    });
  }
}

export const signedReceipts: ReceiptSigning = { key: receiptKey, issue: issueReceipt };
