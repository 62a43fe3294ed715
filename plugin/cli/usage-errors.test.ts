/**
 * Usage errors exit 2, for every command, as `agentdef --help` and every command's help say: a bad
 * option value, a malformed argument, a missing or extra argument, or an input the caller named
 * that cannot be read. Each is said on standard error, prints nothing on standard output, and
 * writes nothing.
 * - Derived from the tables (plugin/cli/specs/): every command refuses a missing argument (or one
 *   too many), every option of a few values refuses another, and every option whose table checks
 *   its form (`check`: a key ref, a plan digest) refuses a malformed value with exit 2.
 * - Listed per command below: the command's own bad arguments. A command of the registry without
 *   a case here fails the test, so a new command gets its usage errors checked too.
 * Before, several of these exited 1 as if a definition were invalid: `application plan` and
 * `application execute` of a manifest that is missing, a folder or outside the workspace (their
 * host reports it as a diagnostic), `application execute --expect` of a malformed digest, and
 * `publish --key keyref:Bad_Name` (found only after the git checks). Now an input that cannot be read
 * is the diagnostic code `input_unreadable`, mapped to exit 2 in one place (exit-code.ts), and a
 * malformed option value is refused by the parser from the command's table.
 */
// runCli loads the command tables and modules with Node's require (see require-typescript.ts).
import '../../executors/__test-support__/require-typescript';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './main';
import { type CommandSpec, isCommandGroup } from './specs/command-spec';
import { COMMAND_SPECS } from './specs/index';
import { copyExamplesWorkspace } from './commands/test-support';
import { HUNG_CHILD_MS } from '../../e2e/support/hung-child';

const repoRoot = join(__dirname, '..', '..');
const AGENT = 'examples/text-stats/agent.json';
const MANIFEST = 'examples/applications/release-brief/application.json';
const BAD_KEY = 'keyref:Bad_Name';

let root: string;
const saved: Record<string, string | undefined> = {};
const ENV = [
  'AGENTDEF_KEYS_DIR',
  'AGENTDEF_KEYCHAIN',
  'AGENTDEF_RECORD',
  'AGENTDEF_REPLAY',
  'XDG_STATE_HOME',
  'XDG_CONFIG_HOME',
];

beforeAll(() => {
  root = copyExamplesWorkspace('agentdef-usage-errors-');
  mkdirSync(join(root, 'keys'));
  mkdirSync(join(root, 'state'));
  mkdirSync(join(root, 'outside'));
  writeFileSync(join(root, 'notes.txt'), 'not a manifest\n');
  // A folder that looks like an HB3 compile output (run and dev get past "no compile output" to their options; nothing ever starts).
  mkdirSync(join(root, 'fake-output'));
  writeFileSync(join(root, 'fake-output', 'hb3-job.json'), '{}\n');
  for (const name of ENV) saved[name] = process.env[name];
  // The key store and the state folder of this test, never $HOME's; no recording session from outside.
  process.env['AGENTDEF_KEYS_DIR'] = join(root, 'keys');
  process.env['AGENTDEF_KEYCHAIN'] = 'off';
  process.env['XDG_STATE_HOME'] = join(root, 'state');
  process.env['XDG_CONFIG_HOME'] = join(root, 'config');
  delete process.env['AGENTDEF_RECORD'];
  delete process.env['AGENTDEF_REPLAY'];
});
afterAll(() => {
  for (const name of ENV) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  rmSync(root, { recursive: true, force: true });
});

/** Every file under the workspace with its size and modification time: what a refused command must leave as it was. */
function snapshot(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, name.name);
      if (name.isDirectory()) walk(path);
      else {
        const stat = statSync(path);
        out.push(`${relative(root, path)} ${stat.size} ${stat.mtimeMs}`);
      }
    }
  };
  walk(root);
  return out.sort();
}

async function cli(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { cwd: root, stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) });
  return { code, stdout, stderr };
}

/** Runs `args`, expecting a usage error: exit 2, an `error` on stderr, nothing on stdout, nothing written. */
async function expectUsageError(args: readonly string[]): Promise<string> {
  const before = snapshot();
  const result = await cli(args);
  const shown = `agentdef ${args.join(' ')}`;
  expect(result.code, `${shown}\n${result.stdout}${result.stderr}`).toBe(2);
  expect(result.stderr, shown).toMatch(/(^|\n)error(\[[a-z_]+\])?[: ]/);
  expect(result.stdout, shown).toBe('');
  expect(snapshot(), shown).toEqual(before);
  return result.stderr;
}

/** Every command of the registry, by its words (`keys generate`). */
function allCommands(): { words: string[]; spec: CommandSpec }[] {
  return Object.entries(COMMAND_SPECS).flatMap(([verb, spec]) =>
    isCommandGroup(spec)
      ? Object.entries(spec.subcommands).map(([sub, s]) => ({ words: [verb, sub], spec: s }))
      : [{ words: [verb], spec }],
  );
}

/**
 * Each command's own bad arguments (its name as `agentdef help` takes it). Each must be a usage
 * error; every command of the registry has at least one.
 */
const CASES: Record<string, readonly (readonly string[])[]> = {
  validate: [['no-such-file.json'], ['examples/no-such-folder']],
  plan: [['no-such-file.json'], [AGENT, '--max-depth', '0'], ['kym://not-a-reference']],
  compile: [['no-such-file.json'], [AGENT, '--target', 'worker'], [AGENT, '--max-nodes', 'x']],
  run: [
    ['no-such-output'],
    ['fake-output', '--port', 'http'],
    ['fake-output', '--task-store', ''],
    ['fake-output', '--record', 'a', '--replay', 'b'],
  ],
  dev: [['no-such-output'], ['fake-output', '--port', '70000'], ['fake-output', '--record', ' ']],
  deploy: [['no-such-output'], ['fake-output', '--port', 'x']],
  eval: [
    ['no-such-folder'],
    ['examples/applications'],
    [AGENT, '--threshold', '1.5'],
    [AGENT, '--concurrency', '0'],
    [AGENT, '--record', 'a', '--replay', 'b'],
    [AGENT, '--cases', 'no-such-cases.yaml'],
    [AGENT],
  ],
  'bench-tool': [
    ['no-such-folder'],
    ['examples/applications'],
    [AGENT, '--runs', '0'],
    [AGENT, '--runs', 'many'],
    [AGENT, '--target', 'worker'],
    [AGENT, '--key', BAD_KEY],
    [AGENT, '--cases', 'no-such-cases.yaml'],
    // An agent (a model pin), not a tool: located at /modelSet.
    ['examples/support-triage'],
    // No key in this test's key store to sign the events with.
    [AGENT],
  ],
  ask: [
    ['not-a-url', 'hello'],
    ['http://127.0.0.1:9/', 'hello', '--key', 'no-such-key.json'],
  ],
  'application digest': [['no-such-manifest.json'], ['notes.txt']],
  'application catalog': [
    ['--host', '../outside.mjs'],
    ['--host', 'no-such-module.mjs'],
  ],
  'application plan': [
    ['no-such-manifest.json'],
    ['examples/applications'],
    ['notes.txt'],
    [MANIFEST, '--host', 'no-such-module.mjs'],
  ],
  'application execute': [
    ['no-such-manifest.json'],
    ['examples/applications'],
    [MANIFEST, '--expect', 'not-a-digest'],
    [MANIFEST, '--input', 'no-equals-sign'],
  ],
  'application check': [
    ['no-such-manifest.json'],
    ['examples/applications'],
    [MANIFEST, '--inputs', 'no-such-inputs.json'],
  ],
  'keys generate': [[BAD_KEY], ['keyref:'], ['keyref:a', 'keyref:b']],
  'keys list': [['something']],
  'keys export-public': [[BAD_KEY]],
  diff: [[AGENT], ['no-such-file.json', AGENT]],
  verify: [['no-such-file.json'], [AGENT, '--at', 'yesterday'], [AGENT, '--key', 'no-such-key.json']],
  'export agentfacts': [
    ['no-such-file.json', '--target', 'local-mac'],
    ['notes.txt', '--target', 'local-mac'],
    [AGENT, AGENT, '--target', 'local-mac'],
    [AGENT],
    [AGENT, '--target', 'local-mac', '--port', 'x'],
    [AGENT, '--target', 'hb3', '--port', '70000'],
    [AGENT, '--target', 'cloudflare-dynamic-worker'],
    [AGENT, '--target', 'cloudflare-dynamic-worker', '--worker-url', 'http://insecure.example'],
    [AGENT, '--target', 'worker'],
  ],
  promote: [
    [AGENT, '--to', 'tool-shipped', '--key', BAD_KEY],
    [AGENT, '--to', 'shipped'],
    [AGENT],
    [AGENT, '--to', 'tool-shipped', '--at', 'yesterday'],
  ],
  publish: [
    [AGENT, '--worker-url', 'https://text-stats.example.workers.dev', '--key', BAD_KEY],
    [AGENT, '--worker-url', 'https://text-stats.example.workers.dev', '--previous-key', BAD_KEY],
    [AGENT, '--worker-url', 'https://text-stats.example.workers.dev', '--previous-key', 'not-a-jwk-file'],
    [AGENT, '--port', 'x'],
    [AGENT, '--at', 'soon'],
    [AGENT, '--trust', 'examples'],
  ],
  'registry verify': [['--registry', 'no-such-registry'], ['extra-argument']],
  'registry rank': [['--registry', 'no-such-registry', '--skill', 'text'], ['--skill', 'text', 'extra-argument'], []],
  reputation: [
    [],
    ['no-such-folder'],
    ['examples', '--window', 'a month'],
    ['examples', '--at', 'yesterday'],
    ['examples', '--trust', 'no-such-trust-folder'],
  ],
  'export oasf': [['no-such-file.json'], [AGENT, '--port', 'x'], [AGENT, '--worker-url', 'http://plain.example.com']],
  mcp: [['--workspace', 'no-such-folder'], ['extra-argument']],
};

describe('usage errors exit 2, for every command', () => {
  it('every command of the registry has its own bad arguments checked here', () => {
    const names = allCommands().map(({ words }) => words.join(' '));
    expect(names.length).toBeGreaterThanOrEqual(20);
    expect(names.filter((name) => !Object.hasOwn(CASES, name))).toEqual([]);
    expect(Object.keys(CASES).filter((name) => !names.includes(name))).toEqual([]);
  });

  for (const [name, cases] of Object.entries(CASES)) {
    it(`agentdef ${name}: its bad arguments are usage errors`, async () => {
      for (const argv of cases) await expectUsageError([...name.split(' '), ...argv]);
    });
  }

  it('from the tables: a missing or extra argument, a value an option does not take, a malformed value of a checked option', async () => {
    for (const { words, spec } of allCommands()) {
      const takes = spec.arguments.length;
      const variadic = spec.arguments.some((a) => a.name.endsWith('...'));
      // No argument where one is needed; one too many where the count is fixed.
      if (takes > 0) await expectUsageError(words);
      if (!variadic)
        await expectUsageError([...words, ...Array.from({ length: takes + 1 }, (_, i) => `extra-${i}.json`)]);
      for (const [option, table] of Object.entries(spec.options)) {
        // Before any argument is read: the option's value alone is refused.
        if (table.values !== undefined) await expectUsageError([...words, `--${option}`, 'no-such-value']);
        if (table.check !== undefined) {
          expect(table.example, `${words.join(' ')} --${option} has an example`).toBeDefined();
          expect(table.check(table.example!), `${words.join(' ')} --${option} ${table.example}`).toBeUndefined();
          const stderr = await expectUsageError([...words, `--${option}`, 'Not A Valid Value!']);
          expect(stderr).toContain(`--${option}: `);
        }
      }
    }
  });

  it('a malformed key ref is never repeated when it may be key material', async () => {
    const material = 'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
    const stderr = await expectUsageError(['promote', AGENT, '--to', 'tool-shipped', '--key', material]);
    expect(stderr).not.toContain(material);
    expect(stderr).toContain(`not shown`);
    const previous = await expectUsageError([
      'publish',
      AGENT,
      '--worker-url',
      'https://text-stats.example.workers.dev',
      '--previous-key',
      material,
    ]);
    expect(previous).not.toContain(material);
    expect(previous).toContain('--previous-key: ');
    expect(previous).toContain('not shown');
  });

  it('through the real binary: the process exits 2 (keys generate keyref:Bad_Name, application plan of a missing manifest)', () => {
    const env = {
      ...process.env,
      AGENTDEF_KEYS_DIR: join(root, 'keys'),
      AGENTDEF_KEYCHAIN: 'off',
      HOME: root,
      XDG_STATE_HOME: join(root, 'state'),
      XDG_CONFIG_HOME: join(root, 'config'),
    };
    for (const args of [
      ['keys', 'generate', BAD_KEY],
      ['application', 'plan', 'no-such-manifest.json'],
    ]) {
      const run = spawnSync(process.execPath, [join(repoRoot, 'bin', 'agentdef.cjs'), ...args], {
        cwd: root,
        env,
        encoding: 'utf8',
        timeout: HUNG_CHILD_MS,
      });
      expect(run.status, `${args.join(' ')}: ${run.stderr}`).toBe(2);
      expect(run.stdout).toBe('');
    }
    expect(readdirSync(join(root, 'keys'))).toEqual([]);
  });
});
