/** Shared by the executor tests: the ExecutorContext Nx hands an executor run in `workspaceRoot`. */
import type { ExecutorContext, ProjectGraph } from '@nx/devkit';

export function executorContext(
  workspaceRoot: string,
  projectName = 'write-router',
  targetName = 'compile',
  projectGraph: ProjectGraph = { nodes: {}, dependencies: {} },
): ExecutorContext {
  return {
    root: workspaceRoot,
    cwd: workspaceRoot,
    isVerbose: false,
    projectName,
    targetName,
    projectsConfigurations: { version: 2, projects: {} },
    nxJsonConfiguration: {},
    projectGraph,
  };
}
