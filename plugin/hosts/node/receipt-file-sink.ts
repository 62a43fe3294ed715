/**
 * Receipts as JSON Lines in a local file: one signed `receipt/v1` per line, appended in the order
 * they arrive. Writes are chained so lines never interleave; `flush()` resolves once every receipt
 * handed over so far is on disk (hosts await it before they exit).
 */
import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Receipt, ReceiptSink } from '../../runtime/receipts';

export interface ReceiptFileSink extends ReceiptSink {
  readonly path: string;
  /** Resolves when everything put so far is written (write errors are reported, not thrown). */
  flush(): Promise<void>;
}

export function createReceiptFileSink(path: string, onError: (error: unknown) => void = () => undefined): ReceiptFileSink {
  let chain: Promise<void> = mkdir(dirname(path), { recursive: true }).then(
    () => undefined,
    (error: unknown) => onError(error),
  );
  return {
    path,
    put(receipt: Receipt) {
      const line = `${JSON.stringify(receipt)}\n`;
      const written = chain.then(() => appendFile(path, line, { encoding: 'utf8', mode: 0o600 }));
      chain = written.catch((error: unknown) => onError(error));
      return written;
    },
    flush: () => chain,
  };
}
