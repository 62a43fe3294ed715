/**
 * What only some users need is an optional peer of the published package (scripts/build.mjs):
 * miniflare (dev of a Worker), wrangler (deploy of a Worker), pg (the PostgreSQL task store and ledger
 * shared by replicas), libsql (the SQLite ledger and task store
 * on a Node without node:sqlite). Each missing one is met by one message naming the package at the
 * version agentdef is tested with (the repository's devDependency), so what a user installs is what
 * the tests ran. Here: those versions agree everywhere, and `deploy` of a Worker output in a
 * workspace where wrangler cannot be found says what to install, exits 1 and runs nothing.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MINIFLARE_PACKAGE } from '../targets/cloudflare-dynamic-worker/serve';
import { POSTGRES_TASK_STORE_PACKAGE, SQLITE_TASK_STORE_PACKAGE } from '../host-contract/container-contract';
import { MISSING_PG_ADVICE, POSTGRES_DRIVER_PACKAGE, POSTGRES_DRIVER_VERSION } from '../postgres/postgres-driver';
import { MISSING_DRIVER_ADVICE, SQLITE_DRIVER_PACKAGE, SQLITE_DRIVER_VERSION } from '../sqlite/sqlite-driver';
import { DEPLOY_EXIT } from './deploy-options';
import {
  deployWorker,
  findWrangler,
  WRANGLER_CONFIG_FILE,
  WRANGLER_PACKAGE,
} from '../targets/cloudflare-dynamic-worker/deploy';

const REPO = join(__dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
  devDependencies: Record<string, string>;
};
const scratch = mkdtempSync(join(tmpdir(), 'agentdef-optional-peers-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the optional peers', () => {
  it('are named, in every message, at the version the repository pins', () => {
    expect(MINIFLARE_PACKAGE).toBe(`miniflare@${manifest.devDependencies['miniflare']}`);
    expect(WRANGLER_PACKAGE).toBe(`wrangler@${manifest.devDependencies['wrangler']}`);
    expect(`${SQLITE_DRIVER_PACKAGE}@${SQLITE_DRIVER_VERSION}`).toBe(`libsql@${manifest.devDependencies['libsql']}`);
    expect(SQLITE_TASK_STORE_PACKAGE).toBe(`libsql@${manifest.devDependencies['libsql']}`);
    expect(MISSING_DRIVER_ADVICE).toContain(`npm install libsql@${manifest.devDependencies['libsql']}`);
    expect(`${POSTGRES_DRIVER_PACKAGE}@${POSTGRES_DRIVER_VERSION}`).toBe(`pg@${manifest.devDependencies['pg']}`);
    expect(POSTGRES_TASK_STORE_PACKAGE).toBe(`pg@${manifest.devDependencies['pg']}`);
    expect(MISSING_PG_ADVICE).toContain(`npm install pg@${manifest.devDependencies['pg']}`);
  });

  it('deploy of a Worker output without wrangler: one line naming wrangler@<version>, exit 1, nothing run', async () => {
    const workspace = join(scratch, 'ws');
    const out = join(workspace, 'dist', 'agents', 'echo');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, WRANGLER_CONFIG_FILE), JSON.stringify({ name: 'echo', main: 'loader.js' }));
    // Nowhere to find it: neither the workspace nor (standing in for agentdef's own folder) an empty one.
    expect(findWrangler(workspace, join(scratch, 'elsewhere', 'index.js'))).toBeUndefined();
    const stdout: string[] = [];
    const stderr: string[] = [];
    const code = await deployWorker(
      {
        outDir: out,
        workspaceRoot: workspace,
        dryRun: true,
        stdout: (text: string) => stdout.push(text),
        stderr: (text: string) => stderr.push(text),
      } as never,
      (root) => findWrangler(root, join(scratch, 'elsewhere', 'index.js')),
    );
    expect(code).toBe(DEPLOY_EXIT.failed);
    expect(stderr).toEqual([
      `error: deploying a Worker output needs wrangler (Cloudflare's CLI), an optional peer of agentdef that is not installed in this workspace: install it with \`npm install --save-dev ${WRANGLER_PACKAGE}\`\n`,
    ]);
    expect(stdout).toEqual([]);
    expect(readdirSync(out)).toEqual([WRANGLER_CONFIG_FILE]);
  });
});
