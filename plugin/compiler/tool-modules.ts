/**
 * Every workspace module tools.json names for a bundled tool of the tree must exist: checked once,
 * by the pipeline, for every target, before any adapter bundles (a located error at the module's
 * line in tools.json otherwise). Package modules (no `./`) are left to the bundler.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_CODES, type Diagnostic } from '../definition/diagnostic';
import { joinPointer } from '../definition/json-pointer';
import { locateFinding } from '../definition/validate-definition';
import type { ResolvedNode } from './resolve';
import { TOOLS_FILE, workspaceModulePath } from '../definition/workspace-definitions';
import type { WorkspaceConfig } from './workspace-config';

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

export function missingToolModules(
  root: ResolvedNode,
  workspace: WorkspaceConfig,
  workspaceRoot: string,
): Diagnostic[] {
  const document = workspace.documents.get(TOOLS_FILE);
  if (!document) return [];
  const diagnostics: Diagnostic[] = [];
  const seen = new Set<string>();
  const visit = (node: ResolvedNode) => {
    for (const tool of node.definition.toolInventory) {
      const module = workspace.tools.get(tool.id)?.module;
      const path = module === undefined ? undefined : workspaceModulePath(module);
      if (tool.provenance === 'mcp' || tool.provenance === 'native' || path === undefined || seen.has(tool.id))
        continue;
      seen.add(tool.id);
      if (isFile(join(workspaceRoot, ...path.split('/')))) continue;
      diagnostics.push(
        locateFinding(document, {
          code: ERROR_CODES.invalid,
          rule: 'tool-implementation',
          path: joinPointer(joinPointer('/tools', tool.id), 'module'),
          message: `the module of tool "${tool.id}" does not exist: ${module}`,
          suggestion: 'point "module" at a file inside the workspace (relative to its root) or at an installed package',
        }),
      );
    }
    node.children.forEach(visit);
  };
  visit(root);
  return diagnostics;
}
