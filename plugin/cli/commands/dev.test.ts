/**
 * `agentdef dev`: usage errors, a folder that holds no output, a Worker output served in workerd
 * through its loader (card, an A2A SendMessage, the printed `agentdef ask` line, stop), a Worker
 * whose secret is not set, and a local launcher served through the `agentdef run` host.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileAgent } from '../../compiler/compile';
import type { CompileTarget } from '../../targets/targets';
import { startScriptedProvider } from '../../runtime/__test-support__/stub-provider';
import { generateReceiptKeyPair } from '../../runtime/receipts';
import { type DevControl, runDevCommand } from './dev';
import type { RebuildOutcome } from '../../operations/dev-watch';

const repoRoot = join(__dirname, '..', '..', '..');
const root = mkdtempSync(join(tmpdir(), 'agentdef-cli-dev-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function compileExample(slug: string, target: CompileTarget, outDir: string): Promise<void> {
  const result = await compileAgent({
    file: join(repoRoot, 'examples', slug, 'agent.json'),
    workspaceRoot: repoRoot,
    target,
    outDir,
  });
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  if (result.ioError !== undefined || errors.length > 0 || !result.files)
    throw new Error(`compiling ${slug} failed: ${result.ioError ?? JSON.stringify(errors)}`);
}

beforeAll(async () => {
  await compileExample('text-stats', 'cloudflare-dynamic-worker', join(root, 'worker'));
});

interface DevRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** A running `agentdef dev`: its output so far, its rebuilds (with --watch), and how to stop it. */
interface DevHandle {
  ready: Promise<string>;
  done: Promise<number>;
  stdout(): string;
  stderr(): string;
  /** The next rebuild's outcome (with --watch). */
  nextRebuild(timeoutMs?: number): Promise<RebuildOutcome>;
  rebuilds: RebuildOutcome[];
  stop(): Promise<number>;
}

/** Starts `agentdef dev` in `cwd` without waiting for it to end. */
function startDev(argv: string[], options: { cwd?: string; control?: DevControl } = {}): DevHandle {
  let stdout = '';
  let stderr = '';
  let stop: () => void = () => {};
  const stopped = new Promise<void>((r) => {
    stop = r;
  });
  let onReady: (url: string) => void = () => {};
  const ready = new Promise<string>((r) => {
    onReady = r;
  });
  const rebuilds: RebuildOutcome[] = [];
  const waiters: ((outcome: RebuildOutcome) => void)[] = [];
  const done = runDevCommand(
    argv,
    { cwd: options.cwd ?? root, stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) },
    {
      ...options.control,
      stop: stopped,
      onReady,
      onRebuild: (outcome) => {
        rebuilds.push(outcome);
        waiters.shift()?.(outcome);
      },
    },
  );
  return {
    ready,
    done,
    stdout: () => stdout,
    stderr: () => stderr,
    rebuilds,
    nextRebuild: (timeoutMs = 120_000) =>
      new Promise<RebuildOutcome>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no rebuild within ${timeoutMs} ms:\n${stdout}${stderr}`)),
          timeoutMs,
        );
        waiters.push((outcome) => {
          clearTimeout(timer);
          resolve(outcome);
        });
      }),
    stop: () => {
      stop();
      return done;
    },
  };
}

/** Runs `agentdef dev` in `cwd`; `whileServing` gets the URL once it serves, then the server is stopped. */
async function dev(
  argv: string[],
  options: { cwd?: string; control?: DevControl; whileServing?: (url: string) => Promise<unknown> } = {},
): Promise<DevRun & { served?: unknown }> {
  const handle = startDev(argv, options);
  let served: unknown;
  let failure: unknown;
  void handle.ready
    .then((url) => (options.whileServing ?? (async () => {}))(url))
    .then(
      (value) => (served = value),
      (error: unknown) => (failure = error),
    )
    .finally(() => void handle.stop());
  const code = await handle.done;
  if (failure !== undefined) throw failure;
  return { code, stdout: handle.stdout(), stderr: handle.stderr(), served };
}

async function sendMessage(rpcUrl: string, text: string): Promise<{ state: string; answer: string }> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: { role: 'ROLE_USER', messageId: 'm-dev-1', parts: [{ text }] } },
    }),
  });
  const body = (await response.json()) as {
    result: { task: { status: { state: string }; artifacts?: { parts: { text?: string }[] }[] } };
  };
  return { state: body.result.task.status.state, answer: body.result.task.artifacts?.[0]?.parts[0]?.text ?? '' };
}

async function jsonRpcUrl(url: string): Promise<string> {
  const card = (await (await fetch(`${url}/.well-known/agent-card.json`)).json()) as {
    supportedInterfaces: { url: string; protocolBinding: string }[];
  };
  return card.supportedInterfaces.find((i) => i.protocolBinding === 'JSONRPC')!.url;
}

describe('agentdef dev', () => {
  it('exits 2 with the usage on bad arguments', async () => {
    for (const argv of [
      [],
      ['a', 'b'],
      ['out', '--port', 'http'],
      ['out', '--port', '70000'],
      ['out', '--nope'],
      ['out', '--watch=yes'],
    ]) {
      const result = await dev(argv);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(
        /^error: .*\nusage: agentdef dev <output folder> \[--port n\] \[--watch\] \[--task-store file\|url\] \[--record dir \| --replay dir\] \[--log-format text\|json\]\n$/,
      );
    }
  });

  it('exits 2 naming what to compile when the folder holds no compiled output (also with --watch)', async () => {
    for (const argv of [['dist/agents/nothing'], ['dist/agents/nothing', '--watch']]) {
      const result = await dev(argv);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        `error: ${join(root, 'dist/agents/nothing')} holds no compiled output (no plan.json naming its target): compile the agent first, e.g. agentdef compile <agent.json> --out <folder>\n`,
      );
    }
  });

  it('serves a Worker output through loader.js in workerd, answers A2A, prints the card URL and an ask line, and stops', async () => {
    const result = await dev(['worker'], {
      whileServing: async (url) => {
        expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
        return { url, ...(await sendMessage(await jsonRpcUrl(url), 'Workers run agents.\nAgents call tools.')) };
      },
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const served = result.served as { url: string; state: string; answer: string };
    expect(served.state).toBe('TASK_STATE_COMPLETED');
    expect(JSON.parse(served.answer)).toMatchObject({ words: 6, sentences: 2, lines: 2 });
    expect(result.stdout).toBe(
      [
        `text-stats@1.0.0 (Cloudflare Worker: loader.js with a Worker Loader binding, workerd via miniflare) serves A2A at ${served.url}/`,
        `  agent card: ${served.url}/.well-known/agent-card.json`,
        `  ask it:     agentdef ask ${served.url} 'how long is this release note, and how readable?'`,
        'stop with Ctrl-C',
        '',
      ].join('\n'),
    );
    // stopped: nothing serves there any more
    await expect(fetch(`${served.url}/.well-known/agent-card.json`)).rejects.toThrow();
  });

  it("reroutes an agentic Worker's requests to its public provider with AGENTDEF_BASE_URL_<PROVIDER>, as the process hosts do; a bad override is a usage error", async () => {
    await compileExample('web-summarizer', 'cloudflare-dynamic-worker', join(root, 'worker-agentic'));
    const key = 'sk-dev-test-0123456789abcdef';
    const stub = await startScriptedProvider({
      wire: 'openai-chat',
      apiKey: key,
      script: [{ text: 'A short summary.' }],
    });
    try {
      const receiptKey = JSON.stringify((await generateReceiptKeyPair()).privateJwk);
      const values: Record<string, string> = { OPENAI_API_KEY: key, AGENTDEF_RECEIPT_KEY: receiptKey };
      const secrets = { get: async (name: string) => values[name] };
      const result = await dev(['worker-agentic'], {
        control: { secrets, env: { AGENTDEF_BASE_URL_OPENAI: stub.baseUrl } },
        whileServing: async (url) => sendMessage(await jsonRpcUrl(url), 'Summarize https://fetch.acme.dev/notes'),
      });
      expect(result.stderr).toBe('');
      expect(result.served).toEqual({ state: 'TASK_STATE_COMPLETED', answer: 'A short summary.' });
      expect(stub.requests.map((r) => r.path)).toEqual(['/v1/chat/completions']);
      expect(JSON.stringify(result)).not.toContain(key);
      for (const bad of ['not a url', 'ftp://127.0.0.1/v1', `${stub.url}/other`]) {
        const refused = await dev(['worker-agentic'], { control: { secrets, env: { AGENTDEF_BASE_URL_OPENAI: bad } } });
        expect(refused.code).toBe(2);
        expect(refused.stdout).toBe('');
        expect(refused.stderr).toMatch(
          /^error: AGENTDEF_BASE_URL_OPENAI (is not a URL|must be an http\(s\) URL whose path ends with \/v1 \(like https:\/\/api\.openai\.com\/v1\))\n$/,
        );
      }
    } finally {
      await stub.close();
    }
  });

  it('exits 1 at once, as a process, when the Worker cannot have its port: nothing of workerd keeps it alive', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      const env = { ...process.env, HOME: root, XDG_CACHE_HOME: join(root, 'cache'), AGENTDEF_KEYCHAIN: 'off' };
      const child = spawn(
        process.execPath,
        [join(repoRoot, 'bin', 'agentdef.cjs'), 'dev', join(root, 'worker'), '--port', String(port)],
        { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = await Promise.race([
        new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code))),
        new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 45_000)),
      ]);
      if (exited === 'hung') child.kill('SIGKILL');
      expect(exited).toBe(1);
      expect(stderr).toContain(`error: workerd could not start the Worker on port ${port}`);
    } finally {
      await new Promise<void>((resolve) => taken.close(() => resolve()));
    }
  });

  it('refuses to serve a Worker whose secret is not set, naming it and how to set it', async () => {
    const outDir = join(root, 'worker-with-secret');
    cpSync(join(root, 'worker'), outDir, { recursive: true });
    const plan = JSON.parse(readFileSync(join(outDir, 'host-plan.json'), 'utf8')) as { bindings: unknown[] };
    plan.bindings.push({
      kind: 'secret-ref',
      loader: 'copy-secret',
      name: 'AGENTDEF_RECEIPT_KEY',
      neededBy: ['text-stats@1.0.0'],
      purpose: 'receipt-key',
    });
    writeFileSync(join(outDir, 'host-plan.json'), JSON.stringify(plan));
    const result = await dev(['worker-with-secret'], { control: { secrets: { get: async () => undefined } } });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^error: secret AGENTDEF_RECEIPT_KEY is not set \(the Worker text-stats@1\.0\.0 binds it\): .*AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY\n$/,
    );
  });

  it('--task-store: refused for a Worker output (its tasks live in a Durable Object) and for a URL that is no database, quoting nothing', async () => {
    const worker = await dev(['worker', '--task-store', 'tasks.sqlite']);
    expect(worker.code).toBe(2);
    expect(worker.stderr).toMatch(
      /^error: --task-store is for Node hosts: a cloudflare-dynamic-worker output keeps its tasks in its Durable Object\nusage: agentdef dev /,
    );
    const outDir = join(root, 'launcher-store');
    await compileExample('code-search', 'local-mac', outDir);
    const foreign = await dev([outDir, '--task-store', 'mysql://user:p4ss-w0rd@db.internal/tasks']);
    expect(foreign.code).toBe(2);
    expect(foreign.stderr).toMatch(
      /^error: --task-store: only postgres:\/\/ and postgresql:\/\/ connection strings name a database/,
    );
    expect(foreign.stderr).not.toContain('p4ss-w0rd');
  });

  it('serves a local launcher through the agentdef run host and stops it', async () => {
    const outDir = join(root, 'launcher');
    await compileExample('code-search', 'local-mac', outDir);
    const home = join(root, 'home');
    mkdirSync(home, { recursive: true });
    const keys = await generateReceiptKeyPair();
    const env: NodeJS.ProcessEnv = {
      PATH: process.env['PATH'] ?? '',
      ...(process.env['SWC_NODE_PROJECT'] ? { SWC_NODE_PROJECT: process.env['SWC_NODE_PROJECT'] } : {}),
      HOME: home,
      XDG_STATE_HOME: join(home, '.local', 'state'),
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_CACHE_HOME: join(home, '.cache'),
      AGENTDEF_KEYCHAIN: 'off',
      AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY: JSON.stringify(keys.privateJwk),
    };
    const result = await dev([outDir], {
      cwd: repoRoot,
      control: { env },
      whileServing: async (url) => {
        const card = (await (await fetch(`${url}/.well-known/agent-card.json`)).json()) as { name: string };
        return { url, name: card.name };
      },
    });
    const served = result.served as { url: string; name: string };
    expect(served.name).toBe('Code search');
    expect(result.stdout).toContain(
      `code-search@2.1.0 (local launcher) serves A2A at ${served.url}/\n  agent card: ${served.url}/.well-known/agent-card.json\n`,
    );
    expect(result.stdout).toMatch(
      new RegExp(`  ask it: {5}agentdef ask ${served.url.replaceAll('.', '\\.')} '[^']+'\\nstop with Ctrl-C\\n`),
    );
    expect(result.code).toBe(0);
  });
});

/**
 * A workspace of its own for the watch tests: a tool-only agent (text-stats' definition, any host)
 * whose tool returns a label from a module it imports, so an edit to either shows in the answer.
 */
function watchWorkspace(name: string): { dir: string; definition: string; label: string; tool: string } {
  const dir = join(root, name);
  mkdirSync(join(dir, 'agents', 'echo'), { recursive: true });
  mkdirSync(join(dir, 'tools'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "name": "watch-workspace", "private": true }\n');
  const definition = JSON.parse(readFileSync(join(repoRoot, 'examples', 'text-stats', 'agent.json'), 'utf8')) as {
    identity: { slug: string };
    runtimeRequirements: { runtimeCapabilityClass: string };
    metadata: { provenance: { filePath: string } };
  };
  definition.identity.slug = 'echo-stats';
  definition.runtimeRequirements.runtimeCapabilityClass = 'workers-preferred';
  definition.metadata.provenance.filePath = 'agents/echo/agent.json';
  writeFileSync(join(dir, 'agents', 'echo', 'agent.json'), `${JSON.stringify(definition, null, 2)}\n`);
  writeFileSync(
    join(dir, 'tools.json'),
    `${JSON.stringify({ tools: { 'text-metrics': { module: './tools/metrics.ts', export: 'countText' } } }, null, 2)}\n`,
  );
  writeFileSync(
    join(dir, 'tools', 'metrics.ts'),
    "import { LABEL } from './label';\nexport function countText(args: Record<string, unknown>) {\n  return { label: LABEL, characters: String(args['text']).length, words: 1, sentences: 1 };\n}\n",
  );
  writeFileSync(join(dir, 'tools', 'label.ts'), "export const LABEL = 'first';\n");
  return {
    dir,
    definition: join(dir, 'agents', 'echo', 'agent.json'),
    label: join(dir, 'tools', 'label.ts'),
    tool: join(dir, 'tools', 'metrics.ts'),
  };
}

async function compileInto(workspaceRoot: string, target: CompileTarget, outDir: string): Promise<void> {
  const result = await compileAgent({ file: 'agents/echo/agent.json', workspaceRoot, target, outDir });
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  if (result.ioError !== undefined || errors.length > 0 || !result.files)
    throw new Error(`compiling failed: ${result.ioError ?? JSON.stringify(errors)}`);
}

/** The label the echo tool answered with. */
async function labelOf(url: string): Promise<string> {
  const answer = await sendMessage(await jsonRpcUrl(url), 'Watch this.');
  expect(answer.state).toBe('TASK_STATE_COMPLETED');
  return (JSON.parse(answer.answer) as { label: string }).label;
}

async function skillDescription(url: string): Promise<string> {
  const card = (await (await fetch(`${url}/.well-known/agent-card.json`)).json()) as {
    skills: { description: string }[];
  };
  return card.skills[0]!.description;
}

/** Every file below `dir` with its bytes, to see that nothing changed. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile())
      out[join(entry.parentPath, entry.name)] = readFileSync(join(entry.parentPath, entry.name), 'base64');
  }
  return out;
}

describe('agentdef dev --watch', () => {
  it('refuses an output whose plan.json is missing or names a definition outside the workspace, serving nothing', async () => {
    const ws = watchWorkspace('ws-forged');
    await compileInto(ws.dir, 'cloudflare-dynamic-worker', join(ws.dir, 'dist', 'echo'));
    const before = snapshot(ws.dir);
    const forged = join(ws.dir, 'dist', 'forged');
    cpSync(join(ws.dir, 'dist', 'echo'), forged, { recursive: true });
    const plan = JSON.parse(readFileSync(join(forged, 'plan.json'), 'utf8')) as { nodes: { file: string }[] };
    for (const file of ['../outside/agent.json', '/etc/passwd', 'agents/../../x.json']) {
      plan.nodes[0]!.file = file;
      writeFileSync(join(forged, 'plan.json'), JSON.stringify(plan));
      const result = await dev([forged, '--watch'], { cwd: ws.dir });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `error: ${join(forged, 'plan.json')} names no workspace definition and target to recompile: compile the agent again\nusage: agentdef dev <output folder> [--port n] [--watch] [--task-store file|url] [--record dir | --replay dir] [--log-format text|json]\n`,
      );
    }
    rmSync(join(forged, 'plan.json'));
    {
      const missing = await dev([forged, '--watch'], { cwd: ws.dir });
      expect(missing.code).toBe(2);
      // Without its plan.json a folder is no compile output: the plan names its target.
      expect(missing.stderr).toBe(
        `error: ${forged} holds no compiled output (no plan.json naming its target): compile the agent first, e.g. agentdef compile <agent.json> --out <folder>\n`,
      );
    }
    rmSync(forged, { recursive: true });
    expect(snapshot(ws.dir)).toEqual(before);
  });

  it('recompiles a Worker on a change to the definition, a tool module or its import, and reloads it on the same port; a broken definition keeps the last good build serving', async () => {
    const ws = watchWorkspace('ws-worker');
    const outDir = join(ws.dir, 'dist', 'echo');
    await compileInto(ws.dir, 'cloudflare-dynamic-worker', outDir);
    const handle = startDev(['dist/echo', '--watch'], { cwd: ws.dir });
    try {
      const url = await handle.ready;
      expect(handle.stdout()).toMatch(
        /watching 5 files \(the definitions, tools\.json, mcp\.json, tool modules and their imports\): a change recompiles and reloads\n/,
      );
      expect(await labelOf(url)).toBe('first');

      // a module the tool imports (not named in tools.json): the new behaviour on the same URL
      writeFileSync(ws.label, "export const LABEL = 'second';\n");
      expect(await handle.nextRebuild()).toBe('reloaded');
      expect(await labelOf(url)).toBe('second');

      // the tool module itself
      writeFileSync(ws.tool, readFileSync(ws.tool, 'utf8').replace('label: LABEL', 'label: `${LABEL}!`'));
      expect(await handle.nextRebuild()).toBe('reloaded');
      expect(await labelOf(url)).toBe('second!');

      // the definition: the card changes; a burst of saves is one rebuild
      const good = readFileSync(ws.definition, 'utf8');
      for (const n of [1, 2, 3, 4])
        writeFileSync(ws.definition, good.replace('Counts characters, words', `Counts (edit ${n}) characters, words`));
      expect(await handle.nextRebuild()).toBe('reloaded');
      expect(await skillDescription(url)).toMatch(/^Counts \(edit 4\) characters, words/);
      await new Promise((r) => setTimeout(r, 600));
      expect(handle.rebuilds).toEqual(['reloaded', 'reloaded', 'reloaded']);

      // broken: the diagnostic, nothing written, the last good build still answering
      const output = snapshot(outDir);
      const stderrBefore = handle.stderr().length;
      writeFileSync(ws.definition, good.replace('"versionSemver": "1.0.0"', '"versionSemver": "one"'));
      expect(await handle.nextRebuild()).toBe('compile-failed');
      const printed = handle.stderr().slice(stderrBefore);
      expect(printed).toMatch(/agents\/echo\/agent\.json:\d+:\d+/);
      expect(printed).toContain('versionSemver');
      expect(printed).toMatch(
        /error: the compile failed; still serving the last good build \(fix it and save again\)\n$/,
      );
      expect(snapshot(outDir)).toEqual(output);
      expect(await labelOf(url)).toBe('second!');

      // fixed: it recovers
      writeFileSync(ws.definition, good);
      expect(await handle.nextRebuild()).toBe('reloaded');
      expect(await skillDescription(url)).toMatch(/^Counts characters, words/);
      expect(await labelOf(url)).toBe('second!');
      expect(handle.stdout().match(/^recompiled in \d+ ms, reloaded$/gm)).toHaveLength(4);
    } finally {
      expect(await handle.stop()).toBe(0);
    }
    const url = await handle.ready;
    await expect(fetch(`${url}/.well-known/agent-card.json`)).rejects.toThrow();
    // no clock, no absolute path in what the rebuilds wrote
    const written = Object.entries(snapshot(outDir)).map(([, bytes]) => Buffer.from(bytes, 'base64').toString('utf8'));
    for (const text of written) expect(text).not.toContain(ws.dir);
  });

  it('restarts a local launcher on the same port when a tool module changes, and stops it', async () => {
    const ws = watchWorkspace('ws-local');
    await compileInto(ws.dir, 'local-mac', join(ws.dir, 'dist', 'echo-local'));
    const home = join(ws.dir, 'home');
    mkdirSync(home, { recursive: true });
    const env: NodeJS.ProcessEnv = {
      PATH: process.env['PATH'] ?? '',
      ...(process.env['SWC_NODE_PROJECT'] ? { SWC_NODE_PROJECT: process.env['SWC_NODE_PROJECT'] } : {}),
      HOME: home,
      XDG_STATE_HOME: join(home, '.local', 'state'),
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_CACHE_HOME: join(home, '.cache'),
      AGENTDEF_KEYCHAIN: 'off',
    };
    const handle = startDev(['dist/echo-local', '--watch'], { cwd: ws.dir, control: { env } });
    try {
      const url = await handle.ready;
      expect(await labelOf(url)).toBe('first');
      writeFileSync(ws.tool, readFileSync(ws.tool, 'utf8').replace('label: LABEL', "label: 'from the tool'"));
      expect(await handle.nextRebuild()).toBe('reloaded');
      expect(await labelOf(url)).toBe('from the tool');
      // the serving banner is printed once; each reload is one line
      expect(handle.stdout().match(/serves A2A at/g)).toHaveLength(1);
      expect(handle.stdout()).toMatch(/\nrecompiled in \d+ ms, reloaded\n$/);
    } finally {
      expect(await handle.stop()).toBe(0);
    }
    await expect(fetch(`${await handle.ready}/.well-known/agent-card.json`)).rejects.toThrow();
  });
});
