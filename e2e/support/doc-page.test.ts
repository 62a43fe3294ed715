/**
 * The page follower the documentation tests rely on (doc-page.ts), on small pages of its own: it
 * runs what the page says in order and nothing else, fails where the page is wrong (a command that
 * fails, or exits other than the page says; a skip the page does not explain; output the page
 * shows that never came), carries `export` like a shell, and serves and stops long-running
 * commands as the marks say (per block, or on through the page until their port is wanted again).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  followPage,
  followPagePrinting,
  killLeftovers,
  missingShownLine,
  printsChecker,
  type StepResult,
} from './doc-page';
import { listening } from './loopback-ports';
import { e2eRoot } from './pack';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(e2eRoot(), 'doc-page-'));
});
afterAll(() => {
  killLeftovers();
  rmSync(dir, { recursive: true, force: true });
});

/** A page in a fresh folder (the reader's workspace), and its path. */
function page(name: string, lines: string[]): { path: string; cwd: string } {
  const cwd = join(dir, name);
  mkdirSync(cwd, { recursive: true });
  const path = join(cwd, 'page.md');
  writeFileSync(path, `${lines.join('\n')}\n`);
  return { path, cwd };
}

/** A titled block writing a server of an agent card on `--port N` that says so and stops on SIGINT. */
const SERVER = [
  '```js title="serve.js"',
  "const port = Number(process.argv[process.argv.indexOf('--port') + 1]);",
  "require('node:http').createServer((q, s) => s.end('{\"name\":\"x\"}')).listen(port, '127.0.0.1', () => console.log(`serving on ${port}`));",
  "process.on('SIGINT', () => { console.log('stopped'); process.exit(0); });",
  '```',
];
const UP = (port: number) =>
  `node -e "fetch('http://127.0.0.1:${port}/.well-known/agent-card.json').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"`;
const DOWN = (port: number) =>
  `node -e "fetch('http://127.0.0.1:${port}/.well-known/agent-card.json').then(() => process.exit(1), () => process.exit(0))"`;

describe('missingShownLine', () => {
  it('finds every shown line in order, `…` standing for any text; names the first it cannot find', () => {
    const output = 'banner\ntask: 01ABC\nstate: completed\nreceipt: verified (kid keyref:a)\n';
    expect(missingShownLine(output, 'task: …\nstate: completed\n\nreceipt: verified (kid …)')).toBeUndefined();
    expect(missingShownLine(output, 'state: completed\ntask: …')).toBe('task: …');
    expect(missingShownLine(output, 'state: failed')).toBe('state: failed');
    // A whole line, not a part of one; the page's other characters are literal.
    expect(missingShownLine(output, 'state: complete')).toBe('state: complete');
    expect(missingShownLine('a (b) [c]*\n', 'a (b) [c]*')).toBeUndefined();
    expect(missingShownLine('a b\n', 'a.b')).toBe('a.b');
  });

  it("maps the page's ports in what it shows", () => {
    const ports = new Map([['8787', '40123']]);
    expect(
      missingShownLine('serves A2A at http://127.0.0.1:40123/\n', 'serves A2A at http://127.0.0.1:8787/', ports),
    ).toBeUndefined();
    expect(
      missingShownLine('serves A2A at http://127.0.0.1:8787/\n', 'serves A2A at http://127.0.0.1:8787/', ports),
    ).toBe('serves A2A at http://127.0.0.1:8787/');
  });
});

describe('printsChecker', () => {
  const result = (command: string, output: string, skipped?: string): StepResult => ({
    step: { kind: 'command', command, line: 1, block: 0, longRunning: false, keepServing: false, exits: 0 },
    where: `page.md:1: ${command}`,
    command,
    ...(skipped !== undefined ? { skipped } : {}),
    status: 0,
    signal: null,
    output,
    stdout: output,
    stderr: '',
    ports: new Map(),
    ms: 0,
  });

  it('throws at a print or a shown line a command does not print, and lists the rows no command met', () => {
    const check = printsChecker([
      { command: /^a /, prints: ['done', /^\d+ files$/m], shows: 'x …\nz' },
      { command: /^b /, prints: ['never'] },
    ]);
    expect(() => check.after(result('a 1', 'done\n3 files\nx y\nz\n'))).not.toThrow();
    expect(() => check.after(result('a 2', 'done\n3 files\n'))).toThrow(
      /does not print what the page shows, from the line\n {2}x …/,
    );
    expect(() => check.after(result('a 3', 'done\nfiles\nx y\nz\n'))).toThrow(/does not print \/\^\\d\+ files\$\/m/);
    // A skipped command meets nothing.
    check.after(result('b 1', '', 'the network'));
    expect(check.unmet()).toEqual(['/^b /']);
  });
});

describe('followPage', () => {
  it('writes the files, runs the commands in order with export carried on, and returns what each printed', async () => {
    const { path, cwd } = page('order', [
      '# Page',
      '```text title="notes/a.txt"',
      'first',
      '```',
      '```sh',
      'cat notes/a.txt',
      'export GREETING="$(printf hello)"',
      'echo "$GREETING world" > out.txt',
      '```',
      '```json',
      '{"not": "a step"}',
      '```',
      '```sh',
      'cat out.txt && echo err >&2',
      'test -z "$GREETING_NOT_SET"   # exits 0',
      '```',
    ]);
    const results = await followPage({ page: path, cwd, env: { ...process.env } });
    expect(results.map((r) => r.command)).toEqual([
      'notes/a.txt',
      'cat notes/a.txt',
      'export GREETING="$(printf hello)"',
      'echo "$GREETING world" > out.txt',
      'cat out.txt && echo err >&2',
      'test -z "$GREETING_NOT_SET"   # exits 0',
    ]);
    expect(results[1]!.stdout).toBe('first\n');
    expect(results[4]!.stdout).toBe('hello world\n');
    expect(results[4]!.stderr).toBe('err\n');
    expect(results.every((r) => r.skipped === undefined)).toBe(true);
  });

  it('fails at the first command that fails, naming the page line, and runs nothing after it', async () => {
    const { path, cwd } = page('fails', [
      '```sh',
      'echo one > one.txt',
      'echo broken >&2; exit 3',
      'echo three > three.txt',
      '```',
    ]);
    await expect(followPage({ page: path, cwd, env: { ...process.env } })).rejects.toThrow(
      /page\.md:3: echo broken >&2; exit 3\nexited 3:\nbroken/,
    );
    expect(readFileSync(join(cwd, 'one.txt'), 'utf8')).toBe('one\n');
    expect(() => readFileSync(join(cwd, 'three.txt'))).toThrow();
  });

  it('holds a command to the exit status its comment says, 0 otherwise', async () => {
    const wrong = page('exits-wrong', ['```sh', 'true   # exits 1 when something is off', '```']);
    await expect(followPage({ page: wrong.path, cwd: wrong.cwd, env: { ...process.env } })).rejects.toThrow(
      'exited 0 where the page says it exits 1',
    );
    const right = page('exits-right', ['```sh', 'false   # exits 1: nothing is true', '```']);
    const [result] = await followPage({ page: right.path, cwd: right.cwd, env: { ...process.env } });
    expect(result!.status).toBe(1);
  });

  it('leaves out only a command the page explains, and says so; a reason the page does not give, or that matches nothing, fails first', async () => {
    const { path, cwd } = page('skips', [
      '```sh',
      'echo ran > ran.txt',
      'npm install left-pad',
      '```',
      '',
      'The install needs the npm registry.',
    ]);
    const results = await followPage({
      page: path,
      cwd,
      env: { ...process.env },
      skip: [{ match: /^npm install /, reason: 'The install needs the npm\nregistry' }],
    });
    expect(results.map((r) => [r.command, r.skipped])).toEqual([
      ['echo ran > ran.txt', undefined],
      ['npm install left-pad', 'The install needs the npm\nregistry'],
    ]);
    rmSync(join(cwd, 'ran.txt'));
    await expect(
      followPage({
        page: path,
        cwd,
        env: { ...process.env },
        skip: [{ match: /^npm install /, reason: 'it is slow' }],
      }),
    ).rejects.toThrow('a command is left out "it is slow", which the page does not say');
    await expect(
      followPage({
        page: path,
        cwd,
        env: { ...process.env },
        skip: [{ match: /^yarn /, reason: 'The install needs the npm registry.' }],
      }),
    ).rejects.toThrow('no command matches /^yarn /');
    expect(() => readFileSync(join(cwd, 'ran.txt'))).toThrow();
  });

  it('serves a marked command while the rest of its block runs, on a free port, and stops it with Ctrl-C at the end of the block', async () => {
    const { path, cwd } = page('serve-block', [
      ...SERVER,
      '```sh',
      'node serve.js --port 8787   # serves until Ctrl-C',
      UP(8787),
      '```',
      '```sh',
      DOWN(8787),
      '```',
    ]);
    const results = await followPage({ page: path, cwd, env: { ...process.env } });
    const served = results.find((r) => r.command.startsWith('node serve.js'))!;
    const port = served.ports.get('8787')!;
    expect(port).not.toBe('8787');
    expect(served.command).toBe(`node serve.js --port ${port}   # serves until Ctrl-C`);
    expect(served.output).toBe(`serving on ${port}\nstopped\n`);
    expect(served.signal).not.toBe('SIGKILL');
    // Stopped after the block's check that it serves, before the next block's check that it does not.
    expect(results.map((r) => r.command.slice(0, 12))).toEqual([
      'serve.js',
      UP(Number(port)).slice(0, 12),
      'node serve.j',
      DOWN(Number(port)).slice(0, 12),
    ]);
    expect(await listening(Number(port))).toBe(false);
  });

  it('keeps a command marked to keep running serving through the next blocks, until a later command serves on its port', async () => {
    const { path, cwd } = page('serve-page', [
      ...SERVER,
      '```sh',
      'node serve.js --port 8788   # serves until Ctrl-C: keep it running for the next sections',
      '```',
      'Later:',
      '```sh',
      UP(8788),
      '```',
      '```sh',
      'node serve.js --port 8788   # serves until Ctrl-C',
      UP(8788),
      '```',
    ]);
    const results = await followPage({ page: path, cwd, env: { ...process.env } });
    const servers = results.filter((r) => r.command.startsWith('node serve.js'));
    expect(servers.map((r) => r.step.line)).toEqual([7, 14]);
    expect(servers.map((r) => r.output.endsWith('stopped\n'))).toEqual([true, true]);
    // The first stopped before the second started (one terminal per port), after the check in between.
    const order = results.map((r) =>
      r.command.startsWith('node serve.js') ? `serve@${r.step.line}` : r.command.startsWith('node -e') ? 'up' : 'file',
    );
    expect(order).toEqual(['file', 'up', 'serve@7', 'up', 'serve@14']);
  });

  it('fails when a command that serves does not serve on its port', async () => {
    const { path, cwd } = page('serve-never', [
      '```sh',
      'node -e "process.exit(0)" --port 8789   # serves until Ctrl-C',
      '```',
    ]);
    await expect(followPage({ page: path, cwd, env: { ...process.env } })).rejects.toThrow(
      /it did not serve on port \d+ \(it exited\)/,
    );
  });
});

describe('followPagePrinting', () => {
  it('follows the page with each row checked, and fails naming a row no command that ran matched', async () => {
    const { path, cwd } = page('printing', ['```sh', 'echo hello from the page', 'echo second', '```']);
    const reader = { dir: cwd, env: process.env };
    const seen: string[] = [];
    const results = await followPagePrinting(
      { path, skip: [] },
      reader,
      [{ command: /^echo hello/, prints: ['hello from the page'] }],
      (r) => {
        seen.push(r.command);
      },
    );
    expect(results.map((r) => r.command)).toEqual(['echo hello from the page', 'echo second']);
    expect(seen).toEqual(['echo hello from the page', 'echo second']);
    await expect(
      followPagePrinting({ path, skip: [] }, reader, [{ command: /^echo hello/, prints: ['goodbye'] }]),
    ).rejects.toThrow(/does not print goodbye/);
    await expect(
      followPagePrinting({ path, skip: [] }, reader, [{ command: /^npx never-run/, prints: ['x'] }]),
    ).rejects.toThrow(/no command that ran printed what these rows expect:\n\/\^npx never-run\//);
  });
});
