/**
 * The receipt sink of a compiled Worker: a KV namespace (one key per receipt,
 * `receipts/<runId>/<card>@<cardVersion>/<signature prefix>`) or a queue (one message per receipt).
 * On a dynamically loaded Worker the binding is the loader's RPC proxy of the same binding, with
 * the same methods. No binding configured: no sink (the run still signs its receipt).
 */
import type { Receipt, ReceiptSink } from '../../runtime/receipts';
import type { KvLike, QueueLike, ReceiptSinkBinding } from './host-types';

/** The KV key of a receipt: grouped by run id, unique per receipt (the signature differs). */
export function receiptKey(receipt: Receipt): string {
  return `receipts/${receipt.runId}/${receipt.pinning.card}@${receipt.pinning.cardVersion}/${receipt.signature.value.slice(0, 16)}`;
}

export function receiptSinkFrom(
  env: Record<string, unknown>,
  binding: ReceiptSinkBinding | undefined,
): ReceiptSink | undefined {
  if (!binding) return undefined;
  const target = env[binding.binding];
  if (target === undefined || target === null) return undefined;
  if (binding.kind === 'queue') {
    const queue = target as QueueLike;
    return { put: async (receipt) => void (await queue.send(receipt)) };
  }
  const kv = target as KvLike;
  return { put: (receipt) => kv.put(receiptKey(receipt), JSON.stringify(receipt)) };
}
