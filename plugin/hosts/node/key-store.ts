/**
 * The local key store: Ed25519 signing keys named by `keyref:<name>` refs (`identity.signingKeyRef`,
 * `telemetryContract.receiptSigner`). Two providers, looked up in this order:
 * - the OS keychain (unless `AGENTDEF_KEYCHAIN=off`): service `agentdef`, account `key:<name>`,
 *   value the private JWK text (macOS `security`, Linux `secret-tool` with the same lookup
 *   arguments secret-source.ts uses, so the spawn guard allows the read);
 * - a keys folder (`$AGENTDEF_KEYS_DIR`, else `$XDG_CONFIG_HOME/agentdef/keys`, else
 *   `~/.config/agentdef/keys`) holding `<name>.private.jwk.json` (mode 0600; the loader refuses a
 *   file group/other can read, a symlink, anything not a regular file) and `<name>.public.jwk.json`.
 *   A folder group or others can write, and a key file of another user or that group or others
 *   can write, are refused with the `chmod` to run (key-file-trust.ts).
 * `generateKey` stores in the folder by default: it works the same in CI and in containers, where
 * there is no keychain; `store: 'keychain'` puts the private key in the keychain instead (the
 * public JWK is written to the folder either way, so `list` and `export-public` find it).
 * A key is never overwritten: rotation is a new ref (docs/keys.md).
 * Every function returns a typed result and never throws; no private member (`d`) ever reaches a
 * result's message. The kid is the RFC 7638 thumbprint (runtime/jwk-thumbprint.ts).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants as fsConstants,
  fstatSync,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { base64UrlToBytes, bytesToBase64Url } from '../../runtime/base64url';
import { jwkThumbprint } from '../../runtime/jwk-thumbprint';
import { KEYCHAIN_SERVICE } from './secret-source';
import { keyFileTrustProblem, keyFolderTrustProblem } from './key-file-trust';

// A key ref's syntax lives in key-ref.ts (light: the CLI's option tables check --key with it).
import { KEY_NAME_PATTERN, KEY_REF_PREFIX, type KeyFailure, parseKeyRef, shownKeyRef } from './key-ref';
export { KEY_NAME_PATTERN, KEY_REF_PREFIX, parseKeyRef, shownKeyRef };
export type { KeyFailure };
const PRIVATE_SUFFIX = '.private.jwk.json';
const PUBLIC_SUFFIX = '.public.jwk.json';

/** An Ed25519 public JWK: exactly these members. */
export interface PublicJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
}
/** An Ed25519 private JWK: the public members and `d`. */
export interface PrivateJwk extends PublicJwk {
  d: string;
}

export type KeyStoreKind = 'folder' | 'keychain';

/** Runs a command (stdin optional) and resolves its stdout, or undefined when it fails (tests replace it). */
export type KeyExec = (command: string, args: string[], stdin?: string) => Promise<string | undefined>;

export interface KeyStoreOptions {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  exec?: KeyExec;
  /** `off` skips the keychain (containers, CI, tests). Default: the `AGENTDEF_KEYCHAIN` variable, else on. */
  keychain?: 'on' | 'off';
  /** The user the keys folder and its files must belong to; default this process's (tests inject another). */
  uid?: number;
}

export type LoadedKey = {
  ok: true;
  ref: string;
  name: string;
  privateJwk: PrivateJwk;
  publicJwk: PublicJwk;
  kid: string;
  source: KeyStoreKind;
};
export type PublicKeyResult = { ok: true; ref: string; name: string; publicJwk: PublicJwk; kid: string };
export type GeneratedKey = PublicKeyResult & { store: KeyStoreKind; publicFile: string };
export interface ListedKey {
  ref: string;
  kid: string;
  /** Where the private key is; `none` for a public key kept after rotation (or a keychain that is off). */
  privateKey: KeyStoreKind | 'none';
}

/** The one-line instruction every missing-key error ends with. */
export function howToCreateKey(name: string): string {
  return `create it with \`agentdef keys generate ${KEY_REF_PREFIX}${name}\``;
}

/** The keys folder for this environment. */
export function keysDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env['AGENTDEF_KEYS_DIR']) return env['AGENTDEF_KEYS_DIR'];
  if (env['XDG_CONFIG_HOME']) return join(env['XDG_CONFIG_HOME'], 'agentdef', 'keys');
  return join(env['HOME'] || homedir(), '.config', 'agentdef', 'keys');
}

/** The keychain account of a key. */
export function keychainAccount(name: string): string {
  return `key:${name}`;
}

function keychainLookup(platform: NodeJS.Platform, name: string): { command: string; args: string[] } | undefined {
  const account = keychainAccount(name);
  if (platform === 'darwin')
    return { command: 'security', args: ['find-generic-password', '-s', KEYCHAIN_SERVICE, '-a', account, '-w'] };
  if (platform === 'linux' || platform === 'freebsd' || platform === 'openbsd')
    return { command: 'secret-tool', args: ['lookup', 'service', KEYCHAIN_SERVICE, 'name', account] };
  return undefined;
}

/**
 * The keychain write. The value goes over stdin, never in arguments (other users can read a
 * process's arguments): `security -i` reads its command from stdin, `secret-tool store` the secret.
 * The value is the base64url of the private JWK text: no quote, space or backslash for
 * `security -i` to split on (the loader takes it, or the JWK text itself).
 */
function keychainStore(
  platform: NodeJS.Platform,
  name: string,
  privateJwk: PrivateJwk,
): { command: string; args: string[]; stdin: string } | undefined {
  const account = keychainAccount(name);
  const value = bytesToBase64Url(new TextEncoder().encode(JSON.stringify(privateJwk)));
  if (platform === 'darwin')
    return {
      command: 'security',
      args: ['-i'],
      stdin: `add-generic-password -s ${KEYCHAIN_SERVICE} -a ${account} -l ${KEYCHAIN_SERVICE}-${account} -w ${value}\n`,
    };
  if (platform === 'linux' || platform === 'freebsd' || platform === 'openbsd') {
    return {
      command: 'secret-tool',
      args: ['store', `--label=${KEYCHAIN_SERVICE} ${account}`, 'service', KEYCHAIN_SERVICE, 'name', account],
      stdin: value,
    };
  }
  return undefined;
}

/** A keychain value: the private JWK text, or its base64url (what generateKey stores). */
function parseKeychainValue(value: string): unknown {
  if (value.startsWith('{')) return parseJson(value);
  try {
    return parseJson(new TextDecoder('utf-8', { fatal: true }).decode(base64UrlToBytes(value)));
  } catch {
    return undefined;
  }
}

const execWithStdin: KeyExec = (command, args, stdin) =>
  new Promise((resolve) => {
    try {
      const child = execFile(command, args, { timeout: 10_000, windowsHide: true, encoding: 'utf8' }, (error, stdout) =>
        resolve(error ? undefined : stdout),
      );
      child.stdin?.on('error', () => undefined);
      child.stdin?.end(stdin ?? '');
    } catch {
      resolve(undefined);
    }
  });

interface Resolved {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  exec: KeyExec;
  keychain: boolean;
  dir: string;
  uid: number | undefined;
}

function resolveOptions(options: KeyStoreOptions): Resolved {
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const keychain =
    (options.keychain ?? (env['AGENTDEF_KEYCHAIN'] === 'off' ? 'off' : 'on')) === 'on' &&
    keychainLookup(platform, 'x') !== undefined;
  return {
    env,
    platform,
    exec: options.exec ?? execWithStdin,
    keychain,
    dir: keysDir(env),
    uid: options.uid ?? process.getuid?.(),
  };
}

/** Why the keys folder is not to be used (group/other-writable, another user's), or undefined. */
function folderProblem(o: Resolved): string | undefined {
  return keyFolderTrustProblem(o.dir, o.dir, { ...(o.uid !== undefined ? { uid: o.uid } : {}), platform: o.platform });
}

/**
 * Why the local key store's folder is not to be used, or undefined (also when it does not exist):
 * verifiers say so instead of reporting every kid as unknown.
 */
export function keyStoreFolderProblem(options: KeyStoreOptions = {}): string | undefined {
  return folderProblem(resolveOptions(options));
}

function isBase64UrlOf32Bytes(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    return base64UrlToBytes(value).length === 32;
  } catch {
    return false;
  }
}

/** The public JWK of a JWK-shaped value, or undefined. */
export function toPublicJwk(value: unknown): PublicJwk | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const jwk = value as Record<string, unknown>;
  if (jwk['kty'] !== 'OKP' || jwk['crv'] !== 'Ed25519' || !isBase64UrlOf32Bytes(jwk['x'])) return undefined;
  return { kty: 'OKP', crv: 'Ed25519', x: jwk['x'] };
}

/** The private JWK of a JWK-shaped value whose `d` really belongs to its `x`, or undefined. */
export function toPrivateJwk(value: unknown): PrivateJwk | undefined {
  const publicJwk = toPublicJwk(value);
  const d = (value as Record<string, unknown> | undefined)?.['d'];
  if (!publicJwk || !isBase64UrlOf32Bytes(d)) return undefined;
  const privateJwk: PrivateJwk = { ...publicJwk, d };
  try {
    const derived = createPublicKey(createPrivateKey({ key: { ...privateJwk }, format: 'jwk' })).export({
      format: 'jwk',
    }) as { x?: string };
    return derived.x === publicJwk.x ? privateJwk : undefined;
  } catch {
    return undefined;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

type FileRead = { ok: true; text: string } | { ok: false; missing: true } | KeyFailure;

/**
 * Reads a key file without following a symlink, refusing what is not a regular file and (for a
 * private key, off Windows) a mode that lets group or others read it. Checks use the opened file.
 */
function readKeyFile(path: string, label: string, ownerOnly: boolean, o: Resolved): FileRead {
  const { platform } = o;
  let fd: number | undefined;
  try {
    try {
      const link = lstatSync(path);
      if (link.isSymbolicLink())
        return {
          ok: false,
          message: `${label} ${path} is a symlink: refusing to read a key through a link; put the key file itself there`,
        };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ok: false, missing: true };
      return {
        ok: false,
        message: `${label} ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      };
    }
    fd = openSync(path, fsConstants.O_RDONLY | (fsConstants.O_NOFOLLOW ?? 0) | (fsConstants.O_NONBLOCK ?? 0));
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { ok: false, message: `${label} ${path} is not a regular file` };
    if (ownerOnly && platform !== 'win32' && (stat.mode & 0o077) !== 0) {
      return {
        ok: false,
        message: `${label} ${path} can be read by group or others (mode ${(stat.mode & 0o777).toString(8).padStart(3, '0')}): refusing to use it; run \`chmod 600 ${path}\``,
      };
    }
    // Another user's file, or one group or others can write, is not this user's key.
    const untrusted = keyFileTrustProblem(stat, path, { ...(o.uid !== undefined ? { uid: o.uid } : {}), platform });
    if (untrusted !== undefined) return { ok: false, message: `${label}: ${untrusted}` };
    if (stat.size > 64 * 1024) return { ok: false, message: `${label} ${path} is too large to be a JWK` };
    return { ok: true, text: readFileSync(fd, 'utf8') };
  } catch (error) {
    return {
      ok: false,
      message: `${label} ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

async function keychainPrivate(
  o: Resolved,
  name: string,
): Promise<{ found: false } | { found: true; jwk: PrivateJwk } | KeyFailure> {
  if (!o.keychain) return { found: false };
  const lookup = keychainLookup(o.platform, name);
  if (!lookup) return { found: false };
  const out = (await o.exec(lookup.command, lookup.args))?.replace(/\r?\n$/, '');
  if (!out) return { found: false };
  const jwk = toPrivateJwk(parseKeychainValue(out));
  if (!jwk)
    return {
      ok: false,
      message: `the keychain entry ${KEYCHAIN_SERVICE}/${keychainAccount(name)} is not an Ed25519 private JWK whose d matches its x`,
    };
  return { found: true, jwk };
}

async function loaded(name: string, privateJwk: PrivateJwk, source: KeyStoreKind): Promise<LoadedKey> {
  const publicJwk: PublicJwk = { kty: 'OKP', crv: 'Ed25519', x: privateJwk.x };
  return {
    ok: true,
    ref: `${KEY_REF_PREFIX}${name}`,
    name,
    privateJwk,
    publicJwk,
    kid: await jwkThumbprint(publicJwk),
    source,
  };
}

/** The private key of a ref: the keychain first, then the keys folder. */
export async function loadPrivateKey(ref: string, options: KeyStoreOptions = {}): Promise<LoadedKey | KeyFailure> {
  const parsed = parseKeyRef(ref);
  if (!parsed.ok) return parsed;
  const { name } = parsed;
  try {
    const o = resolveOptions(options);
    const fromKeychain = await keychainPrivate(o, name);
    if ('ok' in fromKeychain) return fromKeychain;
    if (fromKeychain.found) return await loaded(name, fromKeychain.jwk, 'keychain');
    const path = join(o.dir, `${name}${PRIVATE_SUFFIX}`);
    const folder = folderProblem(o);
    if (folder !== undefined) return { ok: false, message: folder };
    const file = readKeyFile(path, `the private key file of ${KEY_REF_PREFIX}${name}`, true, o);
    if (!file.ok) {
      if ('missing' in file) {
        const where = o.keychain ? `the OS keychain or ${o.dir}` : `${o.dir} (the keychain is off)`;
        return { ok: false, message: `no private key ${KEY_REF_PREFIX}${name} in ${where}: ${howToCreateKey(name)}` };
      }
      return file;
    }
    const jwk = toPrivateJwk(parseJson(file.text));
    if (!jwk) return { ok: false, message: `${path} is not an Ed25519 private JWK whose d matches its x` };
    return await loaded(name, jwk, 'folder');
  } catch (error) {
    return { ok: false, message: `the key ${KEY_REF_PREFIX}${name} cannot be loaded (${(error as Error).name})` };
  }
}

/**
 * A private key kept in a file outside the key store (e.g. a retired key's backup, for
 * `publish --previous-key <file>`): read like the folder's private files (no symlink, a regular
 * file, not readable by group or others, this user's, at most 64 KiB), and it must be an Ed25519
 * private JWK whose `d` matches its `x`. `shown` names the file in messages; never a private member.
 */
export async function loadPrivateKeyFile(
  path: string,
  shown: string,
  options: KeyStoreOptions = {},
): Promise<Omit<LoadedKey, 'ref' | 'name' | 'source'> | KeyFailure> {
  try {
    const o = resolveOptions(options);
    const file = readKeyFile(path, 'the private key file', true, o);
    if (!file.ok) return 'missing' in file ? { ok: false, message: `${shown} does not exist` } : file;
    const privateJwk = toPrivateJwk(parseJson(file.text));
    if (!privateJwk) return { ok: false, message: `${shown} is not an Ed25519 private JWK whose d matches its x` };
    const publicJwk: PublicJwk = { kty: 'OKP', crv: 'Ed25519', x: privateJwk.x };
    return { ok: true, privateJwk, publicJwk, kid: await jwkThumbprint(publicJwk) };
  } catch (error) {
    return { ok: false, message: `${shown} cannot be loaded (${(error as Error).name})` };
  }
}

/** Creates `path` with `text`, mode 0600 from creation, atomically, never replacing a file. */
function writeNewFile(path: string, text: string, mode: number): { ok: true } | KeyFailure {
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  let fd: number | undefined;
  try {
    fd = openSync(
      temp,
      fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL | (fsConstants.O_NOFOLLOW ?? 0),
      mode,
    );
    writeSync(fd, text);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    // link(2) fails when the target exists: the file appears complete, and never over another.
    linkSync(temp, path);
    return { ok: true };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    return { ok: false, message: code === 'EEXIST' ? `${path} already exists` : `cannot write ${path} (${code})` };
  } finally {
    if (fd !== undefined) closeSync(fd);
    try {
      unlinkSync(temp);
    } catch {
      // never created
    }
  }
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Generates an Ed25519 key for a ref and stores it (`store`: the folder by default, or the OS
 * keychain). Refuses a ref that already has a key anywhere the loader looks.
 */
export async function generateKey(
  ref: string,
  options: KeyStoreOptions & { store?: KeyStoreKind } = {},
): Promise<GeneratedKey | KeyFailure> {
  const parsed = parseKeyRef(ref);
  if (!parsed.ok) return parsed;
  const { name } = parsed;
  const fullRef = `${KEY_REF_PREFIX}${name}`;
  try {
    const o = resolveOptions(options);
    const store = options.store ?? 'folder';
    if (store === 'keychain' && !o.keychain) {
      return {
        ok: false,
        message: `no OS keychain here (${o.platform}${o.env['AGENTDEF_KEYCHAIN'] === 'off' || options.keychain === 'off' ? ', AGENTDEF_KEYCHAIN=off' : ''}): use --store folder`,
      };
    }
    const folder = folderProblem(o);
    if (folder !== undefined) return { ok: false, message: folder };
    const privatePath = join(o.dir, `${name}${PRIVATE_SUFFIX}`);
    const publicPath = join(o.dir, `${name}${PUBLIC_SUFFIX}`);
    const refuse = `${fullRef} already has a key: a key is never overwritten; to rotate, generate a new ref and switch the definition to it (docs/keys.md)`;
    if (exists(privatePath) || exists(publicPath)) return { ok: false, message: `${refuse} (${o.dir})` };
    const inKeychain = await keychainPrivate(o, name);
    if ('ok' in inKeychain || inKeychain.found) return { ok: false, message: `${refuse} (the OS keychain)` };

    const pair = await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify']);
    const exported = await crypto.subtle.exportKey('jwk', pair.privateKey);
    const privateJwk = toPrivateJwk(exported);
    if (!privateJwk) return { ok: false, message: 'this runtime generated an Ed25519 key it cannot export as a JWK' };
    const publicJwk: PublicJwk = { kty: 'OKP', crv: 'Ed25519', x: privateJwk.x };

    mkdirSync(o.dir, { recursive: true, mode: 0o700 });
    if (store === 'keychain') {
      const write = keychainStore(o.platform, name, privateJwk);
      if (!write || (await o.exec(write.command, write.args, write.stdin)) === undefined) {
        return {
          ok: false,
          message: `the OS keychain did not store ${KEYCHAIN_SERVICE}/${keychainAccount(name)} (${write?.command ?? 'no keychain tool'} failed): use --store folder`,
        };
      }
      // Read back (`security -i` can exit 0 when its command failed): the loader must find this very key.
      const stored = await keychainPrivate(o, name);
      if ('ok' in stored || !stored.found || stored.jwk.x !== privateJwk.x) {
        return {
          ok: false,
          message: `the OS keychain did not keep ${KEYCHAIN_SERVICE}/${keychainAccount(name)} (reading it back failed): use --store folder`,
        };
      }
    } else {
      const wrote = writeNewFile(privatePath, `${JSON.stringify(privateJwk, null, 2)}\n`, 0o600);
      if (!wrote.ok)
        return wrote.message.endsWith('already exists') ? { ok: false, message: `${refuse} (${o.dir})` } : wrote;
    }
    const wrotePublic = writeNewFile(publicPath, `${JSON.stringify(publicJwk, null, 2)}\n`, 0o644);
    if (!wrotePublic.ok) return wrotePublic;
    return {
      ok: true,
      ref: fullRef,
      name,
      publicJwk,
      kid: await jwkThumbprint(publicJwk),
      store,
      publicFile: publicPath,
    };
  } catch (error) {
    return {
      ok: false,
      message: `cannot generate ${fullRef} (${(error as NodeJS.ErrnoException).code ?? (error as Error).name})`,
    };
  }
}

/** The public JWK of a ref: the folder's public file, else derived from the private key. */
export async function exportPublicKey(
  ref: string,
  options: KeyStoreOptions = {},
): Promise<PublicKeyResult | KeyFailure> {
  const parsed = parseKeyRef(ref);
  if (!parsed.ok) return parsed;
  const { name } = parsed;
  try {
    const o = resolveOptions(options);
    const path = join(o.dir, `${name}${PUBLIC_SUFFIX}`);
    const folder = folderProblem(o);
    if (folder !== undefined) return { ok: false, message: folder };
    const file = readKeyFile(path, `the public key file of ${KEY_REF_PREFIX}${name}`, false, o);
    if (file.ok) {
      const publicJwk = toPublicJwk(parseJson(file.text));
      if (!publicJwk) return { ok: false, message: `${path} is not an Ed25519 public JWK` };
      return { ok: true, ref: `${KEY_REF_PREFIX}${name}`, name, publicJwk, kid: await jwkThumbprint(publicJwk) };
    }
    if (!('missing' in file)) return file;
    const key = await loadPrivateKey(ref, options);
    if (!key.ok) return key;
    return { ok: true, ref: key.ref, name, publicJwk: key.publicJwk, kid: key.kid };
  } catch (error) {
    return { ok: false, message: `the key ${KEY_REF_PREFIX}${name} cannot be read (${(error as Error).name})` };
  }
}

/** Every key in the keys folder: refs and kids, sorted by ref; never a private member. */
export async function listKeys(
  options: KeyStoreOptions = {},
): Promise<{ ok: true; dir: string; keys: ListedKey[] } | KeyFailure> {
  try {
    const o = resolveOptions(options);
    const folder = folderProblem(o);
    if (folder !== undefined) return { ok: false, message: folder };
    let entries: string[];
    try {
      entries = readdirSync(o.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, dir: o.dir, keys: [] };
      return {
        ok: false,
        message: `cannot read the keys folder ${o.dir} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      };
    }
    const names = new Set<string>();
    for (const entry of entries) {
      for (const suffix of [PRIVATE_SUFFIX, PUBLIC_SUFFIX]) {
        if (entry.endsWith(suffix) && KEY_NAME_PATTERN.test(entry.slice(0, -suffix.length)))
          names.add(entry.slice(0, -suffix.length));
      }
    }
    const keys: ListedKey[] = [];
    for (const name of [...names].sort()) {
      const exported = await exportPublicKey(`${KEY_REF_PREFIX}${name}`, { ...options, keychain: 'off' });
      if (!exported.ok) return exported;
      let privateKey: ListedKey['privateKey'] = 'none';
      if (entries.includes(`${name}${PRIVATE_SUFFIX}`)) privateKey = 'folder';
      else {
        const inKeychain = await keychainPrivate(o, name);
        if (!('ok' in inKeychain) && inKeychain.found) privateKey = 'keychain';
      }
      keys.push({ ref: exported.ref, kid: exported.kid, privateKey });
    }
    return { ok: true, dir: o.dir, keys };
  } catch (error) {
    return { ok: false, message: `cannot list keys (${(error as Error).name})` };
  }
}

/** A public key of the local key store, found by the kid a signature names. */
export interface LocalPublicKey {
  ref: string;
  publicJwk: PublicJwk;
  /** Its RFC 7638 thumbprint. */
  kid: string;
}

/**
 * The public key the local key store holds for a signature's `kid`: the key whose RFC 7638
 * thumbprint is `kid` (what agentdef's signers put there), or, for a `keyref:<name>` kid (a
 * receipt signed with the `AGENTDEF_RECEIPT_KEY` secret names its signer ref), that ref's key.
 * Only the keys folder's public files (`<name>.public.jwk.json`, written for every key, the
 * keychain's too) are read: a verifier never needs, opens or asks the keychain for a private key.
 * Undefined when the store has no such key; never throws.
 */
export async function findLocalPublicKey(
  kid: string,
  options: KeyStoreOptions = {},
): Promise<LocalPublicKey | undefined> {
  try {
    const o = resolveOptions(options);
    const readPublic = async (name: string): Promise<LocalPublicKey | undefined> => {
      const file = readKeyFile(
        join(o.dir, `${name}${PUBLIC_SUFFIX}`),
        `the public key file of ${KEY_REF_PREFIX}${name}`,
        false,
        o,
      );
      const publicJwk = file.ok ? toPublicJwk(parseJson(file.text)) : undefined;
      return publicJwk === undefined
        ? undefined
        : { ref: `${KEY_REF_PREFIX}${name}`, publicJwk, kid: await jwkThumbprint(publicJwk) };
    };
    if (folderProblem(o) !== undefined) return undefined;
    if (kid.startsWith(KEY_REF_PREFIX)) {
      const parsed = parseKeyRef(kid);
      return parsed.ok ? await readPublic(parsed.name) : undefined;
    }
    let entries: string[];
    try {
      entries = readdirSync(o.dir).sort();
    } catch {
      return undefined;
    }
    for (const entry of entries) {
      const name = entry.endsWith(PUBLIC_SUFFIX) ? entry.slice(0, -PUBLIC_SUFFIX.length) : undefined;
      if (name === undefined || !KEY_NAME_PATTERN.test(name)) continue;
      const found = await readPublic(name);
      if (found?.kid === kid) return found;
    }
    return undefined;
  } catch {
    return undefined;
  }
}
