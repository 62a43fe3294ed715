/**
 * The toolchain end-to-end tests and benchmarks share: `npm run pack` (the tarball users install),
 * the nx binary, and an isolated process environment.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { HUNG_CHILD_MS } from './hung-child';

const repoRoot = join(__dirname, '..', '..');

export const nxBin = join(repoRoot, 'node_modules', 'nx', 'dist', 'bin', 'nx.js');

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
    // Plugins load in this process, not in one isolated worker process per plugin (Nx's default):
    // a third of the CPU of every nx command. e2e/nx-plugin-isolation.test.ts runs with isolation.
    NX_ISOLATE_PLUGINS: 'false',
    NX_VERBOSE_LOGGING: 'false',
    CI: 'true',
    FORCE_COLOR: '0',
    ...extra,
  };
}

export function e2eRoot(): string {
  const dir = join(repoRoot, 'tmp', 'e2e');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** What `npm run pack` (scripts/pack.mjs) did: its exit status and output, and the tarball it printed. */
export interface PackRun {
  /** The folder it built into (`agentdef/`) and packed into. */
  dir: string;
  status: number | null;
  stdout: string;
  stderr: string;
  /** The tarball named by the printed install line ('' when there is none). */
  tarball: string;
}

/**
 * `npm run pack --into <new tmp/e2e/pack-… folder>`, as users run it: builds the package into
 * `<dir>/agentdef` ({@link builtPackageOf}) and packs it beside. `typeCheck: false` adds
 * `--no-check` (tsc --noCheck: the same bytes, half the CPU; the test run's global setup uses it,
 * since e2e/typecheck.test.ts checks every file).
 */
export function runPack(options: { typeCheck?: boolean } = {}): PackRun {
  const dir = mkdtempSync(join(e2eRoot(), 'pack-'));
  const home = join(dir, 'home');
  mkdirSync(home);
  const flags = options.typeCheck === false ? ['--no-check'] : [];
  const run = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'pack.mjs'), '--into', dir, ...flags], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: isolatedEnv(home),
    timeout: HUNG_CHILD_MS,
  });
  const tarball = /^ {2}npm install -D (\S+)$/m.exec(run.stdout ?? '')?.[1] ?? '';
  return { dir, status: run.status, stdout: run.stdout ?? '', stderr: run.stderr ?? '', tarball };
}

/** {@link runPack}'s tarball; throws when the pack failed. */
export function buildAndPack(options: { typeCheck?: boolean } = {}): string {
  const packed = runPack(options);
  if (packed.status !== 0 || packed.tarball === '')
    throw new Error(`npm run pack failed:\n${packed.stdout}\n${packed.stderr}`);
  return packed.tarball;
}

/** The built package folder a tarball of {@link buildAndPack} was packed from (the same files, unpacked). */
/** The variable the test run's global setup puts the packed tarball's path in (for the test processes it starts). */
export const AGENTDEF_TARBALL_ENV = 'AGENTDEF_E2E_TARBALL';

export function builtPackageOf(tarball: string): string {
  return join(dirname(tarball), 'agentdef');
}

/**
 * A fresh, empty Nx workspace folder (and a HOME beside it) under e2eRoot(), with the tarball
 * unpacked into node_modules/agentdef as npm lays it out and each of its `bin`s linked into
 * node_modules/.bin, as npm does on install. Needs no vitest: scripts use it too.
 */
export function layOutWorkspace(name: string, tarball: string): { dir: string; home: string } {
  const base = mkdtempSync(join(e2eRoot(), `${name}-`));
  const dir = join(base, 'ws');
  const home = join(base, 'home');
  mkdirSync(home, { recursive: true });
  mkdirSync(join(dir, 'node_modules', 'agentdef'), { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: `${name}-workspace`, private: true, devDependencies: { agentdef: `file:${tarball}` } }, null, 2)}\n`,
  );
  writeFileSync(
    join(dir, 'nx.json'),
    `${JSON.stringify({ $schema: './node_modules/nx/schemas/nx-schema.json', cacheDirectory: '.nx/cache', useDaemonProcess: false }, null, 2)}\n`,
  );
  execFileSync('tar', ['-xzf', tarball, '-C', join(dir, 'node_modules', 'agentdef'), '--strip-components=1']);
  const { bin } = JSON.parse(readFileSync(join(dir, 'node_modules', 'agentdef', 'package.json'), 'utf8')) as {
    bin?: Record<string, string>;
  };
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  for (const [command, file] of Object.entries(bin ?? {})) {
    chmodSync(join(dir, 'node_modules', 'agentdef', file), 0o755);
    symlinkSync(join('..', 'agentdef', file), join(dir, 'node_modules', '.bin', command));
  }
  return { dir, home };
}
