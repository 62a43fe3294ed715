/**
 * The HB3 image's Dockerfile and the SQLite task store: the image installs the store's package
 * only when built with `--build-arg TASK_STORE=sqlite`, at exactly the version agentdef itself
 * ships with (so the store the image runs is the one the tests ran), before the image drops root.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { POSTGRES_TASK_STORE_PACKAGE, SQLITE_TASK_STORE_PACKAGE } from '../../host-contract/container-contract';
import { POSTGRES_DRIVER_PACKAGE, POSTGRES_DRIVER_VERSION } from '../../postgres/postgres-driver';
import type { Hb3Job } from '../../host-contract/hb3-job';
import { SQLITE_DRIVER_PACKAGE, SQLITE_DRIVER_VERSION } from '../../sqlite/sqlite-driver';
import { dockerfile } from './dockerfile';

const REPO = join(__dirname, '..', '..', '..');

describe('the HB3 Dockerfile', () => {
  it("installs the SQLite task store's package, at the version agentdef depends on, only for TASK_STORE=sqlite and as root", () => {
    // The driver agentdef's tests run on Node 20 (a devDependency here, an optional peer of the package), at this version.
    const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    expect(SQLITE_TASK_STORE_PACKAGE).toBe(`libsql@${manifest.devDependencies['libsql']}`);
    expect(SQLITE_TASK_STORE_PACKAGE).toBe(`${SQLITE_DRIVER_PACKAGE}@${SQLITE_DRIVER_VERSION}`);
    const root = {
      image: { name: 'agentdef/echo', tag: '1.0.0-abc' },
      command: ['node', '/app/entrypoint.mjs'],
    } as unknown as Hb3Job;
    const lines = dockerfile(root, [], 'summary').split('\n');
    const install = lines.findIndex((l) => l.includes(SQLITE_TASK_STORE_PACKAGE));
    expect(lines).toContain('ARG TASK_STORE=memory');
    expect(lines[install]).toBe(
      `RUN if [ "$TASK_STORE" = "sqlite" ]; then npm install --no-save --no-audit --no-fund ${SQLITE_TASK_STORE_PACKAGE}; fi`,
    );
    expect(install).toBeGreaterThan(lines.indexOf('ARG TASK_STORE=memory'));
    expect(install).toBeLessThan(lines.indexOf('USER node'));
  });

  it("installs the PostgreSQL task store's driver, at the version agentdef depends on, only for TASK_STORE=postgres and as root", () => {
    const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    expect(POSTGRES_TASK_STORE_PACKAGE).toBe(`pg@${manifest.devDependencies['pg']}`);
    expect(POSTGRES_TASK_STORE_PACKAGE).toBe(`${POSTGRES_DRIVER_PACKAGE}@${POSTGRES_DRIVER_VERSION}`);
    const root = {
      image: { name: 'agentdef/echo', tag: '1.0.0-abc' },
      command: ['node', '/app/entrypoint.mjs'],
    } as unknown as Hb3Job;
    const lines = dockerfile(root, [], 'summary').split('\n');
    const install = lines.findIndex((l) => l.includes(POSTGRES_TASK_STORE_PACKAGE));
    expect(lines[install]).toBe(
      `RUN if [ "$TASK_STORE" = "postgres" ]; then npm install --no-save --no-audit --no-fund ${POSTGRES_TASK_STORE_PACKAGE}; fi`,
    );
    expect(install).toBeGreaterThan(lines.indexOf('ARG TASK_STORE=memory'));
    expect(install).toBeLessThan(lines.indexOf('USER node'));
  });
});
