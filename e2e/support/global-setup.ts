/**
 * Builds and packs agentdef once per test run (before any test file starts), so that test files
 * running in parallel install the same tarball instead of racing to rebuild dist/.
 */
import type { TestProject } from 'vitest/node';
import { buildAndPack } from './pack';

declare module 'vitest' {
  export interface ProvidedContext {
    agentdefTarball: string;
  }
}

export default function setup(project: TestProject): void {
  project.provide('agentdefTarball', buildAndPack({ typeCheck: false }));
}
