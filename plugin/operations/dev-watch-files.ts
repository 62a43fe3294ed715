/**
 * What `agentdef dev --watch` watches: the files a compile of the agent reads, found by planning
 * it again (no write): the root definition, each pinned child's definition in the workspace,
 * tools.json and mcp.json (watched even when absent: adding one changes the build), the module of
 * every bundled tool of the tree, and every workspace file those modules import (esbuild's
 * metafile, packages left out). Registry snapshots are not watched: a published snapshot never
 * changes. Names are workspace-relative posix paths, sorted; a name never leaves the workspace.
 * Never throws: what cannot be read or bundled is simply not followed further (the compile
 * reports it).
 */
import { statSync } from 'node:fs';
import { join, posix } from 'node:path';
import { planAgent } from '../compiler/compile';
import type { ResolvedNode } from '../compiler/resolve';
import type { CompileTarget } from '../targets/targets';
import { loadWorkspaceConfig } from '../compiler/workspace-config';
import { MCP_FILE, TOOLS_FILE, workspaceModulePath } from '../definition/workspace-definitions';

export interface WatchedSource {
  /** Absolute workspace root. */
  workspaceRoot: string;
  /** The root definition, workspace-relative (from the output's plan.json). */
  rootFile: string;
  target: CompileTarget;
}

/** A workspace-relative posix path that stays inside the workspace, or undefined. */
export function insideWorkspace(name: string): string | undefined {
  if (name === '' || name.startsWith('/') || /^[A-Za-z]:/.test(name) || name.includes('\\') || name.includes('\0'))
    return undefined;
  const normal = posix.normalize(name);
  return normal === '.' || normal === '..' || normal.startsWith('../') ? undefined : normal;
}

export function absoluteIn(workspaceRoot: string, name: string): string {
  return join(workspaceRoot, ...name.split('/'));
}

/** Whether `path` is a regular file (through links). */
export function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The definitions of the tree's workspace nodes, and the tool ids of its bundled tools. */
function treeFiles(root: ResolvedNode): { definitions: string[]; toolIds: Set<string> } {
  const definitions: string[] = [];
  const toolIds = new Set<string>();
  const visit = (node: ResolvedNode) => {
    if (node.source === 'workspace') definitions.push(node.file);
    for (const tool of node.definition.toolInventory)
      if (tool.provenance !== 'mcp' && tool.provenance !== 'native') toolIds.add(tool.id);
    node.children.forEach(visit);
  };
  visit(root);
  return { definitions, toolIds };
}

/** The workspace files `module` (workspace-relative) imports, itself included; just itself when it does not bundle. */
async function importedFiles(workspaceRoot: string, module: string): Promise<string[]> {
  try {
    // Loaded on first use, as the compiler's bundler does.
    const { build } = require('esbuild') as typeof import('esbuild');
    const result = await build({
      entryPoints: [absoluteIn(workspaceRoot, module)],
      absWorkingDir: workspaceRoot,
      bundle: true,
      write: false,
      metafile: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      logLevel: 'silent',
      outfile: absoluteIn(workspaceRoot, 'watched-imports.js'),
    });
    return Object.keys(result.metafile.inputs).filter((name) => !name.split('/').includes('node_modules'));
  } catch {
    return [module];
  }
}

/** The sorted workspace-relative names of every file a compile of `source` reads. */
export async function watchedFiles(source: WatchedSource): Promise<string[]> {
  const names = new Set<string>([source.rootFile, TOOLS_FILE, MCP_FILE]);
  const planned = await planAgent({
    file: source.rootFile,
    workspaceRoot: source.workspaceRoot,
    target: source.target,
  });
  if (planned.resolved) {
    const tree = treeFiles(planned.resolved);
    for (const file of tree.definitions) names.add(file);
    const workspace = loadWorkspaceConfig(source.workspaceRoot).config;
    for (const id of [...tree.toolIds].sort()) {
      const module = workspace.tools.get(id)?.module;
      const path = module === undefined ? undefined : workspaceModulePath(module);
      if (path === undefined) continue;
      names.add(path);
      if (isFile(absoluteIn(source.workspaceRoot, path)))
        for (const file of await importedFiles(source.workspaceRoot, path)) names.add(file);
    }
  }
  return [...new Set([...names].flatMap((name) => insideWorkspace(name) ?? []))].sort();
}
