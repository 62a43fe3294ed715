/**
 * The on-disk cache of inference results, in the Nx workspace data directory (next to Nx's own
 * project-graph cache, so `nx reset` clears it). One file per options hash; each entry is keyed
 * by the definition's content hash and format, the options hash and the plugin version, so an edited file,
 * a changed option or an upgraded plugin can never be served a stale summary.
 *
 * A run keeps only the entries it used, so the file never grows beyond the workspace. Reading or
 * writing the cache never fails inference: a broken cache file is a cold cache. Nothing in it is
 * trusted: only a regular file is read (never through a link, never a FIFO), every entry must have
 * exactly a summary's shape, and a write replaces the file (or a link standing in its place).
 */
import { ownField, readCacheText, writeCacheJson } from '../definition/cache-file';
import type { Hash } from 'node:crypto';
import { hashArrayAfter, hashArrayPrefix } from '../definition/content-hash';
import { join, resolve } from 'node:path';
import type { DefinitionFormat } from '../definition/parse-document';
import { PLUGIN_VERSION } from './options';
import { checkedAgentSummary, type AgentSummary } from './read-agent-summary';

/** Bump when the shape of a cached summary changes without a version bump (development). */
const CACHE_FORMAT = 'agentdef-inference/v4';

/** A cache file larger than this is not read (a cold cache): 1,000 agents take about 1 MiB. */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * Nx's workspace data directory for `workspaceRoot`: `NX_WORKSPACE_DATA_DIRECTORY` (or the older
 * `NX_PROJECT_GRAPH_CACHE_DIRECTORY`) when set, else `.nx/workspace-data`. The same rule as Nx's
 * own `workspaceDataDirectory`, which `@nx/devkit` 23 exports only from its internal entry
 * point and only for the process's own workspace; inference must honour the root it is given.
 */
export function workspaceDataDirectoryFor(workspaceRoot: string): string {
  const configured = process.env.NX_WORKSPACE_DATA_DIRECTORY || process.env.NX_PROJECT_GRAPH_CACHE_DIRECTORY;
  return configured ? resolve(workspaceRoot, configured) : join(workspaceRoot, '.nx', 'workspace-data');
}

export function inferenceCachePath(workspaceRoot: string, optionsHash: string): string {
  return join(workspaceDataDirectoryFor(workspaceRoot), `agentdef-${optionsHash}.json`);
}

/**
 * The key of one entry: content, the format it was parsed as (the same bytes are one document as
 * YAML and none as JSON), options and the plugin version that inferred it.
 */
export function inferenceCacheKey(content: string, format: DefinitionFormat, optionsHash: string): string {
  return hashArrayAfter(keyPrefix(optionsHash, format), [content]);
}

/** The hash state after the parts every key of one options hash and format begins with (a few per run). */
const keyPrefixes = new Map<string, Hash>();
function keyPrefix(optionsHash: string, format: DefinitionFormat): Hash {
  const id = `${format}:${optionsHash}`;
  let prefix = keyPrefixes.get(id);
  if (prefix === undefined) {
    prefix = hashArrayPrefix([CACHE_FORMAT, PLUGIN_VERSION, optionsHash, format]);
    keyPrefixes.set(id, prefix);
  }
  return prefix;
}

interface CacheFile {
  format: string;
  pluginVersion: string;
  entries: Record<string, AgentSummary>;
}

export interface InferenceCache {
  readonly path: string;
  /** The cached summary, or `undefined` (a miss). Counts hits and misses. */
  get(key: string): AgentSummary | undefined;
  set(key: string, summary: AgentSummary): void;
  /** Writes the entries used in this run, atomically; skips the write when nothing changed. */
  save(): void;
  readonly stats: { hits: number; misses: number };
}

/** The entries of the cache file: only those of the current format whose summary has the right shape. */
function readCacheFile(path: string): Map<string, AgentSummary> {
  const entries = new Map<string, AgentSummary>();
  const text = readCacheText(path, MAX_CACHE_BYTES);
  if (text === undefined) return entries;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return entries;
  }
  if (ownField(data, 'format') !== CACHE_FORMAT || ownField(data, 'pluginVersion') !== PLUGIN_VERSION) return entries;
  const stored = ownField(data, 'entries');
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return entries;
  for (const [key, value] of Object.entries(stored)) {
    const summary = checkedAgentSummary(value);
    if (summary !== undefined) entries.set(key, summary);
  }
  return entries;
}

export function openInferenceCache(workspaceRoot: string, optionsHash: string): InferenceCache {
  const path = inferenceCachePath(workspaceRoot, optionsHash);
  const stored = readCacheFile(path);
  const used = new Map<string, AgentSummary>();
  const stats = { hits: 0, misses: 0 };
  let changed = false;

  return {
    path,
    stats,
    get(key) {
      const hit = used.get(key) ?? stored.get(key);
      if (hit === undefined) {
        stats.misses++;
        return undefined;
      }
      stats.hits++;
      used.set(key, hit);
      return hit;
    },
    set(key, summary) {
      used.set(key, summary);
      changed = true;
    },
    save() {
      if (!changed && used.size === stored.size) return;
      const file: CacheFile = {
        format: CACHE_FORMAT,
        pluginVersion: PLUGIN_VERSION,
        entries: Object.fromEntries(used),
      };
      writeCacheJson(path, file);
    },
  };
}
