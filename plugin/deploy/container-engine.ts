/** The tools on PATH a deploy runs: the container engine (docker, else podman) that builds and pushes images, kubectl. */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export const CONTAINER_ENGINES = ['docker', 'podman'] as const;
export type ContainerEngine = (typeof CONTAINER_ENGINES)[number];

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first engine found on `PATH` (docker before podman), with its path; undefined when none is. */
export function findContainerEngine(env: NodeJS.ProcessEnv): { name: ContainerEngine; path: string } | undefined {
  return findOnPath(CONTAINER_ENGINES, env);
}

/** The first of `names` found as an executable file on `PATH` (in that order), with its path; undefined when none is. */
export function findOnPath<Name extends string>(
  names: readonly Name[],
  env: NodeJS.ProcessEnv,
): { name: Name; path: string } | undefined {
  const dirs = (env['PATH'] ?? '').split(delimiter).filter((dir) => dir !== '');
  const suffixes = process.platform === 'win32' ? ['.exe', '.cmd', ''] : [''];
  for (const name of names) {
    for (const dir of dirs) {
      for (const suffix of suffixes) {
        const path = join(dir, `${name}${suffix}`);
        if (isExecutableFile(path)) return { name, path };
      }
    }
  }
  return undefined;
}
