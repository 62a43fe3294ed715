/**
 * Expands the CLI's file and directory arguments into the documents `agentdef validate` checks:
 * AgentDefinitions and application manifests. Directories are searched with the workspace walker
 * (plugin/definition/workspace-definitions.ts: its file names and skip list) for both; an explicit
 * file may have any name, and one named neither way is an application manifest when its
 * `schemaVersion` says so (it is read and parsed to find out).
 */
import { statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { definitionFormat, parseDefinitionText } from '../definition/parse-document';
import { readDefinitionSource } from '../definition/read-source';
import {
  APPLICATION_FILE_NAMES,
  DEFINITION_FILE_NAMES,
  findDefinitionFiles,
  isApplicationManifest,
  isDefinitionFileName,
} from '../definition/workspace-definitions';
import { workspacePath } from '../definition/workspace-path';

export interface FoundFile {
  absolutePath: string;
  /** The display name (relative to cwd, posix separators). */
  file: string;
}

export interface FoundDefinitions {
  /** AgentDefinitions (and files of other names that are no application manifest). */
  files: FoundFile[];
  /** Application manifests. */
  applications: FoundFile[];
  errors: string[];
}

/** Whether an explicit file is an application manifest: by its name, else by its `schemaVersion`. */
function isManifestFile(absolutePath: string, file: string): boolean {
  const name = basename(absolutePath);
  if (isApplicationManifest(name) || isDefinitionFileName(name)) return isApplicationManifest(name);
  const format = definitionFormat(file);
  if (!format) return false;
  const source = readDefinitionSource(absolutePath, file);
  if (source.text === undefined) return false;
  return isApplicationManifest(name, parseDefinitionText(source.text, file, format).document?.value);
}

export function findDefinitions(cwd: string, args: readonly string[]): FoundDefinitions {
  const found: FoundDefinitions = { files: [], applications: [], errors: [] };
  const seen = new Set<string>();
  for (const arg of args) {
    const absolutePath = resolve(cwd, arg);
    let stats;
    try {
      stats = statSync(absolutePath);
    } catch {
      found.errors.push(`cannot read ${arg}: no such file or directory`);
      continue;
    }
    const candidates: { path: string; manifest: boolean }[] = [];
    if (stats.isDirectory()) {
      for (const file of findDefinitionFiles(absolutePath, {
        fileNames: [...DEFINITION_FILE_NAMES, ...APPLICATION_FILE_NAMES],
      })) {
        candidates.push({ path: join(absolutePath, file), manifest: isApplicationManifest(basename(file)) });
      }
      if (candidates.length === 0)
        found.errors.push(
          `${arg}: no agent.json, agent.yaml, application.json or application.yaml found in this directory`,
        );
    } else {
      candidates.push({ path: absolutePath, manifest: isManifestFile(absolutePath, workspacePath(cwd, absolutePath)) });
    }
    for (const candidate of candidates) {
      if (seen.has(candidate.path)) continue;
      seen.add(candidate.path);
      (candidate.manifest ? found.applications : found.files).push({
        absolutePath: candidate.path,
        file: workspacePath(cwd, candidate.path),
      });
    }
  }
  return found;
}
