/**
 * Following a documentation page as a reader does, for tests that run a page's commands as written
 * (markdown-commands.ts reads the steps): in page order, each titled file block is written (whole,
 * or the JSON value at its pointer), each `sh` command runs with `sh -c` in the workspace and must
 * exit 0 (or the status its comment says it `exits`). Like a reader's shell, `export NAME=value` sets NAME for the commands after it. A command
 * marked `# serves until Ctrl-C` is left serving (its agent card answering on its `--port`) while
 * the rest of its block runs, then stopped with Ctrl-C (SIGINT to its process group); marked
 * `# serves until Ctrl-C: keep it running …`, it serves on until a later command serves on its
 * port or the page ends. Stopped, it must have ended on Ctrl-C (not killed) and freed its port. A
 * failure names the page, the line and the command, with what it printed.
 *
 * Shared by the page tests (e2e/docs/): the page's ports are mapped to free ones, a command can be
 * left out only with the reason the page gives for it, and `after` (`printsChecker`) checks what
 * each step printed against what the page shows.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { parsePointer } from '../../plugin/definition/json-pointer';
import { type CommandStep, type DocStep, extractSteps, fencedBlocks, type FileStep } from './markdown-commands';
import { freePort, listening } from './loopback-ports';
import { HUNG_CHILD_MS } from './hung-child';

const REPO = join(__dirname, '..', '..');

/** A command the test leaves out, with the reason the page itself gives for it (text of the page). */
export interface Skip {
  match: RegExp;
  reason: string;
}

export interface StepResult {
  step: DocStep;
  /** `<page>:<line>: <command or file>`, for messages. */
  where: string;
  /** The command as it ran (ports mapped, rewritten); the path for a file. */
  command: string;
  /** Set when the command was left out: the page's reason. */
  skipped?: string;
  /** A command's exit status (a long-running one: as it ended after Ctrl-C); undefined for a file or a skipped command. */
  status?: number | null;
  signal?: NodeJS.Signals | null;
  /** What the command printed, stdout then stderr as they came. */
  output: string;
  stdout: string;
  stderr: string;
  /** The page's ports and the free ones they were mapped to. */
  ports: ReadonlyMap<string, string>;
  /** How long it took (a long-running command: until it stopped). */
  ms: number;
}

export interface FollowOptions {
  /** The markdown page, absolute. */
  page: string;
  /** The workspace the reader is in. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Only this heading's section, or these sections (in page order). */
  section?: string;
  sections?: readonly string[];
  /**
   * Commands the test leaves out, each with the reason the page itself gives for it (e.g. it needs
   * the network): `reason` must be text of the page, and each entry must match a command.
   */
  skip?: readonly Skip[];
  /** Rewrites a command (after its ports are mapped) before it runs. */
  rewrite?: (command: string, step: CommandStep) => string;
  /** Per command (default 5 minutes; generous, the suite runs on loaded machines). */
  commandTimeoutMs?: number;
  /** How long a long-running command may take to serve (default 2 minutes). */
  readyTimeoutMs?: number;
  /** Called after each step, with what it did: the place to check what the page says it prints. */
  after?: (result: StepResult) => void | Promise<void>;
}

const COMMAND_MS = HUNG_CHILD_MS;
const READY_MS = HUNG_CHILD_MS;
const STOP_MS = 20_000;
const PORT = /--port[= ](\d+)/;
const EXPORT = /^export ([A-Za-z_][A-Za-z0-9_]*)=/;

/** The page's ports (`--port N`, `--port=N`) mapped to free loopback ports. */
export async function portMap(steps: readonly DocStep[]): Promise<Map<string, string>> {
  const map = new Map<string, string>();
  for (const step of steps) {
    if (step.kind !== 'command') continue;
    for (const match of step.command.matchAll(/--port[= ](\d+)/g))
      if (!map.has(match[1]!)) map.set(match[1]!, String(await freePort()));
  }
  return map;
}

/** The text with the page's ports (in `--port N`, `--port=N` and `127.0.0.1:N`) replaced by their mapped ones. */
export function withPorts(command: string, ports: ReadonlyMap<string, string>): string {
  return command.replace(/(--port[= ]|127\.0\.0\.1:)(\d+)\b/g, (whole, prefix: string, port: string) =>
    ports.has(port) ? `${prefix}${ports.get(port)}` : whole,
  );
}

/** The reader writing a titled block: the whole file, or the JSON value at its pointer. */
export function writeFileStep(root: string, step: FileStep): void {
  const file = join(root, step.path);
  if (step.pointer === undefined) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, step.content);
    return;
  }
  const document = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const segments = parsePointer(step.pointer);
  const last = segments.pop();
  if (last === undefined) throw new Error(`line ${step.line}: pointer "${step.pointer}" names the whole file: drop it`);
  let parent: unknown = document;
  for (const segment of segments) parent = (parent as Record<string, unknown>)[segment];
  if (parent === null || typeof parent !== 'object')
    throw new Error(`line ${step.line}: ${step.path} has no object at ${step.pointer}`);
  (parent as Record<string, unknown>)[last] = JSON.parse(step.content);
  writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);
}

interface Running {
  child: ChildProcess;
  /** When it started (Date.now()). */
  since: number;
  exited: Promise<{ status: number | null; signal: NodeJS.Signals | null }>;
  stdout(): string;
  stderr(): string;
  output(): string;
}

/** Every process group a page run started, so a test can kill what a failure left running. */
const started: ChildProcess[] = [];

/** Kills (SIGKILL) every process group a page run left running. */
export function killLeftovers(): void {
  for (const child of started.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}

/** `sh -c <command>` in its own process group (so Ctrl-C reaches everything it started). */
function start(command: string, cwd: string, env: NodeJS.ProcessEnv): Running {
  const child = spawn('sh', ['-c', command], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  let stdout = '';
  let stderr = '';
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    output += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    output += chunk.toString();
  });
  const exited = new Promise<{ status: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (status, signal) => resolve({ status, signal })),
  );
  return { child, since: Date.now(), exited, stdout: () => stdout, stderr: () => stderr, output: () => output };
}

/** Waits until the agent card answers on `port`, or the command exits, or `readyMs` pass. */
async function untilServing(running: Running, port: string, readyMs: number, where: string): Promise<void> {
  const deadline = Date.now() + readyMs;
  let exited = false;
  void running.exited.then(() => (exited = true));
  while (Date.now() < deadline && !exited) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/.well-known/agent-card.json`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(
    `${where}: it did not serve on port ${port}${exited ? ' (it exited)' : ` within ${readyMs} ms`}:\n${running.output()}`,
  );
}

/** Ctrl-C: SIGINT to the process group, then SIGKILL past STOP_MS. */
async function interrupt(running: Running): Promise<{ status: number | null; signal: NodeJS.Signals | null }> {
  if (running.child.exitCode === null && running.child.signalCode === null) process.kill(-running.child.pid!, 'SIGINT');
  const timer = setTimeout(() => process.kill(-running.child.pid!, 'SIGKILL'), STOP_MS);
  const finished = await running.exited;
  clearTimeout(timer);
  return finished;
}

/** The value `export NAME=…` gives NAME, as the reader's shell would. */
function exported(command: string, name: string, cwd: string, env: NodeJS.ProcessEnv, where: string): string {
  const r = spawnSync('sh', ['-c', `${command}\nprintf '%s' "$${name}"`], {
    cwd,
    env,
    encoding: 'utf8',
    timeout: COMMAND_MS,
  });
  if (r.status !== 0) throw new Error(`${where}\nexited ${r.signal ?? r.status}:\n${r.stdout}${r.stderr}`);
  return r.stdout;
}

/** Whether the page's text holds `text`, whitespace (line breaks included) compared loosely. */
export function pageSays(markdown: string, text: string): boolean {
  const loose = (t: string) => t.replace(/\s+/g, ' ').trim();
  return text.trim() !== '' && loose(markdown).includes(loose(text));
}

/** The page, repository-relative (for messages). */
export function shownPath(page: string): string {
  return relative(REPO, page);
}

/** Carries out the page's steps in order; throws at the first that fails, naming it. Returns every step's result. */
export async function followPage(options: FollowOptions): Promise<StepResult[]> {
  const shownPage = shownPath(options.page);
  const markdown = readFileSync(options.page, 'utf8');
  const steps = extractSteps(markdown, {
    ...(options.section !== undefined ? { section: options.section } : {}),
    ...(options.sections ? { sections: options.sections } : {}),
  });
  for (const skip of options.skip ?? []) {
    if (!pageSays(markdown, skip.reason))
      throw new Error(`${shownPage}: a command is left out "${skip.reason}", which the page does not say`);
    if (!steps.some((s) => s.kind === 'command' && skip.match.test(s.command)))
      throw new Error(`${shownPage}: no command matches ${skip.match}, which the test leaves out`);
  }
  const ports = await portMap(steps);
  const env: NodeJS.ProcessEnv = { ...options.env };
  const results: StepResult[] = [];
  const serving: { step: CommandStep; running: Running; where: string; command: string; port: string }[] = [];
  const stop = async (which: typeof serving) => {
    for (const entry of which) {
      serving.splice(serving.indexOf(entry), 1);
      const finished = await interrupt(entry.running);
      const result: StepResult = {
        step: entry.step,
        where: entry.where,
        command: entry.command,
        ...finished,
        output: entry.running.output(),
        stdout: entry.running.stdout(),
        stderr: entry.running.stderr(),
        ports,
        ms: Date.now() - entry.running.since,
      };
      if (finished.signal === 'SIGKILL')
        throw new Error(`${entry.where}\ndid not stop on Ctrl-C within ${STOP_MS} ms:\n${result.output}`);
      if (await listening(Number(entry.port)))
        throw new Error(`${entry.where}\nstill listens on port ${entry.port} after Ctrl-C:\n${result.output}`);
      results.push(result);
      await options.after?.(result);
    }
  };
  let block = -1;
  try {
    for (const step of steps) {
      if (step.kind === 'file') {
        const where = `${shownPage}:${step.line}: ${step.path}`;
        writeFileStep(options.cwd, step);
        const result: StepResult = {
          step,
          where,
          command: step.path,
          output: '',
          stdout: '',
          stderr: '',
          ports,
          ms: 0,
        };
        results.push(result);
        await options.after?.(result);
        continue;
      }
      if (step.block !== block) {
        await stop(serving.filter((s) => !s.step.keepServing));
        block = step.block;
      }
      const where = `${shownPage}:${step.line}: ${step.command}`;
      const skip = options.skip?.find((s) => s.match.test(step.command));
      if (skip) {
        results.push({
          step,
          where,
          command: step.command,
          skipped: skip.reason,
          output: '',
          stdout: '',
          stderr: '',
          ports,
          ms: 0,
        });
        continue;
      }
      const mapped = withPorts(step.command, ports);
      const command = options.rewrite ? options.rewrite(mapped, step) : mapped;
      const exporting = EXPORT.exec(command);
      if (exporting) {
        const since = Date.now();
        env[exporting[1]!] = exported(command, exporting[1]!, options.cwd, env, where);
        const result: StepResult = {
          step,
          where,
          command,
          status: 0,
          signal: null,
          output: '',
          stdout: '',
          stderr: '',
          ports,
          ms: Date.now() - since,
        };
        results.push(result);
        await options.after?.(result);
        continue;
      }
      if (step.longRunning) {
        const port = PORT.exec(command)?.[1];
        if (port === undefined)
          throw new Error(`${where}: a command that serves until Ctrl-C needs a --port to wait on`);
        // One terminal per port: the reader stops what serves there before serving again.
        await stop(serving.filter((s) => s.port === port));
        const running = start(command, options.cwd, env);
        serving.push({ step, running, where, command, port });
        await untilServing(running, port, options.readyTimeoutMs ?? READY_MS, where);
        continue;
      }
      const running = start(command, options.cwd, env);
      const timer = setTimeout(
        () => process.kill(-running.child.pid!, 'SIGKILL'),
        options.commandTimeoutMs ?? COMMAND_MS,
      );
      const finished = await running.exited;
      clearTimeout(timer);
      const result: StepResult = {
        step,
        where,
        command,
        ...finished,
        output: running.output(),
        stdout: running.stdout(),
        stderr: running.stderr(),
        ports,
        ms: Date.now() - running.since,
      };
      if (finished.status !== step.exits)
        throw new Error(
          `${where}\nexited ${finished.signal ?? finished.status}${step.exits !== 0 ? ` where the page says it exits ${step.exits}` : ''}:\n${result.output}`,
        );
      results.push(result);
      await options.after?.(result);
    }
    await stop([...serving]);
  } finally {
    for (const { running } of serving.splice(0))
      if (running.child.exitCode === null && running.child.signalCode === null)
        process.kill(-running.child.pid!, 'SIGKILL');
  }
  return results;
}

/**
 * The body of the page's fenced block (of any language but a shell's) whose first line starts with
 * `firstLine`: what the page shows a command prints. Throws when there is none, or more than one.
 */
export function shownBlock(page: string, firstLine: string): string {
  const markdown = readFileSync(page, 'utf8');
  const found = fencedBlocks(markdown).filter(
    (b) =>
      !['sh', 'bash', 'shell'].includes(b.language) &&
      (b.body.find((l) => l.trim() !== '') ?? '').startsWith(firstLine),
  );
  if (found.length !== 1)
    throw new Error(`${shownPath(page)}: ${found.length} fenced blocks start with "${firstLine}" (one expected)`);
  return found[0]!.body.join('\n');
}

/**
 * The first line the page shows that `output` does not print (undefined: it prints them all). Each
 * non-blank line shown must be a line of the output, in the same order (other lines may come
 * between); `…` in a shown line stands for any text, and the page's ports are mapped.
 */
export function missingShownLine(
  output: string,
  shown: string,
  ports: ReadonlyMap<string, string> = new Map(),
): string | undefined {
  const lines = output.split(/\r?\n/).map((l) => l.trimEnd());
  let at = 0;
  for (const expected of shown.split(/\r?\n/).filter((l) => l.trim() !== '')) {
    const mapped = withPorts(expected.trimEnd(), ports);
    const pattern = new RegExp(
      `^${mapped
        .split('…')
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
    );
    const found = lines.findIndex((line, i) => i >= at && pattern.test(line));
    if (found < 0) return expected;
    at = found + 1;
  }
  return undefined;
}

/** What a command of the page prints: every `prints` pattern (text: a substring), and the lines of `shows` (see missingShownLine). */
export interface Prints {
  command: RegExp;
  prints?: readonly (RegExp | string)[];
  shows?: string;
}

/**
 * An `after` for followPage that checks each command's output against every row whose `command`
 * matches it (throwing, with the output, at the first miss), and `unmet()`: the rows that met no
 * command that ran (each row must meet one).
 */
export function printsChecker(rows: readonly Prints[]): { after: (result: StepResult) => void; unmet: () => string[] } {
  const met = new Set<Prints>();
  return {
    after(result) {
      if (result.step.kind !== 'command' || result.skipped !== undefined) return;
      for (const row of rows.filter((r) => r.command.test((result.step as CommandStep).command))) {
        met.add(row);
        for (const expected of row.prints ?? []) {
          const ok = typeof expected === 'string' ? result.output.includes(expected) : expected.test(result.output);
          if (!ok) throw new Error(`${result.where}\ndoes not print ${String(expected)}:\n${result.output}`);
        }
        if (row.shows !== undefined) {
          const missing = missingShownLine(result.output, row.shows, result.ports);
          if (missing !== undefined)
            throw new Error(
              `${result.where}\ndoes not print what the page shows, from the line\n  ${missing}\n--- the page shows:\n${row.shows}\n--- it printed:\n${result.output}`,
            );
        }
      }
    },
    unmet: () => rows.filter((r) => !met.has(r)).map((r) => String(r.command)),
  };
}

/**
 * A page test's usual run: {@link followPage} over the page's entry (its path, sections and
 * skips) in the reader's workspace, each step checked against `prints` ({@link printsChecker})
 * and then handed to `after`; throws, naming them, when rows of `prints` matched no command that ran.
 */
export async function followPagePrinting(
  page: { path: string; sections?: readonly string[]; skip: readonly Skip[] },
  reader: { dir: string; env: NodeJS.ProcessEnv },
  prints: readonly Prints[],
  after?: (result: StepResult) => void | Promise<void>,
): Promise<StepResult[]> {
  const check = printsChecker(prints);
  const results = await followPage({
    page: page.path,
    ...(page.sections !== undefined ? { sections: page.sections } : {}),
    skip: page.skip,
    cwd: reader.dir,
    env: reader.env,
    after: async (result) => {
      check.after(result);
      await after?.(result);
    },
  });
  const unmet = check.unmet();
  if (unmet.length > 0)
    throw new Error(
      `${shownPath(page.path)}: no command that ran printed what these rows expect:\n${unmet.join('\n')}`,
    );
  return results;
}
