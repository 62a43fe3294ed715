/**
 * The workspace's definition files as graph inference found them, handed to the executors of
 * the same Nx command so that a plan need not walk the workspace again (issue 27, goal 4).
 *
 * Graph inference walks the workspace once per graph computation (`findDefinitionFilesCached`:
 * one `stat` per folder, a folder listed again only when it changed), exactly as the compiler's
 * own index does: every folder, those Nx ignores included, so a definition Nx cannot see (in a
 * git-ignored folder, say) is still found. It keeps the result in a record file in Nx's
 * workspace data directory and puts the record's digest in the graph (the `walk` field of the
 * first agent project's `metadata.agentdef`). An executor handed that graph reads the record and
 * takes its files only when the record's bytes hash to the digest the graph holds: the files are
 * then exactly those the walk found while Nx computed this graph, the moment Nx's own view of the
 * workspace was taken. A record another command wrote since (a different digest), a missing or
 * malformed one, or a graph without a digest, and the executor walks as before.
 *
 * The Nx daemon keeps a graph across commands and recomputes it only when a file Nx sees
 * changes, so a walk made there could be older than the command: inference in the daemon
 * (`NX_DAEMON_PROCESS`) records nothing and puts no digest in the graph.
 *
 * The record is data anyone with write access to the workspace data can write; its digest is
 * checked against the graph's, and every path in it is checked for its shape (workspace-relative,
 * no `.`/`..`/empty segment, no skipped folder, a definition file name); each file a plan then
 * reads goes through the confined reader like any other. Never throws.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { ownField, readCacheText, writeCacheText } from '../definition/cache-file';
import { findDefinitionFilesCached } from '../definition/definition-walk-cache';
import { DEFINITION_FILE_NAMES, SKIPPED_DIRECTORIES } from '../definition/workspace-definitions';
import { workspaceDataDirectoryFor } from './inference-cache';

const RECORD_FORMAT = 'agentdef-definition-walk-record/v1';

/** A record larger than this is not read (200 definitions take about 6 KiB). */
const MAX_RECORD_BYTES = 32 * 1024 * 1024;

/** The walk's folder listings, next to graph inference's cache in Nx's workspace data directory (`nx reset` clears both). */
export function walkCachePathFor(workspaceRoot: string): string {
  return join(workspaceDataDirectoryFor(workspaceRoot), 'agentdef-definition-walk.json');
}

/** Where graph inference keeps the files its last walk found. */
export function walkRecordPathFor(workspaceRoot: string): string {
  return join(workspaceDataDirectoryFor(workspaceRoot), 'agentdef-definition-walk-record.json');
}

/** The digest the graph holds for a record's text: SHA-256, base64url. */
function digestOfRecord(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

/** True when graph inference runs in the Nx daemon, whose graph can outlive the command (see above). */
export function inferenceInDaemon(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.NX_DAEMON_PROCESS === 'true';
}

/**
 * Walks the workspace (its folder listings kept between runs), keeps the definition files found in
 * the record file (rewritten only when they differ) and returns the record's digest for the graph;
 * undefined when the record could not be written (the executors then walk themselves).
 */
export function recordDefinitionWalk(workspaceRoot: string): string | undefined {
  const files = findDefinitionFilesCached(workspaceRoot, walkCachePathFor(workspaceRoot));
  const text = JSON.stringify({ format: RECORD_FORMAT, files });
  const path = walkRecordPathFor(workspaceRoot);
  if (readCacheText(path, MAX_RECORD_BYTES) !== text) {
    writeCacheText(path, text);
    if (readCacheText(path, MAX_RECORD_BYTES) !== text) return undefined; // not writable: no digest to hand on
  }
  return digestOfRecord(text);
}

const SKIPPED = new Set(SKIPPED_DIRECTORIES);
const FILE_NAMES = new Set(DEFINITION_FILE_NAMES);

/** A workspace-relative posix path the walk could have found: each folder one it enters, the last name one it looks for. */
function isWalkablePath(path: unknown): path is string {
  if (typeof path !== 'string') return false;
  const names = path.split('/');
  const last = names.length - 1;
  for (let i = 0; i < last; i++) {
    const name = names[i] as string;
    if (name === '' || name === '.' || name === '..' || name.includes('\\') || name.includes('\0') || SKIPPED.has(name))
      return false;
  }
  return FILE_NAMES.has(names[last] as string);
}

/**
 * The definition files of the record whose digest is `digest` (as graph inference found them, in
 * walk order), or undefined when the record on disk is not that one or not well formed.
 */
export function readDefinitionWalkRecord(workspaceRoot: string, digest: string): string[] | undefined {
  const text = readCacheText(walkRecordPathFor(workspaceRoot), MAX_RECORD_BYTES);
  if (text === undefined || digestOfRecord(text) !== digest) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  const files = ownField(data, 'files');
  if (ownField(data, 'format') !== RECORD_FORMAT || !Array.isArray(files)) return undefined;
  const seen = new Set<string>();
  for (const file of files) {
    if (!isWalkablePath(file) || seen.has(file)) return undefined;
    seen.add(file);
  }
  return files as string[];
}
