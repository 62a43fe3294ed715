/**
 * Adding a target is one folder plus one line in TARGETS. A temporary copy of the package gets
 * `plugin/targets/fixture-echo/` (__fixtures__/fixture-echo: an emitter, a loopback server, a
 * deploy) and its descriptor in the table, nothing else; then the real CLI of that copy (from
 * source, as a checkout runs it) compiles for it, lists and suggests it, serves its output with
 * `dev`, deploys it, refuses an option it does not take, and `run` names it as no process target.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isTargetOption } from '../../plugin/targets/targets';

const repoRoot = join(__dirname, '..', '..');
let root: string;
let pkg: string;
let env: NodeJS.ProcessEnv;

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path, base) : [relative(base, path)];
  });
}

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [join(pkg, 'bin', 'agentdef.cjs'), ...args], {
    cwd: pkg,
    env,
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'agentdef-fixture-target-'));
  pkg = join(root, 'pkg');
  mkdirSync(pkg);
  for (const entry of [
    'plugin',
    'bin',
    'package.json',
    'tsconfig.json',
    'tsconfig.base.json',
    'nx.json',
    'tools.json',
    'mcp.json',
    'examples/text-stats',
    'examples/tools',
  ]) {
    cpSync(join(repoRoot, entry), join(pkg, entry), {
      recursive: true,
      filter: (source) => !source.endsWith('.test.ts'),
    });
  }
  symlinkSync(join(repoRoot, 'node_modules'), join(pkg, 'node_modules'), 'dir');
  // The one folder…
  cpSync(join(__dirname, '__fixtures__', 'fixture-echo'), join(pkg, 'plugin', 'targets', 'fixture-echo'), {
    recursive: true,
  });
  // …and the one line in TARGETS (its import beside the others).
  const table = join(pkg, 'plugin', 'targets', 'targets.ts');
  const text = readFileSync(table, 'utf8');
  const withImport = text.replace(
    "import { localMacTarget } from './local-mac/target';",
    "import { localMacTarget } from './local-mac/target';\nimport { fixtureEchoTarget } from './fixture-echo/target';",
  );
  const withLine = withImport.replace(
    '  localMacTarget,\n] as const',
    '  localMacTarget,\n  fixtureEchoTarget,\n] as const',
  );
  expect(withLine).not.toBe(withImport);
  writeFileSync(table, withLine);
  const home = join(root, 'home');
  mkdirSync(home);
  env = {
    PATH: process.env['PATH'],
    HOME: home,
    XDG_CACHE_HOME: join(home, 'cache'),
    XDG_STATE_HOME: join(home, 'state'),
    XDG_CONFIG_HOME: join(home, 'config'),
    AGENTDEF_KEYCHAIN: 'none',
  };
});

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('a fourth target: one folder plus one line in TARGETS', () => {
  it('changes no other file of the package', () => {
    const copied = filesUnder(join(pkg, 'plugin')).sort();
    const original = filesUnder(join(repoRoot, 'plugin'))
      .filter((file) => !file.endsWith('.test.ts'))
      .sort();
    expect(copied.filter((file) => !original.includes(file))).toEqual([
      'targets/fixture-echo/parts.ts',
      'targets/fixture-echo/target.ts',
    ]);
    const changed = original.filter(
      (file) =>
        readFileSync(join(pkg, 'plugin', file), 'utf8') !== readFileSync(join(repoRoot, 'plugin', file), 'utf8'),
    );
    expect(changed).toEqual(['targets/targets.ts']);
    expect(isTargetOption('fixture-echo')).toBe(false);
  });

  it('compile dispatches to its emitter; the CLI lists it and suggests it', () => {
    const compiled = cli(['compile', 'examples/text-stats/agent.json', '--target', 'fixture-echo', '--out', 'dist/fx']);
    expect(compiled.stderr).toBe('');
    expect(compiled.status).toBe(0);
    expect(JSON.parse(readFileSync(join(pkg, 'dist', 'fx', 'echo.json'), 'utf8'))).toEqual({
      target: 'fixture-echo',
      agent: 'text-stats@1.0.0',
      nodes: 1,
    });
    expect(JSON.parse(readFileSync(join(pkg, 'dist', 'fx', 'plan.json'), 'utf8')).target).toBe('fixture-echo');
    expect(readdirSync(join(pkg, 'dist', 'fx')).sort()).toEqual(['.agentdef-output.json', 'echo.json', 'plan.json']);
    // `auto` keeps choosing the first target on the Worker host.
    const auto = cli(['compile', 'examples/text-stats/agent.json', '--out', 'dist/auto']);
    expect(auto.status).toBe(0);
    expect(JSON.parse(readFileSync(join(pkg, 'dist', 'auto', 'plan.json'), 'utf8')).target).toBe(
      'cloudflare-dynamic-worker',
    );
    const help = cli(['compile', '--help']);
    expect(help.stdout).toContain('fixture-echo');
    const typo = cli(['compile', 'examples/text-stats/agent.json', '--target', 'fixture-ecoh', '--out', 'dist/never']);
    expect(typo.status).toBe(2);
    expect(typo.stderr).toContain('did you mean "fixture-echo"?');
    expect(typo.stderr).toContain('auto, cloudflare-dynamic-worker, hb3, kubernetes, local-mac, fixture-echo');
  });

  it('dev dispatches to its server', async () => {
    const child: ChildProcess = spawn(process.execPath, [join(pkg, 'bin', 'agentdef.cjs'), 'dev', 'dist/fx'], {
      cwd: pkg,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const url = await new Promise<string>((found, failed) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /fixture-echo serves (http:\/\/127\.0\.0\.1:\d+)\/\n/.exec(stdout);
        if (match && stdout.includes('stop with Ctrl-C')) found(match[1]!);
      });
      child.on('exit', (code) => failed(new Error(`dev ended (${code}) before serving:\n${stdout}${stderr}`)));
    });
    const answer = (await (await fetch(`${url}/ping`)).json()) as unknown;
    expect(answer).toEqual({ servedBy: 'fixture-echo', path: '/ping', output: 'fx' });
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(stderr).toBe('');
  });

  it('deploy dispatches to its deploy, and refuses an option only another target takes', () => {
    const deployed = cli(['deploy', 'dist/fx', '--dry-run', '--registry', 'ghcr.io/acme']);
    expect(deployed).toEqual({
      status: 0,
      stdout: 'fixture-echo deploy of fx (dry run) to ghcr.io/acme\n',
      stderr: '',
    });
    const refused = cli(['deploy', 'dist/fx', '--into', 'services']);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toBe('error: --into is for local-mac outputs; dist/fx is a fixture-echo output\n');
    const run = cli(['run', 'dist/fx']);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(`${join(pkg, 'dist', 'fx')} is a fixture-echo output, which runs in its own engine`);
  });
});
