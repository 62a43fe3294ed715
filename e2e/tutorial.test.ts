/**
 * docs/your-first-agent.md, followed as a newcomer follows it: agentdef packed and installed into a
 * fresh Nx workspace, then every step of the page in order (e2e/support/markdown-commands.ts):
 * each `sh` command run with `sh -c` in the workspace (it must exit 0), each titled file block
 * written (whole, or at its JSON Pointer), each `# serves until Ctrl-C` command left serving (the
 * agent card answering on its port) while the rest of its block runs, then stopped with Ctrl-C
 * (nothing listens afterwards). Every `agentdef ask` must end `state: completed`.
 *
 * The model is a local stub speaking Anthropic's Messages API (it checks the API key like the real
 * one): the hosts reach it through AGENTDEF_BASE_URL_ANTHROPIC and the key comes from
 * AGENTDEF_SECRET_ANTHROPIC_API_KEY. The page's ports are mapped to free ones. HOME, the keys
 * folder, state and caches live in the test's temp folder; the keychain is off.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePointer } from '../plugin/definition/json-pointer';
import { startScriptedProvider, type StubServer } from '../plugin/runtime/__test-support__/stub-provider';
import { extractSteps, type CommandStep, type DocStep, type FileStep } from './support/markdown-commands';
import { createWorkspace, nxBin, openWorkspace, packAgentdef, type TempWorkspace } from './support/nx-workspace';
import { freePort, listening } from './support/loopback-ports';

const PAGE = join(__dirname, '..', 'docs', 'your-first-agent.md');
const STUB_API_KEY = 'sk-ant-stub-tutorial-0123456789abcdef';
const COMMAND_MS = 300_000;
const READY_MS = 120_000;
const STOP_MS = 20_000;

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

interface Finished {
  status: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

interface Running {
  child: ChildProcess;
  exited: Promise<Finished>;
  output(): string;
}

/** `sh -c <command>` in its own process group (so Ctrl-C reaches everything it started). */
function start(ws: TempWorkspace, command: string, env: NodeJS.ProcessEnv): Running {
  const child = spawn('sh', ['-c', command], { cwd: ws.dir, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<Finished>((resolve) => child.once('close', (status, signal) => resolve({ status, signal, output })));
  return { child, exited, output: () => output };
}

async function run(ws: TempWorkspace, command: string, env: NodeJS.ProcessEnv): Promise<Finished> {
  const running = start(ws, command, env);
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

/** Every process group this file started, killed if a test left one running. */
const started: ChildProcess[] = [];

/** The model: calls the first tool it is offered with the user's (quoted) text, then answers with what the tool returned. */
function startModelStub(): Promise<StubServer> {
  return startScriptedProvider({
    wire: 'anthropic-messages',
    apiKey: STUB_API_KEY,
    script: (_index, ctx) => {
      const tools = (ctx.body.tools ?? []) as { name: string }[];
      if (ctx.lastToolResults.length > 0 || tools.length === 0) return { text: `The tool says: ${ctx.lastToolResults.join(' ')}` };
      const user = (ctx.body.messages as { role: string; content: unknown }[]).find((m) => m.role === 'user');
      const content = user?.content;
      const said = typeof content === 'string' ? content : Array.isArray(content) ? content.map((part: { text?: string }) => part.text ?? '').join('') : '';
      // What a model does with 'How many words are in "…"?': it counts the quoted text.
      const text = /"([^"]+)"/.exec(said)?.[1] ?? said;
      return { toolCalls: [{ name: tools[0]!.name, arguments: { text } }] };
    },
  });
}

describe('docs/your-first-agent.md, every step in a fresh Nx workspace', { timeout: 1_200_000 }, () => {
  const steps = extractSteps(readFileSync(PAGE, 'utf8'));
  const commands = steps.filter((s): s is CommandStep => s.kind === 'command');
  let ws: TempWorkspace;
  let model: StubServer;

  beforeAll(async () => {
    const created = createWorkspace('tutorial', packAgentdef());
    // A workspace made by create-nx-workspace has nx installed: link the repository's.
    symlinkSync(nxBin, join(created.dir, 'node_modules', '.bin', 'nx'));
    model = await startModelStub();
    ws = openWorkspace(created.dir, created.home, {
      AGENTDEF_KEYCHAIN: 'off',
      AGENTDEF_KEYS_DIR: join(created.home, 'keys'),
      AGENTDEF_STATE_DIR: join(created.home, 'state'),
      WRANGLER_LOG_PATH: join(created.home, 'wrangler-logs'),
      XDG_STATE_HOME: join(created.home, '.local', 'state'),
      npm_config_update_notifier: 'false',
      AGENTDEF_BASE_URL_ANTHROPIC: model.url,
      AGENTDEF_SECRET_ANTHROPIC_API_KEY: STUB_API_KEY,
    });
  });

  afterAll(async () => {
    for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
    await model?.close();
  });

  it('covers the whole journey: generate, compile for every target, serve, ask, deploy dry run', () => {
    const all = commands.map((c) => c.command).join('\n');
    expect(all).toContain('nx g agentdef:init');
    expect(all).toMatch(/nx g agentdef:agent \S+ --kind=tool/);
    expect(all).toMatch(/nx g agentdef:agent \S+ --provider=/);
    expect(all).toMatch(/nx g agentdef:agent \S+ --nodes=/);
    for (const target of ['cloudflare-dynamic-worker', 'hb3', 'local-mac']) expect(all).toContain(`--target ${target}`);
    expect(commands.filter((c) => c.longRunning).length).toBeGreaterThanOrEqual(3);
    expect(all).toMatch(/nx run \S+:serve/);
    expect(commands.filter((c) => /agentdef ask /.test(c.command)).length).toBeGreaterThanOrEqual(3);
    expect(all).toMatch(/agentdef deploy \S+ --dry-run/);
    expect(steps.some((s) => s.kind === 'file' && s.pointer === undefined)).toBe(true);
    expect(steps.some((s) => s.kind === 'file' && s.pointer !== undefined)).toBe(true);
  });

  it('every command succeeds, in order; every served agent answers and stops on Ctrl-C', async () => {
    const ports = await portMap(steps);
    let serving: { running: Running; port: string; step: CommandStep }[] = [];
    const stopServing = async () => {
      for (const { running, port, step } of serving) {
        const stopped = await interrupt(running);
        const where = `line ${step.line}: ${step.command}`;
        expect(stopped.signal === 'SIGKILL', `${where} did not stop on Ctrl-C:\n${stopped.output}`).toBe(false);
        expect(await listening(Number(port)), `${where} still listens after Ctrl-C`).toBe(false);
      }
      serving = [];
    };
    let block = -1;
    for (const step of steps) {
      if (step.kind === 'file') {
        writeStep(ws.dir, step);
        continue;
      }
      if (step.block !== block) await stopServing();
      block = step.block;
      const command = withPorts(step.command, ports);
      const where = `docs/your-first-agent.md:${step.line}: ${command}`;
      if (step.longRunning) {
        const port = /--port[= ](\d+)/.exec(command)?.[1];
        expect(port, `${where}: a command that serves names its --port`).toBeDefined();
        const running = start(ws, command, ws.env);
        serving.push({ running, port: port!, step });
        await untilServing(running, port!);
        continue;
      }
      const finished = await run(ws, command, ws.env);
      expect(finished.status, `${where}\n${finished.output}`).toBe(0);
      if (/agentdef ask /.test(command)) expect(finished.output, `${where}\n${finished.output}`).toMatch(/^state: completed$/m);
    }
    await stopServing();
  });

  it('the agentic steps reached the model with the key and the tool, and got the tool result back', () => {
    const calls = model.requests.filter((r) => r.path === '/v1/messages');
    expect(calls.length).toBeGreaterThanOrEqual(4);
    for (const call of calls) expect(call.headers['x-api-key']).toBe(STUB_API_KEY);
    const offered = calls.flatMap((c) => ((c.body?.tools ?? []) as { name: string }[]).map((t) => t.name));
    expect(offered).toContain('count_words');
    expect(JSON.stringify(calls.map((c) => c.body.messages))).toContain('\\"words\\":4');
  });
});
