/**
 * The CLI's help, from the command tables (plugin/cli/specs/):
 * - `agentdef --help` lists every verb; the verbs are found independently of the help text (each
 *   command module in plugin/cli/commands, `<verb>.ts` exporting `run<Verb>Command`, and
 *   `application-*.ts` for the `application` subcommands), and every verb it lists is one the CLI
 *   dispatches (a bad option gets that verb's usage, not "unknown command");
 * - every command and subcommand answers `--help`, `-h` and `agentdef help <command>` with its
 *   usage, what it does, every option with its values and default, and its exit codes, exit 0;
 * - the table is the parser: every command module parses through `parseCommand` with its table,
 *   every documented option is accepted by the command, and an undocumented one is refused;
 * - `agentdef help <unknown>` and an unknown subcommand are usage errors with a did-you-mean.
 * Most checks call `runCli` in-process; the real binary is spawned once per kind of behaviour.
 */
import '../../executors/__test-support__/require-typescript';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commandHelp, usageLine } from './help-text';
import { dispatchedVerbs, runCli } from './main';
import { type CommandSpec, isCommandGroup } from './specs/command-spec';
import { COMMAND_SPECS } from './specs/index';
import { parseCommand } from './usage';
import { HUNG_CHILD_MS } from '../../e2e/support/hung-child';

const repoRoot = join(__dirname, '..', '..');
const commandsDir = join(__dirname, 'commands');
const scratch = mkdtempSync(join(tmpdir(), 'agentdef-cli-help-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function agentdef(args: string[]) {
  return spawnSync(process.execPath, [join(repoRoot, 'bin', 'agentdef.cjs'), ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: HUNG_CHILD_MS,
  });
}

async function cli(args: string[], cwd = scratch): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { cwd, stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) });
  return { code, stdout, stderr };
}

/** `Keys` → `keys`, `ApplicationCatalog` → `application catalog`, `BenchTool` → `bench-tool` (a verb with a hyphen). */
const words = (pascal: string) => {
  const spaced = pascal.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  const hyphened = spaced.replaceAll(' ', '-');
  return Object.hasOwn(COMMAND_SPECS, hyphened) ? hyphened : spaced;
};

/** Every non-test command module with the `run<Name>Command` functions it exports. */
function commandModules(): { file: string; source: string; commands: string[] }[] {
  return readdirSync(commandsDir)
    .filter((name) => /^[a-z-]+\.ts$/.test(name) && name !== 'test-support.ts')
    .map((file) => {
      const source = readFileSync(join(commandsDir, file), 'utf8');
      return {
        file,
        source,
        commands: [...source.matchAll(/^export (?:async )?function run(\w+)Command\(/gm)].map((m) => words(m[1]!)),
      };
    });
}

/** Every command table: the verbs, and each group's subcommands. */
function allSpecs(): { words: string[]; spec: CommandSpec }[] {
  return Object.entries(COMMAND_SPECS).flatMap(([verb, spec]) =>
    isCommandGroup(spec)
      ? Object.entries(spec.subcommands).map(([sub, subSpec]) => ({ words: [verb, sub], spec: subSpec }))
      : [{ words: [verb], spec }],
  );
}

describe('agentdef --help', () => {
  it('exits 0 and lists every command module (verbs and application subcommands), through the real binary', () => {
    const help = agentdef(['--help']);
    expect(help.status).toBe(0);
    const listed = [...help.stdout.matchAll(/^ {2,4}agentdef ([a-z][a-z-]*(?: [a-z][a-z-]*)?)/gm)].map((m) => m[1]!);
    const modules = commandModules()
      .flatMap((m) => m.commands)
      .sort();
    // The finder itself works: it sees the verbs this file was written against.
    expect(modules).toEqual(
      expect.arrayContaining([
        'validate',
        'plan',
        'compile',
        'run',
        'dev',
        'mcp',
        'application',
        'application catalog',
      ]),
    );
    const missing = modules.filter(
      (command) => !listed.some((line) => line === command || line.startsWith(`${command} `)),
    );
    expect(missing).toEqual([]);
    for (const line of ['agentdef --version', 'agentdef --help', 'agentdef help <command> [subcommand]'])
      expect(help.stdout).toContain(line);
    // Every verb listed is a table, and every table is listed with its usage line.
    expect([...new Set(listed.map((line) => line.split(' ')[0]!))].filter((verb) => verb !== 'help').sort()).toEqual(
      Object.keys(COMMAND_SPECS).sort(),
    );
    for (const { spec } of allSpecs()) expect(help.stdout).toContain(usageLine(spec));
  });

  it('every verb the CLI runs has a table (so its help, usage and parser), and every table is a verb it runs', () => {
    expect(dispatchedVerbs().sort()).toEqual(Object.keys(COMMAND_SPECS).sort());
  });

  it('lists only verbs the CLI dispatches: each answers a bad option with its own usage, exit 2', async () => {
    for (const { words: command, spec } of allSpecs()) {
      const result = await cli([...command, '--no-such-option-x']);
      expect(result.stderr, command.join(' ')).not.toContain('unknown command');
      expect(result.code, `${command.join(' ')}: ${result.stderr}`).toBe(2);
      expect(result.stderr, command.join(' ')).toContain(`error: Unknown option '--no-such-option-x'`);
      expect(result.stderr, command.join(' ')).toContain(`usage: ${usageLine(spec)}\n`);
    }
  });
});

describe('per-command help', () => {
  it('every command and subcommand answers --help, -h and `agentdef help <command>` with the same help, exit 0', async () => {
    const specs = allSpecs();
    expect(specs.length).toBeGreaterThanOrEqual(20);
    for (const { words: command, spec } of specs) {
      const expected = commandHelp(spec);
      for (const args of [
        [...command, '--help'],
        [...command, '-h'],
        ['help', ...command],
        // Help wins over anything else given, and loads no command (nothing runs).
        [...command, 'some-file', '--format', 'json', '--help'],
      ]) {
        const result = await cli(args);
        expect(result.code, args.join(' ')).toBe(0);
        expect(result.stderr, args.join(' ')).toBe('');
        expect(result.stdout, args.join(' ')).toBe(expected);
      }
    }
  });

  it('explains every option: its value, what it does, its allowed values and its default; and the arguments and exit codes', () => {
    for (const { words: command, spec } of allSpecs()) {
      const help = commandHelp(spec);
      const name = command.join(' ');
      expect(help.startsWith(`agentdef ${name}: ${spec.summary}\n\nusage: ${usageLine(spec)}\n`), name).toBe(true);
      const flat = help.replace(/\s+/g, ' ');
      expect(flat, name).toContain(spec.description.replace(/\s+/g, ' '));
      for (const argument of spec.arguments) {
        expect(help, `${name} ${argument.name}`).toContain(`\n  ${argument.name}\n`);
        expect(flat, `${name} ${argument.name}`).toContain(argument.description);
      }
      for (const [option, table] of Object.entries(spec.options)) {
        const at = help.indexOf(`\n  --${option}${table.type === 'string' ? ' ' : ''}`);
        expect(at, `${name} --${option}`).toBeGreaterThan(0);
        const entry = help.slice(at, help.indexOf('\n  -', at + 3)).replace(/\s+/g, ' ');
        expect(entry, `${name} --${option}`).toContain(table.description);
        expect(table.description.length, `${name} --${option}`).toBeGreaterThan(20);
        for (const value of table.values ?? []) expect(entry, `${name} --${option} ${value}`).toContain(value);
        if (table.example !== undefined) expect(entry, `${name} --${option}`).toContain(`e.g. ${table.example}`);
        if (table.required) expect(entry).toContain('required');
        else if (table.type === 'string' && table.default !== undefined)
          expect(entry, `${name} --${option}`).toContain(`default: ${String(table.default)}`);
        else if (table.otherwise !== undefined)
          expect(entry, `${name} --${option}`).toContain(`default: ${table.otherwise}`);
      }
      expect(help, name).toContain('\n  -h, --help\n');
      for (const [code, meaning] of spec.exitCodes.entries())
        expect(flat, `${name} exit ${code}`).toContain(`${code} ${meaning}`);
    }
  });

  it('a group without a subcommand lists its subcommands; through the real binary, `compile --help` prints the compile help, exit 0', () => {
    const keys = agentdef(['keys', '--help']);
    expect(keys.status).toBe(0);
    for (const sub of ['generate', 'list', 'export-public']) expect(keys.stdout).toContain(`agentdef keys ${sub}`);
    const exports = agentdef(['export', '--help']);
    expect(exports.status).toBe(0);
    expect(exports.stdout).toContain('agentdef export agentfacts <file>');
    const compile = agentdef(['compile', '--help']);
    expect(compile.status).toBe(0);
    expect(compile.stderr).toBe('');
    expect(compile.stdout).toBe(commandHelp(COMMAND_SPECS['compile'] as CommandSpec));
  });

  it('`agentdef help` of an unknown command or subcommand is a usage error with the one it probably means', async () => {
    const typo = agentdef(['help', 'compil']);
    expect(typo.status).toBe(2);
    expect(typo.stdout).toBe('');
    expect(typo.stderr).toMatch(/^error: unknown command "compil": did you mean "compile"\?\n/);
    for (const [args, message] of [
      [['help', 'nosuch'], /^error: unknown command "nosuch"\n/],
      [
        ['help', 'keys', 'generat'],
        /^error: unknown keys subcommand "generat": did you mean "generate"\?\nusage: agentdef keys <generate\|list\|export-public> \.\.\./,
      ],
      [['application', 'exec', '--help'], /^error: unknown application subcommand "exec": did you mean "execute"\?\n/],
      [['help', 'compile', 'now'], /^error: agentdef compile has no subcommand "now"\nusage: agentdef compile <file>/],
      [
        ['help', 'keys', 'list', 'all'],
        /^error: agentdef keys list has no subcommand "all"\nusage: agentdef keys list/,
      ],
      [['compilr', 'x.json'], /^error: unknown command "compilr": did you mean "compile"\?\n/],
    ] as const) {
      const result = await cli([...args]);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(message);
      expect(result.stdout, args.join(' ')).toBe('');
    }
    expect((await cli(['help'])).code).toBe(0);
  });
});

describe('the table is the parser', () => {
  it('every command module parses with parseCommand and its own table, never with parseArgs', () => {
    for (const { file, source, commands } of commandModules()) {
      expect(source, file).not.toMatch(/\bparseArgs\b/);
      if (commands.length === 0 || file === 'application.ts') continue;
      expect(source, file).toMatch(/parseCommand\(io, [A-Z][A-Za-z_.'[\]-]*, /);
    }
  });

  it('every documented option is accepted by the parser and an undocumented one refused, for every table', () => {
    const io = { cwd: scratch, stdout: () => {}, stderr: () => {} };
    for (const { words: command, spec } of allSpecs()) {
      for (const [option, table] of Object.entries(spec.options)) {
        const argv =
          table.type === 'boolean' ? [`--${option}`] : [`--${option}`, table.values?.[0] ?? table.example ?? 'x'];
        const parsed = parseCommand(io, spec, argv);
        expect(typeof parsed, `${command.join(' ')} --${option}`).toBe('object');
        if (typeof parsed === 'object')
          expect((parsed.values as Record<string, unknown>)[option], `${command.join(' ')} --${option}`).toEqual(
            table.type === 'boolean' ? true : table.multiple ? [argv[1]] : argv[1],
          );
      }
      expect(parseCommand(io, spec, ['--undocumented-option']), command.join(' ')).toBe(2);
    }
  });

  it('each command takes every option its table documents: given all of them, it fails for another reason than an unknown option', async () => {
    // `keys list` reads the keys folder: an empty one of this test's own, never $HOME's.
    const saved = { dir: process.env['AGENTDEF_KEYS_DIR'], keychain: process.env['AGENTDEF_KEYCHAIN'] };
    process.env['AGENTDEF_KEYS_DIR'] = join(scratch, 'keys');
    process.env['AGENTDEF_KEYCHAIN'] = 'off';
    afterAll(() => {
      for (const [name, value] of [
        ['AGENTDEF_KEYS_DIR', saved.dir],
        ['AGENTDEF_KEYCHAIN', saved.keychain],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    });
    for (const { words: command, spec } of allSpecs()) {
      const argv = [...command];
      for (const [option, table] of Object.entries(spec.options)) {
        argv.push(
          table.type === 'boolean'
            ? `--${option}`
            : `--${option}=${table.values?.[0] ?? table.example ?? join(scratch, 'no-such-thing')}`,
        );
      }
      // No positional (or a missing workspace): each command stops at a usage or I/O error before doing anything.
      const result = await cli(argv);
      expect(result.stderr, argv.join(' ')).not.toMatch(/Unknown option|is not allowed/);
      // Only a command without arguments (`keys list`) may succeed with nothing to act on.
      if (spec.arguments.length > 0) expect(result.code, `${argv.join(' ')}: ${result.stderr}`).not.toBe(0);
    }
  });
});
