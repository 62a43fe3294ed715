/**
 * What `agentdef reputation` and `agentdef publish --reputation` read: receipt streams and the keys
 * they trust.
 *
 * Receipts: each path is a file or a folder. A file is one JSON document (an eval receipt as
 * `agentdef eval` writes it) or JSON Lines (run receipts, lifecycle receipts), one receipt a line;
 * a folder is searched recursively (sorted, links not followed) for `*.jsonl`, `*.ndjson` and
 * `*receipt*.json` files. Names are shown relative to the working folder, posix.
 *
 * Trust: `--trust <dir>`, a folder of public Ed25519 JWK files: a file at its top trusts its key for
 * every agent; a file in a subfolder named after a slug trusts it for that slug only. The folder
 * and files must be the user's own and not writable by others (hosts/node/key-file-trust.ts); a
 * private key is refused. Without `--trust`, each kid is looked up in the local key store's public
 * keys (as `agentdef verify` does), trusted for every agent. Never throws.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { readRegularFileBytes } from '../definition/read-source';
import { keyFileTrustProblem, keyFolderTrustProblem } from '../hosts/node/key-file-trust';
import { findLocalPublicKey, type KeyStoreOptions, keyStoreFolderProblem } from '../hosts/node/key-store';
import { jwkThumbprint } from '../runtime/jwk-thumbprint';
import { parseStrictJson } from '../runtime/strict-json';
import type { TrustedKey, TrustedKeyLookup } from '../reputation/receipt-intake';
import type { ReceiptLine } from '../reputation/score-reputation';

const MAX_FILE_BYTES = 64 * 1024 * 1024;
const MAX_KEY_FILE_BYTES = 64 * 1024;
const MAX_FILES = 10_000;

const toPosix = (path: string) => path.split(sep).join('/');

export type Read<T> = { ok: true; value: T; notes: string[] } | { ok: false; message: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const isStreamName = (name: string) => /\.(jsonl|ndjson)$/i.test(name) || /receipt.*\.json$/i.test(name);

function streamFiles(dir: string, out: string[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) streamFiles(path, out);
    else if (entry.isFile() && isStreamName(entry.name)) out.push(path);
    if (out.length > MAX_FILES) return;
  }
}

/** The lines of a file's text: the whole when it is one JSON document, else each non-blank line. */
function linesOf(text: string, source: string): ReceiptLine[] {
  if (parseStrictJson(text).ok) return [{ source, line: 1, text }];
  return text
    .split('\n')
    .map((line, index) => ({ source, line: index + 1, text: line.replace(/\r$/, '') }))
    .filter((l) => l.text.trim() !== '');
}

/** Every receipt line of `paths` (relative to `cwd`, or absolute). */
export function readReceiptLines(paths: readonly string[], cwd: string): Read<ReceiptLine[]> {
  const files: string[] = [];
  for (const given of paths) {
    const path = resolve(cwd, given);
    let isDir: boolean;
    try {
      isDir = statSync(path).isDirectory();
    } catch {
      return { ok: false, message: `cannot read ${given}: no such file or folder` };
    }
    if (isDir) {
      try {
        streamFiles(path, files);
      } catch (error) {
        return {
          ok: false,
          message: `cannot read the folder ${given} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
        };
      }
    } else files.push(path);
    if (files.length > MAX_FILES) return { ok: false, message: `more than ${MAX_FILES} receipt files: name fewer` };
  }
  const lines: ReceiptLine[] = [];
  for (const file of [...new Set(files)]) {
    const shown = toPosix(relative(cwd, file)) || file;
    const read = readRegularFileBytes(file, shown, MAX_FILE_BYTES);
    if (read.bytes === undefined) return { ok: false, message: read.ioError ?? `cannot read ${shown}` };
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(read.bytes);
    } catch {
      return { ok: false, message: `cannot read ${shown} as UTF-8 text` };
    }
    lines.push(...linesOf(text, shown));
  }
  return { ok: true, value: lines, notes: [] };
}

/** A public Ed25519 JWK from a trusted key file, or why it is not one. */
function readPublicKey(path: string, shown: string, trust: { uid?: number }): JsonWebKey | string {
  try {
    const problem = keyFileTrustProblem(statSync(path), shown, trust);
    if (problem !== undefined) return problem;
  } catch {
    return `cannot read ${shown}`;
  }
  const read = readRegularFileBytes(path, shown, MAX_KEY_FILE_BYTES);
  if (read.bytes === undefined) return read.ioError ?? `cannot read ${shown}`;
  const parsed = parseStrictJson(new TextDecoder().decode(read.bytes));
  if (!parsed.ok || !isRecord(parsed.value)) return `${shown} is not a JSON object`;
  const jwk = parsed.value;
  if (Object.hasOwn(jwk, 'd'))
    return `${shown} holds a private key (member d): a trust folder holds public keys only (agentdef keys export-public)`;
  if (jwk['kty'] !== 'OKP' || jwk['crv'] !== 'Ed25519' || typeof jwk['x'] !== 'string')
    return `${shown} is not an Ed25519 public JWK (kty OKP, crv Ed25519, x)`;
  return {
    kty: 'OKP',
    crv: 'Ed25519',
    x: jwk['x'],
    ...(typeof jwk['kid'] === 'string' ? { kid: jwk['kid'] } : {}),
  } as JsonWebKey;
}

interface Trusted {
  jwk: JsonWebKey;
  /** undefined: every agent. */
  slugs: Set<string> | undefined;
}

/** A public key file of a trust folder: JSON, named `.json` or `.jwk` (what `agentdef keys export-public` is saved as in the docs). */
const isKeyFile = (name: string) => name.endsWith('.json') || name.endsWith('.jwk');

/** The keys of a trust folder (see the header), by thumbprint and by `kid` member. */
export async function readTrustFolder(
  dir: string,
  cwd: string,
  trust: { uid?: number } = {},
): Promise<Read<TrustedKeyLookup>> {
  const root = resolve(cwd, dir);
  const problem = keyFolderTrustProblem(root, dir, trust);
  if (problem !== undefined) return { ok: false, message: problem };
  const byKid = new Map<string, Trusted>();
  const notes: string[] = [];
  const add = async (path: string, shown: string, slug: string | undefined) => {
    const jwk = readPublicKey(path, shown, trust);
    if (typeof jwk === 'string') {
      notes.push(`skipped ${jwk}`);
      return;
    }
    let thumbprint: string;
    try {
      thumbprint = await jwkThumbprint(jwk);
    } catch {
      notes.push(`skipped ${shown}: x is not the base64url of 32 bytes`);
      return;
    }
    const member = (jwk as { kid?: unknown }).kid;
    const kids = [thumbprint, ...(typeof member === 'string' && member !== thumbprint ? [member] : [])];
    for (const kid of kids) {
      const known = byKid.get(kid) ?? { jwk, slugs: new Set<string>() };
      if (known.jwk.x !== jwk.x) {
        notes.push(`skipped ${shown}: kid ${kid} names another key already`);
        continue;
      }
      if (slug === undefined) known.slugs = undefined;
      else known.slugs?.add(slug);
      byKid.set(kid, known);
    }
  };
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(root, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  } catch {
    return { ok: false, message: `cannot read the trust folder ${dir}` };
  }
  for (const entry of entries) {
    const path = join(root, entry.name);
    const shown = toPosix(join(dir, entry.name));
    if (entry.isFile() && isKeyFile(entry.name)) await add(path, shown, undefined);
    else if (entry.isDirectory()) {
      const sub = keyFolderTrustProblem(path, shown, trust);
      if (sub !== undefined) {
        notes.push(`skipped ${sub}`);
        continue;
      }
      for (const name of readdirSync(path).sort())
        if (isKeyFile(name)) await add(join(path, name), toPosix(join(shown, name)), entry.name);
    }
  }
  const lookup: TrustedKeyLookup = async (kid) => {
    const found = byKid.get(kid);
    if (found === undefined) return undefined;
    const key: TrustedKey = { publicJwk: found.jwk };
    return found.slugs === undefined ? key : { ...key, slugs: [...found.slugs].sort() };
  };
  return { ok: true, value: lookup, notes };
}

/** Without `--trust`: the local key store's public keys, each trusted for every agent. */
export function localKeyStoreTrust(keyStore: KeyStoreOptions): Read<TrustedKeyLookup> {
  const problem = keyStoreFolderProblem(keyStore);
  if (problem !== undefined) return { ok: false, message: problem };
  const found = new Map<string, Promise<TrustedKey | undefined>>();
  const lookup: TrustedKeyLookup = (kid) => {
    let hit = found.get(kid);
    if (hit === undefined) {
      hit = findLocalPublicKey(kid, keyStore).then((k) => (k === undefined ? undefined : { publicJwk: k.publicJwk }));
      found.set(kid, hit);
    }
    return hit;
  };
  return { ok: true, value: lookup, notes: [] };
}
