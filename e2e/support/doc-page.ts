/**
 * Following a documentation page as a reader does, for tests that run a page's commands as written
 * (markdown-commands.ts reads the steps): in page order, each titled file block is written (whole,
 * or the JSON value at its pointer), each `sh` command runs with `sh -c` in the workspace and must
 * exit 0, each command marked `# serves until Ctrl-C` is left serving (its agent card answering on
 * its `--port`) while the rest of its block runs, then stopped with Ctrl-C (SIGINT to its process
 * group). A failure names the page, the line and the command, with what it printed.
 *
 * Shared by the page tests (e2e/publishing-doc.test.ts; a test over every page can take the same
 * steps): the page's ports can be mapped to free ones (`portMap`, `withPorts`), a command can be
 * left out only with the reason the page gives, and `after` checks what each step printed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { parsePointer } from '../../plugin/definition/json-pointer';
import { type CommandStep, type DocStep, extractSteps, type FileStep } from './markdown-commands';
import { freePort } from './loopback-ports';

export interface StepResult {
  step: DocStep;
  /** `<page>:<line>: <command or file>`, for messages. */
  where: string;
  /** A command's exit status (a long-running one: as it ended after Ctrl-C); undefined for a file. */
  status?: number | null;
  signal?: NodeJS.Signals | null;
  /** What the command printed, stdout then stderr as they came. */
  output: string;
  stdout: string;
  stderr: string;
}

export interface FollowOptions {
  /** The markdown page, absolute. */
  page: string;
  /** The workspace the reader is in. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Only this heading's section. */
  section?: string;
  /**
   * Commands the test leaves out, each with the reason the page itself gives for it (e.g. it needs
   * the network): `reason` must be text of the page, and each entry must match a command.
   */
  skip?: readonly { match: RegExp; reason: string }[];
  /** Rewrites a command before it runs (e.g. `withPorts`). */
  rewrite?: (command: string) => string;
  /** Per command (default 5 minutes; generous, the suite runs on loaded machines). */
  commandTimeoutMs?: number;
  /** How long a long-running command may take to serve (default 2 minutes). */
  readyTimeoutMs?: number;
  /** Called after each step, with what it did: the place to check what the page says it prints. */
  after?: (result: StepResult) => void | Promise<void>;
}

const COMMAND_MS = 300_000;
const READY_MS = 120_000;
const STOP_MS = 20_000;

/** The page's ports (`--port N`, `--port=N`) mapped to free loopback ports. */
export async function portMap(steps: readonly DocStep[]): Promise<Map<string, string>> {
  const map = new Map<string, string>();
  for (const step of steps) {
    if (step.kind !== 'command') continue;
    for (const match of step.command.matchAll(/--port[= ](\d+)/g)) if (!map.has(match[1]!)) map.set(match[1]!, String(await freePort()));
  }
  return map;
}

/** The command with the page's ports (in `--port N`, `--port=N` and `127.0.0.1:N`) replaced by their mapped ones. */
export function withPorts(command: string, ports: ReadonlyMap<string, string>): string {
  return command.replace(/(--port[= ]|127\.0\.0\.1:)(\d+)\b/g, (whole, prefix: string, port: string) => (ports.has(port) ? `${prefix}${ports.get(port)}` : whole));
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
  if (parent === null || typeof parent !== 'object') throw new Error(`line ${step.line}: ${step.path} has no object at ${step.pointer}`);
  (parent as Record<string, unknown>)[last] = JSON.parse(step.content);
  writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);
}

interface Running {
  child: ChildProcess;
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
  const exited = new Promise<{ status: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('close', (status, signal) => resolve({ status, signal })));
  return { child, exited, stdout: () => stdout, stderr: () => stderr, output: () => output };
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
  throw new Error(`${where}: it did not serve on port ${port}${exited ? ' (it exited)' : ` within ${readyMs} ms`}:\n${running.output()}`);
}

/** Ctrl-C: SIGINT to the process group, then SIGKILL past STOP_MS. */
async function interrupt(running: Running): Promise<{ status: number | null; signal: NodeJS.Signals | null }> {
  if (running.child.exitCode === null && running.child.signalCode === null) process.kill(-running.child.pid!, 'SIGINT');
  const timer = setTimeout(() => process.kill(-running.child.pid!, 'SIGKILL'), STOP_MS);
  const finished = await running.exited;
  clearTimeout(timer);
  return finished;
}

/** Carries out the page's steps in order; throws at the first that fails, naming it. Returns every step's result. */
export async function followPage(options: FollowOptions): Promise<StepResult[]> {
  const shownPage = relative(join(__dirname, '..', '..'), options.page);
  const markdown = readFileSync(options.page, 'utf8');
  const steps = extractSteps(markdown, options.section !== undefined ? { section: options.section } : {});
  for (const skip of options.skip ?? []) {
    if (!markdown.includes(skip.reason)) throw new Error(`${shownPage}: a command is left out "${skip.reason}", which the page does not say`);
    if (!steps.some((s) => s.kind === 'command' && skip.match.test(s.command))) throw new Error(`${shownPage}: no command matches ${skip.match}, which the test leaves out`);
  }
  const results: StepResult[] = [];
  const serving: { step: CommandStep; running: Running; where: string }[] = [];
  const stopServing = async () => {
    for (const { step, running, where } of serving.splice(0)) {
      const finished = await interrupt(running);
      const result: StepResult = { step, where, ...finished, output: running.output(), stdout: running.stdout(), stderr: running.stderr() };
      results.push(result);
      await options.after?.(result);
    }
  };
  let block = -1;
  for (const step of steps) {
    if (step.kind === 'file') {
      const where = `${shownPage}:${step.line}: ${step.path}`;
      writeFileStep(options.cwd, step);
      const result: StepResult = { step, where, output: '', stdout: '', stderr: '' };
      results.push(result);
      await options.after?.(result);
      continue;
    }
    if (step.block !== block) {
      await stopServing();
      block = step.block;
    }
    const where = `${shownPage}:${step.line}: ${step.command}`;
    if (options.skip?.some((s) => s.match.test(step.command))) continue;
    const command = options.rewrite ? options.rewrite(step.command) : step.command;
    const running = start(command, options.cwd, options.env);
    if (step.longRunning) {
      const port = /--port[= ](\d+)/.exec(command)?.[1];
      if (port === undefined) throw new Error(`${where}: a command that serves until Ctrl-C needs a --port to wait on`);
      await untilServing(running, port, options.readyTimeoutMs ?? READY_MS, where);
      serving.push({ step, running, where });
      continue;
    }
    const timer = setTimeout(() => process.kill(-running.child.pid!, 'SIGKILL'), options.commandTimeoutMs ?? COMMAND_MS);
    const finished = await running.exited;
    clearTimeout(timer);
    const result: StepResult = { step, where, ...finished, output: running.output(), stdout: running.stdout(), stderr: running.stderr() };
    if (finished.status !== 0) {
      await stopServing();
      throw new Error(`${where}\nexited ${finished.signal ?? finished.status}:\n${result.output}`);
    }
    results.push(result);
    await options.after?.(result);
  }
  await stopServing();
  return results;
}
