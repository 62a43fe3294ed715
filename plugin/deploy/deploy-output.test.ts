/**
 * `deployOutput` against real compile outputs of the examples in a temp workspace: the Worker's
 * dry run runs the pinned wrangler for real (offline, its state folders inside the temp folder),
 * the HB3 image commands run a stand-in engine or report that none is on PATH, and the local
 * service is installed into and removed from a temp folder.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { compileAgent } from '../compiler/compile';
import type { Hb3Job } from '../host-contract/hb3-job';
import { deployOutput } from './deploy-output';
import type { DeployOptions } from './deploy-options';
import { isInstalledByAgentdef } from '../targets/local-mac/deploy';

const REPO = join(__dirname, '..', '..');
let root: string;
let scratch: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'agentdef-deploy-ws-'));
  scratch = mkdtempSync(join(tmpdir(), 'agentdef-deploy-scratch-'));
  writeFileSync(join(root, 'nx.json'), '{}\n');
  cpSync(join(REPO, 'examples'), join(root, 'examples'), { recursive: true });
  for (const file of ['tools.json', 'mcp.json']) cpSync(join(REPO, file), join(root, file));
  for (const [agent, target] of [
    ['web-summarizer', 'cloudflare-dynamic-worker'],
    ['write-router', 'hb3'],
    ['code-search', 'local-mac'],
  ] as const) {
    const compiled = await compileAgent({
      file: join(root, 'examples', agent, 'agent.json'),
      workspaceRoot: root,
      target,
    });
    expect(compiled.ioError).toBeUndefined();
    expect(compiled.outDir).toBe(`dist/agents/${agent}`);
  }
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

async function deploy(agent: string, options: Partial<DeployOptions> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await deployOutput({
    outDir: join(root, 'dist', 'agents', agent),
    workspaceRoot: root,
    dryRun: false,
    env: { PATH: process.env['PATH'], HOME: join(scratch, 'home') },
    ...options,
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { code, stdout, stderr };
}

describe('a Worker output', () => {
  it("runs wrangler's own dry run offline and lists the secrets by name only", async () => {
    const state = join(scratch, 'wrangler');
    const env = {
      PATH: process.env['PATH'],
      HOME: join(state, 'home'),
      XDG_CONFIG_HOME: join(state, 'config'),
      XDG_CACHE_HOME: join(state, 'cache'),
      XDG_DATA_HOME: join(state, 'data'),
      WRANGLER_LOG_PATH: join(state, 'logs'),
      // Any request would go to a closed loopback port and fail: the dry run must not need one.
      HTTPS_PROXY: 'http://127.0.0.1:9',
      HTTP_PROXY: 'http://127.0.0.1:9',
      OPENAI_API_KEY: 'sk-never-printed-1234',
      CLOUDFLARE_API_TOKEN: 'cf-never-printed-5678',
    };
    // The temporary folder is this test's own, so other runs' folders (a parallel file, another
    // checkout on the machine) can neither hide a leftover nor look like one.
    const ownTmp = join(scratch, 'tmp');
    mkdirSync(ownTmp, { recursive: true });
    vi.stubEnv('TMPDIR', ownTmp);
    // A TypeScript module loaded lazily meanwhile through @swc-node/register (when an earlier test
    // file in this worker registered it) keeps its transform cache in its own folder, not this one.
    vi.stubEnv('SWC_NODE_CACHE_DIR', join(scratch, 'swc-node-cache'));
    expect(tmpdir()).toBe(ownTmp);
    const result = await deploy('web-summarizer', { dryRun: true, env });
    expect(result.stderr).not.toContain('error:');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'running: wrangler deploy --config dist/agents/web-summarizer/wrangler.jsonc --dry-run',
    );
    expect(result.stdout).toContain('Total Upload');
    expect(result.stdout).toContain('env.SUMMARY_CACHE');
    expect(result.stdout).toContain('--dry-run: exiting now.');
    expect(result.stdout).toContain(
      'secrets the Worker needs (names only; set each once): AGENTDEF_RECEIPT_KEY, OPENAI_API_KEY',
    );
    expect(result.stdout).toContain(
      'wrangler secret put OPENAI_API_KEY --config dist/agents/web-summarizer/wrangler.jsonc',
    );
    const printed = result.stdout + result.stderr;
    for (const secret of ['sk-never-printed-1234', 'cf-never-printed-5678', root])
      expect(printed).not.toContain(secret);
    expect(printed).not.toContain(String.fromCharCode(27));
    // wrangler's output folder is temporary and removed
    const after = readdirSync(ownTmp);
    vi.unstubAllEnvs();
    expect(after).toEqual([]);
  });
});

describe('an HB3 output', () => {
  const job = () => JSON.parse(readFileSync(join(root, 'dist/agents/write-router/hb3-job.json'), 'utf8')) as Hb3Job;
  const emptyBin = () => {
    const dir = join(scratch, 'empty-bin');
    mkdirSync(dir, { recursive: true });
    return dir;
  };

  it('prints the build context, the exact commands and the job specs, and says when no engine is on PATH', async () => {
    const image = `${job().image.name}:${job().image.tag}`;
    const result = await deploy('write-router', { dryRun: true, env: { PATH: emptyBin() } });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('build context: dist/agents/write-router/image\n');
    expect(result.stdout).toContain(
      `  docker build -t ${image} -f dist/agents/write-router/image/Dockerfile dist/agents/write-router/image\n`,
    );
    expect(result.stdout).toContain(`  docker push ${image}\n`);
    expect(result.stdout).toContain('job specs to submit:\n  dist/agents/write-router/hb3-job.json\n');
    expect(result.stdout).toContain('  dist/agents/write-router/hb3-workflow.json\n');
    const secrets = [
      ...new Set(
        job().env.flatMap((v) => ('secretRef' in v && v.secretRef.optional !== true ? [v.secretRef.name] : [])),
      ),
    ].sort();
    expect(secrets.length).toBeGreaterThan(0);
    expect(result.stdout).toContain(
      `secrets the jobs reference (by name, from the scheduler's secret store): ${secrets.join(', ')}\n`,
    );
    // The card signing key is referenced by the root, optional: listed apart, never as required.
    expect(job().env).toContainEqual({
      name: 'AGENTDEF_CARD_SIGNING_KEY',
      secretRef: { name: 'AGENTDEF_CARD_SIGNING_KEY', optional: true },
    });
    expect(secrets).not.toContain('AGENTDEF_CARD_SIGNING_KEY');
    expect(result.stdout).toContain(
      'optional secrets (the jobs start without them): AGENTDEF_CARD_SIGNING_KEY; AGENTDEF_CARD_SIGNING_KEY signs the served AgentCard\n',
    );
    expect(result.stdout).toContain('no container engine (docker or podman) is on PATH');
    expect(result.stdout).toContain('dry run: nothing was built or pushed');
    expect(result.stdout).not.toContain(root);
  });

  it('fails without an engine when it should build, after printing the commands', async () => {
    const result = await deploy('write-router', { env: { PATH: emptyBin() } });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'no container engine (docker or podman) is on PATH: run the commands above where one is',
    );
    expect(result.stdout).toContain('docker build -t');
  });

  it('builds and pushes with the engine on PATH (podman here), under the given registry', async () => {
    const bin = join(scratch, 'podman-bin');
    mkdirSync(bin, { recursive: true });
    const log = join(scratch, 'podman.log');
    writeFileSync(join(bin, 'podman'), `#!/bin/sh\necho "$PWD|$*" >> '${log}'\necho "podman did $1"\n`);
    chmodSync(join(bin, 'podman'), 0o755);
    const result = await deploy('write-router', {
      registry: 'ghcr.io/acme',
      env: { PATH: [bin, '/usr/bin', '/bin'].join(delimiter) },
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const image = `ghcr.io/acme/${job().image.name}:${job().image.tag}`;
    expect(readFileSync(log, 'utf8').split('\n').filter(Boolean)).toEqual([
      `${root}|build -t ${image} -f ${join(root, 'dist/agents/write-router/image/Dockerfile')} ${join(root, 'dist/agents/write-router/image')}`,
      `${root}|push ${image}`,
    ]);
    expect(result.stdout).toContain('podman did build\n');
    expect(result.stdout).toContain(`image pushed: ${image}`);
    expect(result.stdout).toContain(`the job specs name the image ${job().image.name}:${job().image.tag}`);
  });

  it('refuses a registry that is not a host and path', async () => {
    const result = await deploy('write-router', { dryRun: true, registry: 'ghcr.io/acme:latest; rm -rf /' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--registry must be a registry host and path');
  });
});

describe('a local-mac output', () => {
  const into = (name: string) => join(scratch, 'services', name);

  it('installs the systemd user unit filled in for this machine, and removes exactly it', async () => {
    const folder = into('systemd');
    const dry = await deploy('code-search', { service: 'systemd', into: folder, dryRun: true });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('dry run: would install the systemd service for code-search');
    expect(existsSync(folder)).toBe(false);

    const installed = await deploy('code-search', { service: 'systemd', into: folder, port: 7411 });
    expect(installed.code).toBe(0);
    expect(installed.stdout).toContain('systemctl --user enable --now agentdef-code-search.service');
    expect(readdirSync(folder)).toEqual(['agentdef-code-search.service']);
    const unit = readFileSync(join(folder, 'agentdef-code-search.service'), 'utf8');
    expect(unit).not.toContain('@@');
    const heapMb = (
      JSON.parse(readFileSync(join(root, 'dist/agents/code-search/launcher.json'), 'utf8')) as { heapMb: number }
    ).heapMb;
    expect(unit).toContain(
      `ExecStart="${process.execPath}" --max-old-space-size=${heapMb} "${join(root, 'dist/agents/code-search/launch.mjs')}" --port 7411`,
    );
    expect(unit).toContain(`WorkingDirectory=${root}\n`);
    expect(isInstalledByAgentdef(unit)).toBe(true);

    writeFileSync(join(folder, 'keep-me.service'), 'not ours\n');
    const removed = await deploy('code-search', { service: 'systemd', into: folder, uninstall: true });
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain('systemctl --user disable --now agentdef-code-search.service');
    expect(readdirSync(folder)).toEqual(['keep-me.service']);
    const again = await deploy('code-search', { service: 'systemd', into: folder, uninstall: true });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('nothing to remove');
  });

  it('installs the LaunchAgent plist, replaces its own file, and refuses one it did not write or that was changed', async () => {
    const folder = into('launchd');
    expect((await deploy('code-search', { service: 'launchd', into: folder })).code).toBe(0);
    const file = join(folder, 'dev.agentdef.code-search.plist');
    const plist = readFileSync(file, 'utf8');
    expect(plist).toContain(`<string>${join(root, 'dist/agents/code-search/launch.mjs')}</string>`);
    expect(plist).toContain(
      `<string>${join(scratch, 'home', '.local', 'state', 'agentdef', 'code-search')}/launcher.log</string>`,
    );
    expect(plist.trimEnd().split('\n').at(-1)).toMatch(/^<!-- agentdef-installed sha256=[0-9a-f]{64} -->$/);
    const replaced = await deploy('code-search', { service: 'launchd', into: folder, port: 7412 });
    expect(replaced.code).toBe(0);
    expect(replaced.stdout).toContain('replaced the launchd service');
    expect(readFileSync(file, 'utf8')).toContain('<string>7412</string>');

    writeFileSync(file, readFileSync(file, 'utf8').replace('7412', '7413'));
    const edited = await deploy('code-search', { service: 'launchd', into: folder, uninstall: true });
    expect(edited.code).toBe(1);
    expect(edited.stderr).toContain('refusing to remove');
    expect(existsSync(file)).toBe(true);
    const overwrite = await deploy('code-search', { service: 'launchd', into: folder });
    expect(overwrite.code).toBe(1);
    expect(overwrite.stderr).toContain('refusing to replace');
    expect(readFileSync(file, 'utf8')).toContain('7413');
  });

  it('defaults to the platform: launchd in ~/Library/LaunchAgents on macOS, systemd under XDG_CONFIG_HOME on Linux', async () => {
    const home = join(scratch, 'home');
    const mac = await deploy('code-search', {
      platform: 'darwin',
      dryRun: true,
      env: { HOME: home, PATH: '/usr/bin' },
    });
    expect(mac.stdout).toContain(`at ${join(home, 'Library', 'LaunchAgents', 'dev.agentdef.code-search.plist')}`);
    const linux = await deploy('code-search', {
      platform: 'linux',
      dryRun: true,
      env: { HOME: home, XDG_CONFIG_HOME: join(scratch, 'xdg'), PATH: '/usr/bin' },
    });
    expect(linux.stdout).toContain(`at ${join(scratch, 'xdg', 'systemd', 'user', 'agentdef-code-search.service')}`);
    const windows = await deploy('code-search', { platform: 'win32', dryRun: true });
    expect(windows.code).toBe(2);
    expect(windows.stderr).toContain('pass --service launchd or --service systemd');
    expect(existsSync(join(home, 'Library'))).toBe(false);
  });

  it('prints a folder inside the workspace relative to it', async () => {
    const result = await deploy('code-search', { service: 'systemd', into: join(root, 'services'), dryRun: true });
    expect(result.stdout).toContain('at services/agentdef-code-search.service,');
  });
});

describe('choosing the target', () => {
  it('refuses a folder that is no compile output, and options of another target', async () => {
    const none = await deploy('nothing');
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('dist/agents/nothing is not a compile output');
    const wrong = await deploy('write-router', { into: join(scratch, 'x') });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--into is for local-mac outputs; dist/agents/write-router is a hb3 output');
  });

  it('finds the previous output when a compile was killed between the swap’s two renames, and reports one still running, moving nothing', async () => {
    const dist = join(root, 'dist', 'agents');
    const outDir = join(dist, 'write-router');
    const env = { PATH: join(scratch, 'empty-bin') };
    mkdirSync(env.PATH, { recursive: true });
    const before = await deploy('write-router', { dryRun: true, env });
    expect(before.code).toBe(0);
    // What a compile killed between its renames leaves: the output aside under the writer's name, no folder.
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid!;
    const deadAside = join(dist, `.write-router.old-${deadPid}-0123abcd`);
    renameSync(outDir, deadAside);
    expect(await deploy('write-router', { dryRun: true, env })).toEqual(before);
    expect(existsSync(deadAside)).toBe(false);
    // A compile still running between its renames (this test's parent process stands in for it).
    const liveAside = join(dist, `.write-router.old-${process.ppid}-0123abcd`);
    renameSync(outDir, liveAside);
    try {
      const busy = await deploy('write-router', { dryRun: true, env });
      expect(busy.code).toBe(2);
      expect(busy.stderr).toBe(
        `error: ${outDir} is being replaced by a compile that is still running (process ${process.ppid}): try again when it ends\n`,
      );
      expect(existsSync(outDir)).toBe(false);
    } finally {
      renameSync(liveAside, outDir);
    }
  });
});
