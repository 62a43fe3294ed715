/**
 * `agentdef deploy` of a local-mac output against hostile surroundings: a changed `launcher.json`
 * that names another agent's service file (or a slug with a path or a line break), and a symlink
 * planted where the install writes its temporary file. Nothing outside what agentdef itself wrote
 * may change, and every refusal says which file and why.
 */
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileAgent } from '../../compiler/compile';
import { deployOutput } from '../../deploy/deploy-output';
import type { DeployOptions } from '../../deploy/deploy-options';

const REPO = join(__dirname, '..', '..', '..');
let root: string;
let scratch: string;
const OUT = () => join(root, 'dist', 'agents', 'code-search');

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'agentdef-deploy-adv-ws-'));
  scratch = mkdtempSync(join(tmpdir(), 'agentdef-deploy-adv-scratch-'));
  writeFileSync(join(root, 'nx.json'), '{}\n');
  cpSync(join(REPO, 'examples'), join(root, 'examples'), { recursive: true });
  for (const file of ['tools.json', 'mcp.json']) cpSync(join(REPO, file), join(root, file));
  const compiled = await compileAgent({
    file: join(root, 'examples', 'code-search', 'agent.json'),
    workspaceRoot: root,
    target: 'local-mac',
  });
  expect(compiled.ioError).toBeUndefined();
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

async function deploy(outDir: string, options: Partial<DeployOptions>) {
  let stdout = '';
  let stderr = '';
  const code = await deployOutput({
    outDir,
    workspaceRoot: root,
    dryRun: false,
    env: {
      PATH: '/usr/bin:/bin',
      HOME: join(scratch, 'home'),
      XDG_CONFIG_HOME: join(scratch, 'config'),
      XDG_STATE_HOME: join(scratch, 'state'),
    },
    ...options,
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { code, stdout, stderr };
}

/** A copy of the compiled output whose `launcher.json` is changed by `edit` (the templates copied under the names it gives). */
function tamperedOutput(
  name: string,
  edit: (manifest: { agent: string; services: Record<string, string> }) => void,
): string {
  const dir = join(scratch, 'outputs', name);
  cpSync(OUT(), dir, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(dir, 'launcher.json'), 'utf8')) as {
    agent: string;
    services: Record<string, string>;
  };
  edit(manifest);
  writeFileSync(join(dir, 'launcher.json'), JSON.stringify(manifest));
  for (const kind of ['systemd', 'launchd'] as const) {
    const file = manifest.services[kind]!;
    const template = kind === 'systemd' ? 'agentdef-code-search.service' : 'dev.agentdef.code-search.plist';
    if (/^[\w.-]+$/.test(file) && file !== template) cpSync(join(dir, template), join(dir, file));
  }
  return dir;
}

describe('a launcher.json that names a service file that is not its own agent', () => {
  it("neither removes nor replaces another agent's installed service, and writes nothing", async () => {
    const folder = join(scratch, 'services-other');
    // local-notes' own service, installed by agentdef (its marker is valid)
    const notes = tamperedOutput('local-notes', (m) => {
      m.agent = 'local-notes@0.3.0';
      m.services = { systemd: 'agentdef-local-notes.service', launchd: 'dev.agentdef.local-notes.plist' };
    });
    expect((await deploy(notes, { service: 'systemd', into: folder })).code).toBe(0);
    const installed = readFileSync(join(folder, 'agentdef-local-notes.service'), 'utf8');

    // code-search's output, its manifest changed to name local-notes' unit
    const hostile = tamperedOutput('names-other', (m) => {
      m.services = { systemd: 'agentdef-local-notes.service', launchd: 'dev.agentdef.local-notes.plist' };
    });
    for (const options of [{ uninstall: true }, {}, { dryRun: true, uninstall: true }] as Partial<DeployOptions>[]) {
      const result = await deploy(hostile, { service: 'systemd', into: folder, ...options });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        'error: launcher.json names the systemd service file "agentdef-local-notes.service", not agentdef-code-search.service for code-search; compile the agent again\n',
      );
      expect(result.stdout).toBe('');
      expect(readdirSync(folder)).toEqual(['agentdef-local-notes.service']);
      expect(readFileSync(join(folder, 'agentdef-local-notes.service'), 'utf8')).toBe(installed);
    }
    const plist = await deploy(hostile, { service: 'launchd', into: folder, uninstall: true });
    expect(plist.code).toBe(2);
    expect(plist.stderr).toContain(
      'names the launchd service file "dev.agentdef.local-notes.plist", not dev.agentdef.code-search.plist',
    );
  });

  it('refuses an agent that is not a slug (a path, "..", a line break, quotes, too long) before writing anything', async () => {
    const folder = join(scratch, 'services-slug');
    for (const [name, agent] of [
      ['path', 'a/../../b@1.0.0'],
      ['dots', '..@1.0.0'],
      ['newline', 'code-search\nExecStartPre=/bin/sh@1.0.0'],
      ['quote', 'code"search@1.0.0'],
      ['long', `${'a'.repeat(65)}@1.0.0`],
    ] as const) {
      const hostile = tamperedOutput(`slug-${name}`, (m) => {
        const slug = agent.slice(0, agent.lastIndexOf('@'));
        m.agent = agent;
        m.services = { systemd: `agentdef-${slug}.service`, launchd: `dev.agentdef.${slug}.plist` };
      });
      for (const service of ['systemd', 'launchd'] as const) {
        const result = await deploy(hostile, { service, into: folder });
        expect(result.code).toBe(2);
        expect(result.stderr).toBe(
          'error: launcher.json names an agent that is not a valid slug; compile the agent again\n',
        );
        expect(result.stdout).toBe('');
      }
    }
    expect(existsSync(folder)).toBe(false);
    expect(existsSync(join(scratch, 'state'))).toBe(false);
  });

  it("refuses a service file name that is not the agent's own (another file of the folder, a hidden one, a path)", async () => {
    const folder = join(scratch, 'services-name');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'keep.conf'), 'theirs\n');
    for (const [name, file] of [
      ['plain', 'keep.conf'],
      ['hidden', '.bashrc'],
      ['path', '../keep.conf'],
      ['newline', 'agentdef-code-search.service\n'],
    ] as const) {
      const hostile = tamperedOutput(`name-${name}`, (m) => {
        m.services = { ...m.services, systemd: file };
      });
      const result = await deploy(hostile, { service: 'systemd', into: folder });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(
        /^error: launcher\.json names the systemd service file "[^\n]*", not agentdef-code-search\.service for code-search; compile the agent again\n$/,
      );
    }
    expect(readdirSync(folder)).toEqual(['keep.conf']);
    expect(readFileSync(join(folder, 'keep.conf'), 'utf8')).toBe('theirs\n');
  });
});

describe('the install write', () => {
  it('never writes through a symlink planted at its temporary file, and leaves no temporary file', async () => {
    const folder = join(scratch, 'services-temp');
    mkdirSync(folder, { recursive: true });
    const outside = join(scratch, 'outside.txt');
    writeFileSync(outside, 'precious\n');
    const temp = join(folder, `agentdef-code-search.service.agentdef-${process.pid}.tmp`);
    symlinkSync(outside, temp);
    const result = await deploy(OUT(), { service: 'systemd', into: folder });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `error: cannot write ${join(folder, 'agentdef-code-search.service')}: agentdef-code-search.service.agentdef-${process.pid}.tmp is in the way in its folder (left alone); move it away and try again\n`,
    );
    expect(readFileSync(outside, 'utf8')).toBe('precious\n');
    expect(lstatSync(temp).isSymbolicLink()).toBe(true);
    expect(existsSync(join(folder, 'agentdef-code-search.service'))).toBe(false);

    rmSync(temp);
    const installed = await deploy(OUT(), { service: 'systemd', into: folder });
    expect(installed.code).toBe(0);
    expect(readdirSync(folder)).toEqual(['agentdef-code-search.service']);
    expect(readFileSync(outside, 'utf8')).toBe('precious\n');
  });

  it('refuses a folder at the target and leaves it, and the folder around it, as they were', async () => {
    const folder = join(scratch, 'services-dir');
    const target = join(folder, 'agentdef-code-search.service');
    mkdirSync(join(target, 'inside'), { recursive: true });
    for (const options of [{}, { uninstall: true }] as Partial<DeployOptions>[]) {
      const result = await deploy(OUT(), { service: 'systemd', into: folder, ...options });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        /^error: refusing to (replace|remove) .*agentdef-code-search\.service: agentdef did not install it/,
      );
      expect(readdirSync(folder)).toEqual(['agentdef-code-search.service']);
      expect(readdirSync(target)).toEqual(['inside']);
    }
  });
});
