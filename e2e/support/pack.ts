/**
 * The toolchain end-to-end tests and benchmarks share: `npm run build` then `npm pack` of
 * dist/agentdef (the tarball users install), the nx binary, and an isolated process environment.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { dirname, join } from 'node:path';

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

/**
 * Builds the package into a new `tmp/e2e/pack-…/agentdef` folder and packs it beside; returns the tarball's path
 * ({@link builtPackageOf} gives the build folder). `typeCheck: false` skips tsc's type check (the
 * test run's global setup: e2e/typecheck.test.ts checks every file), emitting the same bytes.
 */
export function buildAndPack(options: { typeCheck?: boolean } = {}): string {
  const packDir = mkdtempSync(join(e2eRoot(), 'pack-'));
  const built = join(packDir, 'agentdef');
  const flags = options.typeCheck === false ? ['--no-check'] : [];
  const build = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'build.mjs'), '--out', built, ...flags], { cwd: repoRoot, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}\n${build.stderr}`);
  const home = join(packDir, 'home');
  mkdirSync(home);
  const out = execFileSync('npm', ['pack', built, '--pack-destination', packDir, '--json', '--silent'], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, HOME: home, npm_config_cache: join(home, '.npm') },
  });
  const [info] = JSON.parse(out) as Array<{ filename: string }>;
  return join(packDir, info!.filename);
}

/** The built package folder a tarball of {@link buildAndPack} was packed from (the same files, unpacked). */
export function builtPackageOf(tarball: string): string {
  return join(dirname(tarball), 'agentdef');
}
