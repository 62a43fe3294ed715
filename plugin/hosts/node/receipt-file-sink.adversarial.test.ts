/**
 * The receipts file sink against paths that are not a receipts file: a symlink to a file elsewhere,
 * a folder, a FIFO (no reader: a blocking open would hang the host), and an existing file with
 * other content. Each is refused, reported, and left exactly as it was.
 */
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Receipt } from '../../runtime/receipts';
import { createReceiptFileSink, receiptsFileProblem } from './receipt-file-sink';

const dir = mkdtempSync(join(tmpdir(), 'agentdef-sink-adv-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const receipt = (runId: string) => ({ receiptVersion: 'receipt/v1', runId }) as unknown as Receipt;

async function putRefused(path: string): Promise<unknown[]> {
  const errors: unknown[] = [];
  const sink = createReceiptFileSink(path, (error) => errors.push(error));
  await expect(sink.put(receipt('R1'))).rejects.toThrow(/cannot append receipts to /);
  await sink.flush();
  return errors;
}

describe('the receipts sink refuses what is not a receipts file', () => {
  it('a symlink to a file elsewhere: neither followed nor changed', async () => {
    const outside = join(dir, 'outside.txt');
    writeFileSync(outside, 'precious\n');
    const link = join(dir, 'link.jsonl');
    symlinkSync(outside, link);
    expect(receiptsFileProblem(link)).toMatch(/^it is a symbolic link/);
    expect((await putRefused(link)).length).toBeGreaterThan(0);
    expect(readFileSync(outside, 'utf8')).toBe('precious\n');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });

  it('a symlink to a receipts file, too (agentdef never appends through one)', async () => {
    const real = join(dir, 'real.jsonl');
    writeFileSync(real, `${JSON.stringify(receipt('R0'))}\n`);
    const link = join(dir, 'link-to-receipts.jsonl');
    symlinkSync(real, link);
    await putRefused(link);
    expect(readFileSync(real, 'utf8').split('\n').filter(Boolean)).toHaveLength(1);
  });

  it('a folder', async () => {
    const folder = join(dir, 'folder.jsonl');
    mkdirSync(folder);
    expect(receiptsFileProblem(folder)).toMatch(/^it is not a regular file/);
    await putRefused(folder);
    expect(statSync(folder).isDirectory()).toBe(true);
  });

  it('a FIFO with no reader: refused at once instead of blocking the host', async () => {
    const fifo = join(dir, 'fifo.jsonl');
    execFileSync('mkfifo', [fifo]);
    expect(receiptsFileProblem(fifo)).toMatch(/^it is not a regular file/);
    await putRefused(fifo);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });

  it('an existing file with other content: not appended to', async () => {
    for (const [name, text] of [
      ['package.json', '{\n  "name": "mine"\n}\n'],
      ['notes.txt', 'dear diary\n'],
      ['one-line.json', '{"name":"no newline"}'],
      ['array.jsonl', '[1,2]\n'],
      ['other.jsonl', '{"runId":"R1"}\n'],
    ] as const) {
      const file = join(dir, name);
      writeFileSync(file, text);
      expect(receiptsFileProblem(file)).toMatch(/^it holds something other than receipts/);
      await putRefused(file);
      expect(readFileSync(file, 'utf8')).toBe(text);
    }
  });

  it('appends to an empty file and to a receipts file, and creates a missing one owner-only', async () => {
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '');
    const existing = join(dir, 'existing.jsonl');
    writeFileSync(existing, `${JSON.stringify(receipt('R0'))}\n`);
    const missing = join(dir, 'new', 'receipts.jsonl');
    for (const path of [empty, existing, missing]) {
      expect(receiptsFileProblem(path)).toBeUndefined();
      const sink = createReceiptFileSink(path);
      await sink.put(receipt('R1'));
      await sink.put(receipt('R2'));
      await sink.flush();
    }
    expect(
      readFileSync(empty, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as Receipt).runId),
    ).toEqual(['R1', 'R2']);
    expect(
      readFileSync(existing, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as Receipt).runId),
    ).toEqual(['R0', 'R1', 'R2']);
    expect(statSync(missing).mode & 0o777).toBe(0o600);
  });
});
