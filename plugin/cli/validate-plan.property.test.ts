/**
 * The validator's property, through the CLI commands in a temp workspace (a copy of the
 * examples, so pins resolve): `agentdef validate` and `agentdef plan` on randomly mutated
 * examples, JSON and YAML, exit 0 or 1, never 2, never print "internal error", and never put a
 * raw control character on the terminal; `--format json` output always parses.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  damage,
  hostileString,
  loadExamples,
  mutate,
  mutation,
  replaceStringLeaf,
  serialize,
  textDamage,
} from '../definition/__test-support__/definition-mutations';
import { runPlanCommand } from './commands/plan';
import { captureRun, copyExamplesWorkspace } from './commands/test-support';
import { runValidateCommand } from './commands/validate';
import { terminalSafeIo } from './main';

const BEYOND_C0 = '\\u007f-\\u009f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069';
const RAW_CONTROL = new RegExp(`[\\u0000-\\u0008\\u000b-\\u001f${BEYOND_C0}]`);

const examples = loadExamples();
let root: string;
beforeAll(() => {
  root = copyExamplesWorkspace('agentdef-cli-fuzz-');
  mkdirSync(join(root, 'fuzz'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A command run as runCli runs it: the terminal-safe streams around the verb. */
const run = (command: typeof runValidateCommand, argv: string[]) =>
  captureRun((args, io) => command(args, terminalSafeIo(io)), argv, root);

async function checkCommands(text: string, format: 'json' | 'yaml'): Promise<void> {
  const file = `fuzz/agent.${format}`;
  writeFileSync(join(root, file), text);
  for (const [command, extra] of [
    [runValidateCommand, []],
    [runValidateCommand, ['--format', 'json']],
    [runPlanCommand, []],
    [runPlanCommand, ['--format', 'json']],
  ] as const) {
    const result = await run(command, [file, ...extra]);
    const output = result.stdout + result.stderr;
    const label = `${command.name} ${extra.join(' ')} on ${JSON.stringify(text.slice(0, 300))}: ${output.slice(0, 600)}`;
    expect([0, 1], label).toContain(result.code);
    expect(output, label).not.toContain('internal error');
    expect(output, label).not.toMatch(RAW_CONTROL);
    if (extra.length > 0 && (command === runValidateCommand || result.code === 1))
      expect(() => JSON.parse(result.stdout), label).not.toThrow();
  }
}

describe('agentdef validate and plan on mutated examples', () => {
  for (const format of ['json', 'yaml'] as const) {
    it(`exit 0 or 1 with safe output (${format})`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.nat(),
          fc.array(mutation, { minLength: 1, maxLength: 2 }),
          textDamage,
          async (pick, mutations, damaged) => {
            const example = examples[pick % examples.length]!;
            await checkCommands(damage(serialize(mutate(example.value, mutations), format), format, damaged), format);
          },
        ),
        { numRuns: 60 },
      );
    });

    it(`exit 0 or 1 with hostile text in any string field (${format})`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.nat(), fc.nat(), hostileString, async (pick, at, text) => {
          const example = examples[pick % examples.length]!;
          await checkCommands(serialize(replaceStringLeaf(example.value, at, text), format), format);
        }),
        { numRuns: 60 },
      );
    });
  }

  it('regression: a lone surrogate, a YAML alias bomb by bytes and terminal controls each exit 1', async () => {
    const base = examples.find((e) => e.file === 'examples/text-stats/agent.json')!.value as Record<string, any>;
    const surrogate = structuredClone(base);
    surrogate['metadata'].description = 'a\ud800b';
    await checkCommands(JSON.stringify(surrogate, null, 2), 'json');
    const controls = structuredClone(base);
    controls['identity'].name = 'x\u001b]0;owned\u0007\u001b[2K\u202e';
    await checkCommands(JSON.stringify(controls, null, 2), 'json');
    const bomb = `big: &b "${'x'.repeat(1024 * 1024)}"\nuses: [${Array(5000).fill('*b').join(', ')}]\n`;
    await checkCommands(bomb, 'yaml');
    for (const text of [JSON.stringify(surrogate), JSON.stringify(controls)]) {
      writeFileSync(join(root, 'fuzz/agent.json'), text);
      expect((await run(runPlanCommand, ['fuzz/agent.json'])).code).toBe(1);
    }
  });
});
