import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['plugin/**/*.test.ts', 'generators/**/*.test.ts', 'executors/**/*.test.ts', 'e2e/**/*.test.ts', 'scripts/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'dist/**', 'tmp/**'],
    globalSetup: ['./e2e/support/global-setup.ts'],
    setupFiles: ['./e2e/support/fast-check-seed.ts'],
    reporters: ['default', './e2e/support/plain-summary-reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
