/** The container engine on PATH a deploy builds and pushes images with: docker, else podman. */
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
  const dirs = (env['PATH'] ?? '').split(delimiter).filter((dir) => dir !== '');
  const suffixes = process.platform === 'win32' ? ['.exe', '.cmd', ''] : [''];
  for (const name of CONTAINER_ENGINES) {
    for (const dir of dirs) {
      for (const suffix of suffixes) {
        const path = join(dir, `${name}${suffix}`);
        if (isExecutableFile(path)) return { name, path };
      }
    }
  }
  return undefined;
}
