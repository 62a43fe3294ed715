/**
 * Clean validations kept between processes (the Nx executors: each `nx run x:plan` is a new
 * process), in a file in Nx's workspace data directory. An entry says only "these exact bytes,
 * validated as JSON by this agentdef version with these rule options, took the fast path
 * (validate-fast-path.ts) without a single finding, and their definition's digest is this": its
 * key is SHA-256 over the store's format, the version, the rule options and the text, so an edited
 * file, another version or other options never meet an old entry (no clock, no stat: nothing can
 * be stale). Only clean fast-path results are kept, so a kept result needs nothing but the text:
 * its value is `JSON.parse`'s, every object's prototype set to null, as the fast path builds it,
 * and it has no diagnostic to locate. Anything else (YAML, a finding of any severity, the strict
 * path) is validated as always, every time.
 *
 * Each entry is a symbolic link named by the key whose target is the digest: reading one is a
 * single `readlink` (no file opened, nothing followed, at most a path's length read), against
 * open, stat, read and close for a file, and a plan reads one per definition of its tree. Where a
 * link cannot be made (Windows without the privilege), the entry is a regular file holding the
 * digest, read as definition/cache-file.ts reads cache files.
 *
 * The entries are untrusted data (definition/cache-file.ts: no link followed, size-bounded, atomic
 * replace): an entry that is anything but 64 hex digits is absent, and a text that does not parse
 * as a JSON object, or that the JSON Schema refuses, is validated whatever an entry says (so no
 * entry can hand the compiler a malformed tree). An entry for given bytes is, like the workspace data directory itself,
 * as trusted as the workspace's own files (whoever can write one can write the other). Never throws.
 */
import { readlinkSync, symlinkSync } from 'node:fs';
import { readCacheText, replaceCacheEntry, writeCacheText } from '../definition/cache-file';
import { hashArrayAfter, hashArrayPrefix } from '../definition/content-hash';
import type { Hash } from 'node:crypto';
import { join } from 'node:path';
import { loadDefinition, type LoadedDefinition } from '../definition/load-definition';
import { documentWithLazyPositions, definitionFormat } from '../definition/parse-document';
import { parseJsonObject } from '../definition/parse-json-fast';
import { readDefinitionSource, type WorkspaceRoots } from '../definition/read-source';
import { DEFAULT_RULE_OPTIONS, type RuleOptions } from '../definition/rules/rule';
import { validateOnFastPath } from '../definition/validate-fast-path';
import { validateAgentDefinition } from '../schema/generated/agent-definition.validator';
import { validateDefinitionTextStrictly } from '../definition/validate-definition';
import { digestOf } from './canonical-json';

export const STORE_FORMAT = 'agentdef-validated-definitions/v2';

const DIGEST = /^[0-9a-f]{64}$/;

/** A loaded definition, with its digest when it came from (or went into) the store. */
export interface KeptDefinition extends LoadedDefinition {
  digest?: string;
}

export interface ValidatedDefinitionStore {
  /** The digest kept for `key`, when a clean validation of its bytes is kept. */
  cleanDigest(key: string): string | undefined;
  /** Keeps a clean validation; written by {@link ValidatedDefinitionStore.save}. */
  remember(key: string, digest: string): void;
  /** The key of `text` validated as JSON with `options` (see the file header). */
  keyOf(text: string, options: RuleOptions): string;
  /** Writes what was added, if anything; a store that cannot be written is no error. */
  save(): void;
}

/**
 * The store in folder `folder` for agentdef `version`: one file per entry, named by its key and
 * holding the digest (64 hex digits, nothing else), so a plan reads only the entries of its own
 * tree, whatever the size of the workspace.
 */
export function openValidatedDefinitionStore(folder: string, version: string): ValidatedDefinitionStore {
  const added = new Map<string, string>();
  // The key's parts before the text, hashed once per rule options (a plan has one).
  let prefixOptions: RuleOptions | undefined;
  let prefix: Hash | undefined;
  return {
    cleanDigest(key) {
      if (!DIGEST.test(key)) return undefined;
      const digest = added.get(key) ?? readEntry(join(folder, key));
      return digest !== undefined && DIGEST.test(digest) ? digest : undefined;
    },
    remember(key, digest) {
      if (DIGEST.test(key) && DIGEST.test(digest)) added.set(key, digest);
    },
    keyOf(text, options) {
      if (prefix === undefined || options !== prefixOptions) {
        prefix = hashArrayPrefix([STORE_FORMAT, version, JSON.stringify(options), 'json']);
        prefixOptions = options;
      }
      return hashArrayAfter(prefix, [text]);
    },
    save() {
      for (const [key, digest] of added) writeEntry(folder, key, digest);
      added.clear();
    },
  };
}

/** The text of the entry at `path`: a link's target, or a regular file's text (see the file header); undefined when there is none. */
function readEntry(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    // Not a link (EINVAL; Windows may say otherwise): a file entry, or anything else, which readCacheText refuses.
    return code === 'ENOENT' || code === 'ENOTDIR' ? undefined : readCacheText(path, 64);
  }
}

/** Writes an entry as a link to `digest`, replacing any entry atomically; as a file where no link can be made; never throws. */
function writeEntry(folder: string, key: string, digest: string): void {
  const path = join(folder, key);
  if (!replaceCacheEntry(path, (temp) => symlinkSync(digest, temp))) writeCacheText(path, digest);
}

/** `JSON.parse`'s value of a text the fast path accepted, every object's prototype set to null as the fast path sets it; undefined for anything else. */
function keptValue(text: string): Record<string, unknown> | undefined {
  const value = parseJsonObject(text);
  if (value === undefined) return undefined;
  const nullPrototypes = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    if (Array.isArray(node)) {
      for (const item of node) nullPrototypes(item);
      return;
    }
    for (const key of Object.keys(node)) nullPrototypes((node as Record<string, unknown>)[key]);
    Object.setPrototypeOf(node, null);
  };
  nullPrototypes(value);
  return value as Record<string, unknown>;
}

/**
 * `validateDefinitionSource(text, file, 'json', options)`, taking a clean result from `store`
 * when these bytes were validated clean before, and keeping a new clean fast-path result there.
 */
export function validateJsonKept(
  text: string,
  file: string,
  options: RuleOptions,
  store: ValidatedDefinitionStore,
): KeptDefinition {
  const key = store.keyOf(text, options);
  const digest = store.cleanDigest(key);
  if (digest !== undefined) {
    const value = keptValue(text);
    // The schema still holds every kept value to its shape: an entry can spare the rules, never a malformed tree.
    if (value !== undefined && validateAgentDefinition(value)) {
      const document = documentWithLazyPositions(text, file, 'json', value);
      return { definition: value as never, document, diagnostics: [], valid: true, text, digest };
    }
  }
  const fast = validateOnFastPath(text, file, options);
  if (fast?.definition === undefined) return validateDefinitionTextStrictly(text, file, 'json', options);
  const computed = digestOf(fast.definition);
  store.remember(key, computed);
  return { ...fast, digest: computed };
}

/**
 * `loadDefinition(absolutePath, file, options)`, a JSON definition's clean validation kept in
 * `store`; `roots` looks up the workspace roots of one plan's reads once (read-source.ts).
 */
export function loadDefinitionKept(
  absolutePath: string,
  file: string,
  options: RuleOptions | undefined,
  store: ValidatedDefinitionStore,
  roots?: WorkspaceRoots,
): KeptDefinition {
  if (definitionFormat(file) !== 'json') return loadDefinition(absolutePath, file, options ?? DEFAULT_RULE_OPTIONS);
  const source = readDefinitionSource(absolutePath, file, undefined, roots);
  if (source.ioError !== undefined) return { diagnostics: [], valid: false, ioError: source.ioError };
  if (source.text === undefined) return { diagnostics: source.diagnostics, valid: false };
  return validateJsonKept(source.text, file, options ?? DEFAULT_RULE_OPTIONS, store);
}
