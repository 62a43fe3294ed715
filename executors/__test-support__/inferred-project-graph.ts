/**
 * The project graph Nx would hand an executor for a workspace, as far as agentdef's projects go:
 * agentdef's own `createNodes` run on the definition files Nx would match (the caller says which:
 * Nx leaves out what .gitignore and .nxignore ignore), its projects turned into graph nodes as Nx
 * merges them (name, root, configuration with metadata). When inference reports problems (two
 * definitions with one slug, say), the projects it still made are kept, as Nx draws them.
 */
import { executorContext } from '../test-support';
import type { ExecutorContext, ProjectGraph, ProjectGraphProjectNode } from '@nx/devkit';
import { createAgentNodes } from '../../plugin/graph/create-nodes';

type Results = Awaited<ReturnType<typeof createAgentNodes>>;

export async function inferredProjectGraph(
  workspaceRoot: string,
  definitionFiles: readonly string[],
): Promise<ProjectGraph> {
  let results: Results;
  try {
    results = await createAgentNodes(definitionFiles, undefined, { nxJsonConfiguration: {}, workspaceRoot });
  } catch (error) {
    const partial = (error as { partialResults?: Results }).partialResults;
    if (partial === undefined) throw error;
    results = partial;
  }
  const nodes: Record<string, ProjectGraphProjectNode> = {};
  for (const [, result] of results) {
    for (const [root, project] of Object.entries(result.projects ?? {})) {
      const name = project.name ?? root;
      nodes[name] = { name, type: 'app', data: { ...project, root } };
    }
  }
  return { nodes, dependencies: {} };
}

/** The ExecutorContext of a task in `workspaceRoot` with `projectGraph`. */
export function contextWithGraph(
  workspaceRoot: string,
  projectGraph: ProjectGraph,
  projectName: string,
  targetName = 'plan',
): ExecutorContext {
  return executorContext(workspaceRoot, projectName, targetName, projectGraph);
}
