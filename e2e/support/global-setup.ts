/**
 * Builds and packs agentdef once per test run (before any test file starts), with `npm run pack`
 * as users run it, so that test files running in parallel install the same tarball instead of
 * racing to rebuild dist/, and e2e/install.test.ts checks this very run of the script.
 */
import type { TestProject } from 'vitest/node';
import { type PackRun, runPack } from './pack';

declare module 'vitest' {
  export interface ProvidedContext {
    agentdefTarball: string;
    agentdefPackRun: PackRun;
  }
}

export default function setup(project: TestProject): void {
  const packed = runPack({ typeCheck: false });
  if (packed.status !== 0 || packed.tarball === '') throw new Error(`npm run pack failed:\n${packed.stdout}\n${packed.stderr}`);
  project.provide('agentdefTarball', packed.tarball);
  project.provide('agentdefPackRun', packed);
}
