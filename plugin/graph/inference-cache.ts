/**
 * The on-disk cache of inference results, in the Nx workspace data directory (next to Nx's own
 * project-graph cache, so `nx reset` clears it). One file per options hash; each entry is keyed
 * by the definition's content hash, the options hash and the plugin version, so an edited file,
 * a changed option or an upgraded plugin can never be served a stale summary.
 *
 * A run keeps only the entries it used, so the file never grows beyond the workspace. Reading or
 * writing the cache never fails inference: a broken cache file is a cold cache.
 */
import { hashArray } from './hash';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PLUGIN_VERSION } from './options';
import type { AgentSummary } from './read-agent-summary';

/** Bump when the shape of a cached summary changes without a version bump (development). */
const CACHE_FORMAT = 'agentdef-inference/v3';

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

/** The key of one entry: content, options and the plugin version that inferred it. */
export function inferenceCacheKey(content: string, optionsHash: string): string {
  return hashArray([CACHE_FORMAT, PLUGIN_VERSION, optionsHash, content]);
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

function readCacheFile(path: string): Record<string, AgentSummary> {
  try {
    const data = JSON.parse(readFileSync(path, 'utf8')) as Partial<CacheFile>;
    if (data.format !== CACHE_FORMAT || data.pluginVersion !== PLUGIN_VERSION) return {};
    if (typeof data.entries !== 'object' || data.entries === null) return {};
    return data.entries;
  } catch {
    return {};
  }
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
      const hit = used.get(key) ?? (Object.hasOwn(stored, key) ? stored[key] : undefined);
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
      if (!changed && used.size === Object.keys(stored).length) return;
      const file: CacheFile = { format: CACHE_FORMAT, pluginVersion: PLUGIN_VERSION, entries: Object.fromEntries(used) };
      const temp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
      try {
        mkdirSync(join(path, '..'), { recursive: true });
        writeFileSync(temp, JSON.stringify(file));
        renameSync(temp, path);
      } catch {
        rmSync(temp, { force: true });
      }
    },
  };
}
