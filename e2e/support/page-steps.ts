/**
 * Carries out a page's steps (markdown-commands.ts) in a workspace, in order, as a reader does:
 * each `sh` command run with `sh -c` in the workspace, each titled file block written (whole, or
 * at its JSON Pointer), each `# serves until Ctrl-C` command left serving (the agent card
 * answering on its port) while the rest of its block runs, then stopped with Ctrl-C. The page's
 * ports are mapped to free loopback ports. What to check is the caller's: the hooks get every
 * finished command and every stopped server (docs/your-first-agent.md's test checks with them;
 * scripts/record-tutorial.mjs records the page's model exchanges with them).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parsePointer } from '../../plugin/definition/json-pointer';
import { freePort, listening } from './loopback-ports';
import type { CommandStep, DocStep, FileStep } from './markdown-commands';

const COMMAND_MS = 300_000;
const READY_MS = 120_000;
const STOP_MS = 20_000;

export interface Finished {
  status: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

export interface PageHooks {
  /** The command as it runs: ports mapped, and whatever the caller changes (undefined: skip it). */
  command?(command: string, step: CommandStep): string | undefined;
  /** A command that ran to its end. */
  finished(step: CommandStep, command: string, finished: Finished): void;
  /** A serving command after Ctrl-C: whether it stopped (not killed) and whether its port is free. */
  stopped(step: CommandStep, command: string, stopped: Finished, stillListening: boolean): void;
}

/** The page's ports (`--port N`, `--port=N`) mapped to free loopback ports, in every command. */
async function portMap(steps: DocStep[]): Promise<Map<string, string>> {
  const map = new Map<string, string>();
  for (const step of steps) {
    if (step.kind !== 'command') continue;
    for (const match of step.command.matchAll(/--port[= ](\d+)/g)) if (!map.has(match[1]!)) map.set(match[1]!, String(await freePort()));
  }
  return map;
}

function withPorts(command: string, ports: Map<string, string>): string {
  return command.replace(/(--port[= ]|127\.0\.0\.1:)(\d+)\b/g, (whole, prefix: string, port: string) => (ports.has(port) ? `${prefix}${ports.get(port)}` : whole));
}

/** The reader writing a titled block: the whole file, or the JSON value at its pointer. */
function writeStep(root: string, step: FileStep): void {
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
  let parent: any = document;
  for (const segment of segments) parent = parent[segment];
  if (parent === null || typeof parent !== 'object') throw new Error(`line ${step.line}: ${step.path} has no object at ${step.pointer}`);
  parent[last] = JSON.parse(step.content);
  writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);
}

interface Running {
  child: ChildProcess;
  exited: Promise<Finished>;
  output(): string;
}

/** Every process group started, so a caller can kill what a failure left running. */
export const startedGroups: ChildProcess[] = [];

/** `sh -c <command>` in its own process group (so Ctrl-C reaches everything it started). */
function start(dir: string, command: string, env: NodeJS.ProcessEnv): Running {
  const child = spawn('sh', ['-c', command], { cwd: dir, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  startedGroups.push(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<Finished>((resolve) => child.once('close', (status, signal) => resolve({ status, signal, output })));
  return { child, exited, output: () => output };
}

async function run(dir: string, command: string, env: NodeJS.ProcessEnv): Promise<Finished> {
  const running = start(dir, command, env);
  const timer = setTimeout(() => process.kill(-running.child.pid!, 'SIGKILL'), COMMAND_MS);
  const finished = await running.exited;
  clearTimeout(timer);
  return finished;
}

/** Waits until the agent card answers on `port`, or the command exits, or READY_MS pass. */
async function untilServing(running: Running, port: string): Promise<void> {
  const deadline = Date.now() + READY_MS;
  let exited = false;
  void running.exited.then(() => (exited = true));
  while (Date.now() < deadline && !exited) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/.well-known/agent-card.json`);
      if (response.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`it did not serve on port ${port}${exited ? ' (it exited)' : ` within ${READY_MS} ms`}:\n${running.output()}`);
}

/** Ctrl-C: SIGINT to the process group, then SIGKILL past STOP_MS. */
async function interrupt(running: Running): Promise<Finished> {
  if (running.child.exitCode === null && running.child.signalCode === null) process.kill(-running.child.pid!, 'SIGINT');
  const timer = setTimeout(() => process.kill(-running.child.pid!, 'SIGKILL'), STOP_MS);
  const finished = await running.exited;
  clearTimeout(timer);
  return finished;
}

/** Kills every process group a run left behind. */
export function killStarted(): void {
  for (const child of startedGroups.splice(0)) if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
}

/** Every step of `steps` in `dir` with `env`, in order. */
export async function runPageSteps(dir: string, steps: DocStep[], env: NodeJS.ProcessEnv, hooks: PageHooks): Promise<void> {
  const ports = await portMap(steps);
  let serving: { running: Running; port: string; step: CommandStep; command: string }[] = [];
  const stopServing = async () => {
    for (const { running, port, step, command } of serving) {
      const stopped = await interrupt(running);
      hooks.stopped(step, command, stopped, await listening(Number(port)));
    }
    serving = [];
  };
  let block = -1;
  for (const step of steps) {
    if (step.kind === 'file') {
      writeStep(dir, step);
      continue;
    }
    if (step.block !== block) await stopServing();
    block = step.block;
    const mapped = withPorts(step.command, ports);
    const command = hooks.command ? hooks.command(mapped, step) : mapped;
    if (command === undefined) continue;
    if (step.longRunning) {
      const port = /--port[= ](\d+)/.exec(command)?.[1];
      if (port === undefined) throw new Error(`line ${step.line}: ${command}: a command that serves names its --port`);
      const running = start(dir, command, env);
      serving.push({ running, port, step, command });
      await untilServing(running, port);
      continue;
    }
    hooks.finished(step, command, await run(dir, command, env));
  }
  await stopServing();
}
