/** The whole project type-checks under the strict settings of tsconfig.base.json. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { repoRoot } from './support/run-cli';

it('passes tsc --noEmit', () => {
  const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', join(repoRoot, 'tsconfig.json'), '--noEmit'], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  expect(result.stdout + result.stderr).toBe('');
  expect(result.status).toBe(0);
});
