/**
 * `agentdef --help` lists every verb. The verbs are found independently of the help text: each
 * command module in plugin/cli/commands (`<verb>.ts` exporting `run<Verb>Command`, and
 * `application-*.ts` for the `application` subcommands) must be listed, and every verb the help
 * lists must be one the real binary dispatches (a bad option gets that verb's usage, not
 * "unknown command").
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const repoRoot = join(__dirname, '..', '..');
const commandsDir = join(__dirname, 'commands');

function agentdef(args: string[]) {
  return spawnSync(process.execPath, [join(repoRoot, 'bin', 'agentdef.cjs'), ...args], { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 });
}

/** `Keys` → `keys`, `ApplicationCatalog` → `application catalog`. */
const words = (pascal: string) => pascal.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

/** Every `run<Name>Command` a non-test command module exports, as the words of its command line. */
function commandModules(): string[] {
  const found: string[] = [];
  for (const file of readdirSync(commandsDir).filter((name) => /^[a-z-]+\.ts$/.test(name) && name !== 'test-support.ts')) {
    const source = readFileSync(join(commandsDir, file), 'utf8');
    for (const match of source.matchAll(/^export (?:async )?function run(\w+)Command\(/gm)) found.push(words(match[1]!));
  }
  return found.sort();
}

describe('agentdef --help', () => {
  const help = agentdef(['--help']);
  const listed = [...help.stdout.matchAll(/^ {2,4}agentdef ([a-z][a-z-]*(?: [a-z][a-z-]*)?)/gm)].map((m) => m[1]!);

  it('exits 0 and lists every command module (verbs and application subcommands)', () => {
    expect(help.status).toBe(0);
    const modules = commandModules();
    // The finder itself works: it sees the verbs this file was written against.
    expect(modules).toEqual(expect.arrayContaining(['validate', 'plan', 'compile', 'run', 'dev', 'mcp', 'application', 'application catalog']));
    const missing = modules.filter((command) => !listed.some((line) => line === command || line.startsWith(`${command} `)));
    expect(missing).toEqual([]);
    expect(help.stdout).toContain('agentdef --version');
    expect(help.stdout).toContain('agentdef --help');
  });

  it('lists only verbs the binary dispatches: each answers a bad option with its own usage', () => {
    const verbs = [...new Set(listed.map((line) => line.split(' ')[0]!))];
    expect(verbs.length).toBeGreaterThanOrEqual(15);
    for (const verb of verbs) {
      const result = agentdef([verb, '--no-such-option-x']);
      expect(result.stderr, verb).not.toContain('unknown command');
      expect(result.status, `${verb}: ${result.stderr}`).toBe(2);
      expect(result.stderr, verb).toContain(`usage: agentdef ${verb}`);
    }
  });
});
