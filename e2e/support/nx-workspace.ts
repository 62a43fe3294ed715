/**
 * Temporary Nx workspaces for end-to-end tests. They live under the repository's `tmp/e2e/`
 * (git-ignored) so that Node resolves `nx` and agentdef's dependencies from the repository's
 * node_modules: no network is needed. The agentdef package is installed from its packed tarball,
 * unpacked into the workspace's node_modules exactly as npm lays it out.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './run-cli';

export const nxBin = join(repoRoot, 'node_modules', 'nx', 'dist', 'bin', 'nx.js');

let packedTarball: string | undefined;

/** Builds dist/agentdef and packs it once per test process; returns the tarball path. */
export function packAgentdef(): string {
  if (packedTarball) return packedTarball;
  execFileSync(process.execPath, [join(repoRoot, 'scripts', 'build.mjs')], { cwd: repoRoot, stdio: 'pipe' });
  const packDir = mkdtempSync(join(e2eRoot(), 'pack-'));
  const out = execFileSync('npm', ['pack', join(repoRoot, 'dist', 'agentdef'), '--pack-destination', packDir, '--json', '--silent'], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: isolatedEnv(packDir),
  });
  const [info] = JSON.parse(out) as Array<{ filename: string }>;
  packedTarball = join(packDir, info!.filename);
  return packedTarball;
}

export function e2eRoot(): string {
  const dir = join(repoRoot, 'tmp', 'e2e');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Environment for child processes: no daemon, no cloud, nothing written to the real $HOME. */
export function isolatedEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('NX_') || key.startsWith('npm_')) delete env[key];
  return {
    ...env,
    HOME: home,
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_CONFIG_HOME: join(home, '.config'),
    npm_config_cache: join(home, '.npm'),
    NX_DAEMON: 'false',
    NX_NO_CLOUD: 'true',
    NX_TUI: 'false',
    NX_SKIP_NX_CACHE: 'false',
    NX_VERBOSE_LOGGING: 'false',
    CI: 'true',
    FORCE_COLOR: '0',
    ...extra,
  };
}

export interface TempWorkspace {
  dir: string;
  home: string;
  env: NodeJS.ProcessEnv;
  nx(args: string[], extraEnv?: NodeJS.ProcessEnv): { status: number | null; stdout: string; stderr: string };
}

export function openWorkspace(dir: string, home: string, extraEnv: NodeJS.ProcessEnv = {}): TempWorkspace {
  const env = isolatedEnv(home, extraEnv);
  return {
    dir,
    home,
    env,
    nx(args, more = {}) {
      const r = spawnSync(process.execPath, [nxBin, ...args], { cwd: dir, env: { ...env, ...more }, encoding: 'utf8', timeout: 300_000 });
      return { status: r.status, stdout: r.stdout, stderr: r.stderr };
    },
  };
}

/** A fresh, empty Nx workspace with agentdef installed from the tarball. */
export function createWorkspace(name: string, tarball: string): TempWorkspace {
  const base = mkdtempSync(join(e2eRoot(), `${name}-`));
  const dir = join(base, 'ws');
  const home = join(base, 'home');
  mkdirSync(home, { recursive: true });
  mkdirSync(join(dir, 'node_modules', 'agentdef'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `${name}-workspace`, private: true, devDependencies: { agentdef: `file:${tarball}` } }, null, 2) + '\n');
  writeFileSync(join(dir, 'nx.json'), JSON.stringify({ $schema: './node_modules/nx/schemas/nx-schema.json', cacheDirectory: '.nx/cache', useDaemonProcess: false }, null, 2) + '\n');
  execFileSync('tar', ['-xzf', tarball, '-C', join(dir, 'node_modules', 'agentdef'), '--strip-components=1']);
  return openWorkspace(dir, home);
}

/** Copies a workspace's sources (not its .nx caches or outputs) into a new folder. */
export function cloneWorkspace(from: TempWorkspace, name: string, extraEnv: NodeJS.ProcessEnv = {}): TempWorkspace {
  const base = mkdtempSync(join(e2eRoot(), `${name}-`));
  const dir = join(base, 'ws');
  cpSync(from.dir, dir, { recursive: true, filter: (src) => !/[\\/](\.nx|dist)([\\/]|$)/.test(src.slice(from.dir.length)) });
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
      else out[rel] = createHash('sha256').update(readFileSync(join(current, entry.name))).digest('hex');
    }
  };
  walk(dir, '');
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
}
