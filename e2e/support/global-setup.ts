/**
 * Builds and packs agentdef once per test run (before any test file starts), with `npm run pack`
 * as users run it, so that test files running in parallel install the same tarball instead of
 * racing to rebuild dist/, and e2e/install.test.ts checks this very run of the script.
 */
import type { TestProject } from 'vitest/node';
import { AGENTDEF_TARBALL_ENV, type PackRun, runPack } from './pack';

declare module 'vitest' {
  export interface ProvidedContext {
    agentdefTarball: string;
    agentdefPackRun: PackRun;
  }
}

export default function setup(project: TestProject): void {
  const packed = runPack({ typeCheck: false });
  if (packed.status !== 0 || packed.tarball === '')
    throw new Error(`npm run pack failed:\n${packed.stdout}\n${packed.stderr}`);
  project.provide('agentdefTarball', packed.tarball);
  // Also in the environment the test processes inherit: run-cli.ts reads it there, so the helpers that
  // import it (host-harness.ts) load outside vitest too (scripts/run-host-examples.mjs), where it is unset.
  process.env[AGENTDEF_TARBALL_ENV] = packed.tarball;
  project.provide('agentdefPackRun', packed);
}
