/**
 * Builds and packs agentdef once per test run (before any test file starts), with `npm run pack`
 * as users run it, so that test files running in parallel install the same tarball instead of
 * racing to rebuild dist/, and e2e/install.test.ts checks this very run of the script.
 *
 * Every temporary folder of the run is made inside one folder of its own: `TMPDIR` points there
 * for the test processes and whatever they start (Node's `os.tmpdir()` reads it, as do workerd,
 * wrangler and Nx), and the folder is removed when the run ends, with whatever a test left in it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { AGENTDEF_TARBALL_ENV, type PackRun, runPack } from './pack';

declare module 'vitest' {
  export interface ProvidedContext {
    agentdefTarball: string;
    agentdefPackRun: PackRun;
  }
}

export default function setup(project: TestProject): () => void {
  const runTmp = mkdtempSync(join(tmpdir(), 'agentdef-tests-'));
  const packed = runPack({ typeCheck: false });
  if (packed.status !== 0 || packed.tarball === '')
    throw new Error(`npm run pack failed:\n${packed.stdout}\n${packed.stderr}`);
  project.provide('agentdefTarball', packed.tarball);
  // Also in the environment the test processes inherit: run-cli.ts reads it there, so the helpers that
  // import it (host-harness.ts) load outside vitest too (scripts/run-host-examples.mjs), where it is unset.
  process.env[AGENTDEF_TARBALL_ENV] = packed.tarball;
  project.provide('agentdefPackRun', packed);
  // Set after the pack, whose own temporary files npm removes; the test processes start after this.
  process.env.TMPDIR = runTmp;
  return () => {
    try {
      rmSync(runTmp, { recursive: true, force: true, maxRetries: 3 });
    } catch (error) {
      // A process a test left running may still write there: say so, and fail no test for it.
      process.stderr.write(`could not remove the run's temporary folder ${runTmp}: ${String(error)}\n`);
    }
  };
}
