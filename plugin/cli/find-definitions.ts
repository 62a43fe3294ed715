/**
 * Expands the CLI's file and directory arguments into definition files. Directories are
 * searched with the workspace walker (plugin/definition/workspace-definitions.ts: its file names
 * and skip list); explicit files may have any name.
 */
import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { findDefinitionFiles } from '../definition/workspace-definitions';
import { workspacePath } from '../definition/workspace-path';

export interface FoundDefinitions {
  /** Absolute path and the display name (relative to cwd, posix separators). */
  files: { absolutePath: string; file: string }[];
  errors: string[];
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
      for (const file of findDefinitionFiles(absolutePath)) candidates.push(join(absolutePath, file));
      if (candidates.length === 0) errors.push(`${arg}: no agent.json or agent.yaml found in this directory`);
    } else {
      candidates.push(absolutePath);
    }
    for (const candidate of candidates) {
      if (seen.has(candidate)) continue;
      seen.add(candidate);
      files.push({ absolutePath: candidate, file: workspacePath(cwd, candidate) });
    }
  }
  return { files, errors };
}
