/**
 * Expands the CLI's file and directory arguments into definition files. Directories are
 * searched for `agent.json` / `agent.yaml` / `agent.yml`; explicit files may have any name.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

export const DEFINITION_FILE_NAMES: ReadonlySet<string> = new Set(['agent.json', 'agent.yaml', 'agent.yml']);
const SKIPPED_DIRS: ReadonlySet<string> = new Set(['node_modules', '.git', '.nx', 'dist', 'tmp']);

export interface FoundDefinitions {
  /** Absolute path and the display name (relative to cwd, posix separators). */
  files: { absolutePath: string; file: string }[];
  errors: string[];
}

export function displayPath(cwd: string, absolutePath: string): string {
  const rel = relative(cwd, absolutePath);
  return (rel === '' ? '.' : rel).split(sep).join('/');
}

function walk(dir: string, found: string[]): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name) && !entry.name.startsWith('.')) walk(join(dir, entry.name), found);
    } else if (entry.isFile() && DEFINITION_FILE_NAMES.has(entry.name)) {
      found.push(join(dir, entry.name));
    }
  }
}

export function findDefinitions(cwd: string, args: readonly string[]): FoundDefinitions {
  const files: FoundDefinitions['files'] = [];
  const errors: string[] = [];
  const seen = new Set<string>();
  for (const arg of args) {
    const absolutePath = resolve(cwd, arg);
    let stats;
    try {
      stats = statSync(absolutePath);
    } catch {
      errors.push(`cannot read ${arg}: no such file or directory`);
      continue;
    }
    const candidates: string[] = [];
    if (stats.isDirectory()) {
      walk(absolutePath, candidates);
      if (candidates.length === 0) errors.push(`${arg}: no agent.json or agent.yaml found in this directory`);
    } else {
      candidates.push(absolutePath);
    }
    for (const candidate of candidates) {
      if (seen.has(candidate)) continue;
      seen.add(candidate);
      files.push({ absolutePath: candidate, file: displayPath(cwd, candidate) });
    }
  }
  return { files, errors };
}
