/**
 * Receipts as JSON Lines in a local file: one signed `receipt/v1` per line, appended in the order
 * they arrive. Writes are chained so lines never interleave; `flush()` resolves once every receipt
 * handed over so far is on disk (hosts await it before they exit).
 *
 * Only a receipts file is ever appended to: a missing file is created (owner-only, 0600); an
 * existing path must be a regular file (not a symlink, a folder, a FIFO or a device) that is empty
 * or whose first line is a receipt. Anything else is refused ({@link receiptsFileProblem}) and left
 * as it was. Each append opens the file without following a symlink and without blocking (a FIFO
 * with no reader fails at once instead of hanging the host).
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Receipt, ReceiptSink } from '../../runtime/receipts';

export interface ReceiptFileSink extends ReceiptSink {
  readonly path: string;
  /** Resolves when everything put so far is written (write errors are reported, not thrown). */
  flush(): Promise<void>;
}

/** How much of an existing file is read to find its first line. */
const FIRST_LINE_MAX_BYTES = 1024 * 1024;

const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const NO_BLOCK = constants.O_NONBLOCK ?? 0;

const codeOf = (error: unknown) =>
  typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string'
    ? (error as { code: string }).code
    : 'unknown error';

/**
 * Why receipts must not be appended to `path` (one line: why, and what to do), or undefined when
 * it is missing (it will be created) or is a receipts file. Reads at most its first MiB; writes nothing.
 */
export function receiptsFileProblem(path: string): string | undefined {
  try {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink())
      return 'it is a symbolic link, and agentdef never appends receipts through one: name the real file, or a new path';
    if (!stat.isFile())
      return 'it is not a regular file (a folder, a FIFO or a device): name a file, e.g. receipts.jsonl';
    if (stat.size === 0) return undefined;
  } catch (error) {
    return codeOf(error) === 'ENOENT' ? undefined : `it cannot be inspected (${codeOf(error)})`;
  }
  let fd: number | undefined;
  let head: string;
  try {
    fd = openSync(path, constants.O_RDONLY | NO_FOLLOW | NO_BLOCK);
    if (!fstatSync(fd).isFile())
      return 'it is not a regular file (a folder, a FIFO or a device): name a file, e.g. receipts.jsonl';
    const buffer = Buffer.alloc(FIRST_LINE_MAX_BYTES);
    head = buffer.toString('utf8', 0, readSync(fd, buffer, 0, buffer.length, 0));
  } catch (error) {
    return codeOf(error) === 'ELOOP'
      ? 'it is a symbolic link, and agentdef never appends receipts through one: name the real file, or a new path'
      : `it cannot be read (${codeOf(error)})`;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  const cut = head.indexOf('\n');
  let first: unknown;
  try {
    first = cut < 0 ? undefined : JSON.parse(head.slice(0, cut));
  } catch {
    first = undefined;
  }
  const isReceipt =
    typeof first === 'object' &&
    first !== null &&
    !Array.isArray(first) &&
    typeof (first as { receiptVersion?: unknown }).receiptVersion === 'string';
  return isReceipt
    ? undefined
    : 'it holds something other than receipts (its first line is no receipt), and agentdef appends only to a receipts file: it was left untouched; name a new file';
}

/** Appends one line: opened without following a symlink or blocking, and only into a regular file. */
async function appendLine(path: string, line: string): Promise<void> {
  const handle = await open(
    path,
    constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | NO_FOLLOW | NO_BLOCK,
    0o600,
  );
  try {
    if (!(await handle.stat()).isFile())
      throw Object.assign(new Error(`${path} is not a regular file`), { code: 'ENOTREGULAR' });
    await handle.appendFile(line, 'utf8');
  } finally {
    await handle.close();
  }
}

export function createReceiptFileSink(
  path: string,
  onError: (error: unknown) => void = () => undefined,
): ReceiptFileSink {
  // Checked once, before the first write: a path that is no receipts file is never written.
  const ready: Promise<void> = mkdir(dirname(path), { recursive: true }).then(() => {
    const problem = receiptsFileProblem(path);
    if (problem !== undefined)
      throw Object.assign(new Error(`cannot append receipts to ${path}: ${problem}`), { code: 'ENOTRECEIPTS' });
  });
  let chain: Promise<void> = ready.catch((error: unknown) => onError(error));
  return {
    path,
    put(receipt: Receipt) {
      const line = `${JSON.stringify(receipt)}\n`;
      const written = chain.then(() => ready).then(() => appendLine(path, line));
      chain = written.catch((error: unknown) => onError(error));
      return written;
    },
    flush: () => chain,
  };
}
