/**
 * The registry index, `<registryRoot>/index.json`: per published snapshot its slug, version,
 * `identity.id`, `identity.versionId` and the SHA-256 of the snapshot's bytes exactly as stored.
 * Resolution (agent-registry.ts) checks a snapshot against the digest recorded here, so a snapshot
 * edited after publishing, or one never published through the index, fails the plan: tamper
 * evidence for pins. `agentdef publish` is the one writer (operations/publish.ts), through
 * {@link writeRegistryIndex}: the text is written to a temp file beside the index, flushed, and
 * renamed over it, so a reader sees the previous index or the new one, never a torn one. The
 * read-modify-write of the index is exclusive across processes: publish holds the registry's lock
 * (registry-lock.ts) from reading the index to writing it back. The index's name is in
 * registry-layout.ts, the careful write in registry-write.ts.
 *
 * Parsing and serialising are pure; reading and writing return typed results and never throw.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { parsePointer } from '../definition/json-pointer';
import { parseJson } from '../definition/parse-json';
import { lineIndex, readSourceBytes } from '../definition/read-source';
import { compareSemver, isExactSemver, isSlug } from '../definition/workspace-definitions';
import { REGISTRY_INDEX_FILE } from './registry-layout';
import { type FileWrite, writeFileCarefully } from './registry-write';

export const REGISTRY_INDEX_VERSION = 'agentdef-registry-index/v1';
/** The index is read whole; a registry of tens of thousands of versions fits well below this. */
const MAX_INDEX_BYTES = 32 * 1024 * 1024;

export interface RegistryIndexEntry {
  slug: string;
  version: string;
  /** The snapshot's `identity.id` (the same for every version of a slug). */
  id: string;
  /** The snapshot's `identity.versionId` (unique per version). */
  versionId: string;
  /** Lower-case hex SHA-256 of the snapshot's bytes. */
  sha256: string;
}

export interface RegistryIndex {
  registryIndexVersion: typeof REGISTRY_INDEX_VERSION;
  /** Sorted by slug, then semver. */
  snapshots: RegistryIndexEntry[];
}

export type IndexRead = { ok: true; index: RegistryIndex; missing: boolean } | { ok: false; problem: string };

/** The lower-case hex SHA-256 of a snapshot's bytes. */
export function snapshotSha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** How messages show a digest: `sha256:<hex>`. */
export function showDigest(sha256: string): string {
  return `sha256:${sha256}`;
}

export function emptyRegistryIndex(): RegistryIndex {
  return { registryIndexVersion: REGISTRY_INDEX_VERSION, snapshots: [] };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** Member names that set or shadow a prototype in many readers: never in an index. */
const RESERVED_MEMBER_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The index's JSON value, read strictly: a syntax error, a duplicated member (readers disagree on
 * which one counts) or a `__proto__`, `constructor` or `prototype` member anywhere is a problem
 * that names its line, column and JSON Pointer.
 */
function parseIndexJson(text: string): { ok: true; value: unknown } | { ok: false; problem: string } {
  const parsed = parseJson(text, REGISTRY_INDEX_FILE);
  const at = lineIndex(text);
  const problem = parsed.diagnostics.find((d) => d.severity === 'error') ?? parsed.diagnostics[0];
  if (problem !== undefined)
    return {
      ok: false,
      problem: `it is not strict JSON: line ${problem.line}, column ${problem.column}${problem.path === '' ? '' : ` at ${problem.path}`}: ${problem.message}`,
    };
  for (const [pointer, offset] of parsed.keyAt) {
    const segments = parsePointer(pointer);
    const name = segments[segments.length - 1];
    if (name === undefined || !RESERVED_MEMBER_NAMES.has(name)) continue;
    const { line, column } = at(offset);
    return {
      ok: false,
      problem: `it is not strict JSON: line ${line}, column ${column} at ${pointer}: reserved member name ${JSON.stringify(name)}`,
    };
  }
  return parsed.value === undefined ? { ok: false, problem: 'it is not JSON' } : { ok: true, value: parsed.value };
}

/** The index in a JSON text, or what is wrong with it (at which entry). */
export function parseRegistryIndex(text: string): { ok: true; index: RegistryIndex } | { ok: false; problem: string } {
  const json = parseIndexJson(text);
  if (!json.ok) return json;
  const value = json.value;
  if (
    !isRecord(value) ||
    value['registryIndexVersion'] !== REGISTRY_INDEX_VERSION ||
    !Array.isArray(value['snapshots'])
  ) {
    return {
      ok: false,
      problem: `it is not a registry index (an object with registryIndexVersion "${REGISTRY_INDEX_VERSION}" and a snapshots list)`,
    };
  }
  const snapshots: RegistryIndexEntry[] = [];
  const seen = new Set<string>();
  for (const [i, entry] of value['snapshots'].entries()) {
    if (!isRecord(entry)) return { ok: false, problem: `snapshots/${i} is not an object` };
    const { slug, version, id, versionId, sha256 } = entry;
    if (typeof slug !== 'string' || !isSlug(slug)) return { ok: false, problem: `snapshots/${i}/slug is not a slug` };
    if (typeof version !== 'string' || !isExactSemver(version))
      return { ok: false, problem: `snapshots/${i}/version is not an exact semantic version` };
    if (typeof id !== 'string' || typeof versionId !== 'string')
      return { ok: false, problem: `snapshots/${i}: id and versionId must be strings` };
    if (typeof sha256 !== 'string' || !SHA256_HEX.test(sha256))
      return { ok: false, problem: `snapshots/${i}/sha256 is not a lower-case hex SHA-256` };
    const key = `${slug}@${version}`;
    if (seen.has(key)) return { ok: false, problem: `${key} is listed twice` };
    seen.add(key);
    snapshots.push({ slug, version, id, versionId, sha256 });
  }
  return { ok: true, index: { registryIndexVersion: REGISTRY_INDEX_VERSION, snapshots: sortEntries(snapshots) } };
}

function sortEntries(entries: RegistryIndexEntry[]): RegistryIndexEntry[] {
  return [...entries].sort((a, b) =>
    a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : compareSemver(a.version, b.version),
  );
}

/** The index's file text: entries sorted, members in a fixed order, two-space indentation, a final newline. */
export function serializeRegistryIndex(index: RegistryIndex): string {
  const snapshots = sortEntries(index.snapshots).map(({ slug, version, id, versionId, sha256 }) => ({
    slug,
    version,
    id,
    versionId,
    sha256,
  }));
  return `${JSON.stringify({ registryIndexVersion: REGISTRY_INDEX_VERSION, snapshots }, null, 2)}\n`;
}

/** The entry of `slug@version`, if the index records one. */
export function findIndexEntry(index: RegistryIndex, slug: string, version: string): RegistryIndexEntry | undefined {
  return index.snapshots.find((e) => e.slug === slug && e.version === version);
}

/** The index with `entry` recorded (replacing an entry of the same slug and version). */
export function withIndexEntry(index: RegistryIndex, entry: RegistryIndexEntry): RegistryIndex {
  const others = index.snapshots.filter((e) => !(e.slug === entry.slug && e.version === entry.version));
  return { registryIndexVersion: REGISTRY_INDEX_VERSION, snapshots: sortEntries([...others, { ...entry }]) };
}

/**
 * Reads `<root>/index.json` (`root` absolute; `displayRoot` names it in messages). A missing
 * index is an empty one (`missing: true`); an unreadable or malformed one is a problem.
 */
export function readRegistryIndex(root: string, displayRoot: string): IndexRead {
  const shown = `${displayRoot}/${REGISTRY_INDEX_FILE}`;
  const read = readSourceBytes(join(root, REGISTRY_INDEX_FILE), shown, MAX_INDEX_BYTES, root);
  if (read.missing) return { ok: true, index: emptyRegistryIndex(), missing: true };
  if (read.bytes === undefined)
    return { ok: false, problem: read.ioError ?? `cannot read ${shown}: it is larger than ${MAX_INDEX_BYTES} bytes` };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(read.bytes);
  } catch {
    return { ok: false, problem: `${shown} is not UTF-8 text` };
  }
  const parsed = parseRegistryIndex(text);
  return parsed.ok
    ? { ok: true, index: parsed.index, missing: false }
    : { ok: false, problem: `${shown}: ${parsed.problem}` };
}

/** Replaces `<root>/index.json` with `index` (see {@link writeFileCarefully}). */
export function writeRegistryIndex(root: string, displayRoot: string, index: RegistryIndex): FileWrite {
  return writeFileCarefully(
    join(root, REGISTRY_INDEX_FILE),
    serializeRegistryIndex(index),
    'replace',
    `${displayRoot}/${REGISTRY_INDEX_FILE}`,
    root,
  );
}
