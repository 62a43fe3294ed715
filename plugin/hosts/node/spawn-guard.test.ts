/**
 * The spawn guard in a real process (__test-support__/spawn-guard-harness.ts, bundled as a host
 * entry is): before arming only the keychain readers start; once armed, exactly the host's own
 * launches start (a native tool, this entry as a quarantined child, a stdio MCP server in its
 * folder), and every bent shape of them is refused — other arguments, `argv0`, an added
 * environment variable (`LD_PRELOAD`, `NODE_OPTIONS`, `PATH`), a declared `NODE_OPTIONS` that opens
 * the child's inspector, another working folder, links to
 * other files or under other names, raw `Process` handles, values that read differently twice,
 * built-ins patched after arming. A loopback server that every refused process would call must
 * see no connection. Importing the module (as this test does) installs nothing.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import * as childProcess from 'node:child_process';
import { spawn, spawnSync } from 'node:child_process';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { armSpawnGuard, spawnGuardInstalled } from './spawn-guard';

const evilSeen: string[] = [];
const evil = createServer((_req, res) => res.end('evil'));
evil.on('connection', () => evilSeen.push('tcp'));
let root: string;
let outcomes: Map<string, string>;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'agentdef-spawn-guard-'));
  await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
  const harness = join(root, 'harness.mjs');
  await build({
    entryPoints: [join(__dirname, '__test-support__', 'spawn-guard-harness.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: harness,
    logLevel: 'silent',
  });
  const dir = join(root, 'work');
  mkdirSync(dir);
  const evilUrl = `http://127.0.0.1:${(evil.address() as AddressInfo).port}/steal?token=SPAWN-SECRET`;
  const env = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: root,
    XDG_CACHE_HOME: join(root, 'cache'),
    LANG: 'C',
  };
  // Asynchronous: the evil server must be able to answer a request made while the harness runs.
  const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [harness, JSON.stringify({ dir, evilUrl })], { env, cwd: root });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  outcomes = new Map(
    run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { name: string; outcome: string })
      .map((r) => [r.name, r.outcome]),
  );
  await new Promise((resolve) => setTimeout(resolve, 300)); // a refused process that ran anyway would have called by now
});

afterAll(async () => {
  await new Promise((resolve) => evil.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

function outcomeOf(name: string): string {
  const outcome = outcomes.get(name);
  expect(outcome, `no outcome for ${name}`).toBeDefined();
  return outcome!;
}

describe('the spawn guard in a real process', () => {
  it('before arming, starts only the keychain readers with their lookup arguments', () => {
    expect(outcomeOf('pre-arm: curl')).toMatch(/^refused: egress_blocked: starting curl is refused/);
    expect(outcomeOf('pre-arm: secret-tool lookup')).not.toMatch(/^refused/); // ENOENT where libsecret is not installed
    expect(outcomeOf('pre-arm: secret-tool store')).toMatch(/^refused: egress_blocked: starting secret-tool/);
  });

  it("starts the host's own launches, a native tool also through a link of its own name", () => {
    expect(outcomeOf('native tool')).toBe('ran: tool-ok\n');
    expect(outcomeOf('native tool through a link of the same name')).toBe('ran: tool-ok\n');
    expect(outcomeOf('quarantined child')).toBe('ran: child-ok');
    expect(outcomeOf('mcp server')).toBe('ran: server-ok');
    expect(outcomeOf('mcp server with a declared NODE_OPTIONS')).toBe('ran: tuned-ok');
    expect(outcomeOf('native tool with a subset of the host environment')).toBe('ran: tool-ok\n');
    expect(outcomeOf('native tool through execFileSync')).toBe('ran: tool-ok\n');
    expect(outcomeOf('patched built-ins: native tool')).toBe('ran: tool-ok\n');
  });

  it.each([
    ['native tool with an argument', 'splice-tool'],
    ['native tool with argv0', 'splice-tool'],
    ['native tool through a link named curl', 'curl'],
    ['another executable named like the native tool', 'splice-tool'],
    ['native tool with LD_PRELOAD', 'splice-tool'],
    ['native tool with a shell', 'sh'],
    ['child with -e', 'node'],
    ['child with -p', 'node'],
    ['child with --import', 'node'],
    ['child with --require', 'node'],
    ['child of another node', 'node'],
    ['child with NODE_OPTIONS', 'node'],
    ['mcp server with a declared NODE_OPTIONS that opens its inspector', 'node'],
    ['child by a link named node to a shell', 'node'],
    ['fork of the child', 'node'],
    ['mcp server with node first on a PATH of its own', 'node'],
    ['mcp server from another folder', 'node'],
    ['exec of an allowed command line', 'sh'],
    ['spawnSync of the child with -e', 'node'],
    ['raw Process handle: a shell', 'sh'],
    ['raw Process handle: no environment list', 'splice-tool'],
    ['patched built-ins: a shell', 'sh'],
    ['quarantined child after its entry was rewritten', 'node'],
    ['quarantined child after its entry was replaced by its own copy', 'node'],
    ['native tool after it was rewritten', 'splice-tool'],
    ['patched built-ins: another executable named like the tool', 'splice-tool'],
  ])('refuses %s, naming %s only', (name, executable) => {
    const outcome = outcomeOf(name);
    const shown = executable === 'node' ? basename(process.execPath) : executable;
    expect(outcome).toBe(
      `refused: egress_blocked: starting ${shown} is refused in an agentdef host (only the host's own executables may run): declare a native tool instead`,
    );
  });

  it('runs what it checked when a value reads differently twice (the allowed tool, or nothing)', () => {
    expect(outcomeOf('raw Process handle: a file that reads differently twice')).toMatch(
      /^(ran: spawned 0|refused: egress_blocked)/,
    );
  });

  it('starts the real path it checked, whatever file a patched path module pointed the check at', () => {
    expect(outcomeOf('fs pointed at the tool while another file starts')).toMatch(
      /^(ran: tool-ok\n|refused: egress_blocked)/,
    );
  });

  it('starts in the folder it checked when a working folder appears only when read again', () => {
    expect(outcomeOf('raw Process handle: a working folder that appears when read again')).toMatch(
      /^(ran: spawned 0|refused: egress_blocked)/,
    );
    // the other folder's server.mjs calls the disallowed server: see 'no refused process reached the network'
  });

  it('refuses native addons once armed', () => {
    expect(outcomeOf('process.dlopen')).toMatch(/^refused: egress_blocked: process\.dlopen/);
  });

  it('no refused process reached the network', () => {
    expect(evilSeen).toEqual([]);
  });

  it('is installed only by a compiled entry: importing it (as this test does) changes nothing, and arming then is a no-op', () => {
    const before = spawnSync;
    armSpawnGuard([]);
    expect(spawnGuardInstalled()).toBe(false);
    expect(childProcess.spawnSync).toBe(before);
    expect(spawnSync(process.execPath, ['-e', 'process.stdout.write("free")']).stdout.toString()).toBe('free');
  });
});
