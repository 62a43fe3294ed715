/**
 * Temporary Nx workspaces for end-to-end tests. They live under the repository's `tmp/e2e/`
 * (git-ignored) so that Node resolves `nx` and agentdef's dependencies from the repository's
 * node_modules: no network is needed. The agentdef package is installed from its packed tarball,
 * unpacked into the workspace's node_modules exactly as npm lays it out.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { e2eRoot, isolatedEnv, layOutWorkspace, nxBin } from './pack';
import { HUNG_CHILD_MS } from './hung-child';
export { e2eRoot, isolatedEnv, nxBin } from './pack';

/** The tarball built and packed once by the test run's global setup. */
export function packAgentdef(): string {
  return inject('agentdefTarball');
}

export interface TempWorkspace {
  dir: string;
  home: string;
  env: NodeJS.ProcessEnv;
  nx(args: string[], extraEnv?: NodeJS.ProcessEnv): CommandResult;
  /** Like `nx`, without blocking this process (needed when this process also serves Nx, e.g. a remote cache). */
  nxAsync(args: string[], extraEnv?: NodeJS.ProcessEnv): Promise<CommandResult>;
}

export interface CommandResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function openWorkspace(dir: string, home: string, extraEnv: NodeJS.ProcessEnv = {}): TempWorkspace {
  const env = isolatedEnv(home, extraEnv);
  return {
    dir,
    home,
    env,
    nx(args, more = {}) {
      const r = spawnSync(process.execPath, [nxBin, ...args], {
        cwd: dir,
        env: { ...env, ...more },
        encoding: 'utf8',
        timeout: HUNG_CHILD_MS,
      });
      return { status: r.status, stdout: r.stdout, stderr: r.stderr };
    },
    nxAsync(args, more = {}) {
      return new Promise((resolve) => {
        const child = spawn(process.execPath, [nxBin, ...args], { cwd: dir, env: { ...env, ...more } });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
        child.on('close', (status) => {
          clearTimeout(timer);
          resolve({ status, stdout, stderr });
        });
      });
    },
  };
}

/** A fresh, empty Nx workspace with agentdef installed from the tarball. */
export function createWorkspace(name: string, tarball: string): TempWorkspace {
  const { dir, home } = layOutWorkspace(name, tarball);
  return openWorkspace(dir, home);
}

/** Copies a workspace's sources (not its .nx caches or outputs) into a new folder. */
export function cloneWorkspace(from: TempWorkspace, name: string, extraEnv: NodeJS.ProcessEnv = {}): TempWorkspace {
  const base = mkdtempSync(join(e2eRoot(), `${name}-`));
  const dir = join(base, 'ws');
  cpSync(from.dir, dir, {
    recursive: true,
    filter: (src) => !/[\\/](\.nx|dist)([\\/]|$)/.test(src.slice(from.dir.length)),
  });
  const home = join(base, 'home');
  mkdirSync(home, { recursive: true });
  return openWorkspace(dir, home, extraEnv);
}

/** Every file under `dir`, relative, sorted, with its bytes. */
export function snapshotTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (current: string, prefix: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(join(current, entry.name), rel);
      else
        out[rel] = createHash('sha256')
          .update(readFileSync(join(current, entry.name)))
          .digest('hex');
    }
  };
  walk(dir, '');
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
}
