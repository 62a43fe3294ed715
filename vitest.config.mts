import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Unit tests that change what other files would see: module mocks, stubbed environment variables. */
const NEEDS_ITS_OWN_PROCESS = [
  'plugin/definition/read-source.test.ts', // vi.mock('node:fs')
  'plugin/definition/read-source-guard.test.ts', // vi.mock('node:fs')
  'plugin/compiler/validated-definition-store-no-links.test.ts', // vi.mock('node:fs')
  'plugin/operations/publish-hostile.test.ts', // vi.mock of a module
  'plugin/cli/commands/ask.test.ts', // vi.stubEnv at module level
  'plugin/graph/create-nodes.test.ts', // set Nx's environment variables
  'plugin/graph/create-dependencies.test.ts',
  'plugin/graph/hostile-workspaces.test.ts',
  'plugin/graph/compile-target-flag.test.ts',
  'plugin/**/*.kill.test.ts', // kill processes they start
];

/** Files that start real processes and workspaces: the long ones. */
const EXPENSIVE = /^(e2e|scripts)\//;

/**
 * The order test files start in. Vitest runs the files it has timings for longest first, and files
 * it has none for (a fresh clone, CI) largest first; by size, a four-line file that runs tsc over
 * the whole project or drives a real Nx workspace starts last and leaves one core working alone at
 * the end. Without timings, this puts the end-to-end files (processes, servers, Nx) before the
 * unit files, each group largest first; with timings for every file it keeps Vitest's order.
 */
class ExpensiveFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const path = (file: TestSpecification) => relative(this.ctx.config.root, file.moduleId).split('\\').join('/');
    if (sorted.every((file) => this.ctx.cache.getFileTestResults(`${file.project.name}:${path(file)}`) !== undefined))
      return sorted;
    const expensive = (file: TestSpecification) => EXPENSIVE.test(path(file));
    return [...sorted.filter(expensive), ...sorted.filter((file) => !expensive(file))];
  }
}

/** What every file gets. The global setup is the root's alone: it packs the tarball once per run. */
const shared = {
  setupFiles: ['./e2e/support/fast-check-seed.ts'],
  // One backstop for a hung test, not a speed check: tests wait on events and progress, and the
  // suite must pass on a loaded machine (two suites at once). No test sets its own timeout
  // (e2e/architecture/test-conventions.test.ts).
  testTimeout: 900_000,
  hookTimeout: 900_000,
  pool: 'forks' as const,
};

export default defineConfig({
  test: {
    ...shared,
    globalSetup: ['./e2e/support/global-setup.ts'],
    reporters: ['default', './e2e/support/plain-summary-reporter.ts'],
    // Most files wait on child processes and sockets more than they compute: four files at a
    // time keep two cores busy (docs/performance.md, "Test suite").
    maxWorkers: 4,
    sequence: { sequencer: ExpensiveFirstSequencer },
    projects: [
      {
        // Test files share their worker processes (modules load once per worker, not per file): a
        // fresh process per file loading the same modules (miniflare, the SDKs, the compiler) was
        // more than a tenth of the suite's CPU. A file runs alone in its worker, one after another.
        test: {
          ...shared,
          name: 'shared',
          include: [
            'plugin/**/*.test.ts',
            'generators/**/*.test.ts',
            'executors/**/*.test.ts',
            'e2e/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          exclude: ['**/node_modules/**', 'tmp/**', ...NEEDS_ITS_OWN_PROCESS],
          isolate: false,
        },
      },
      {
        // The files above that change what other files would see: a fresh process each.
        test: {
          ...shared,
          name: 'isolated',
          include: NEEDS_ITS_OWN_PROCESS,
          exclude: ['**/node_modules/**', 'tmp/**'],
        },
      },
    ],
  },
});
