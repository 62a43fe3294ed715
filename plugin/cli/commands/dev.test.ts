/**
 * `agentdef dev`: usage errors, a folder that holds no output, a Worker output served in workerd
 * through its loader (card, an A2A SendMessage, the printed `agentdef ask` line, stop), a Worker
 * whose secret is not set, and a local launcher served through the `agentdef run` host.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileAgent } from '../../compiler/compile';
import type { CompileTarget } from '../../compiler/targets';
import { generateReceiptKeyPair } from '../../runtime/receipts';
import { type DevControl, runDevCommand } from './dev';

const repoRoot = join(__dirname, '..', '..', '..');
const root = mkdtempSync(join(tmpdir(), 'agentdef-cli-dev-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function compileExample(slug: string, target: CompileTarget, outDir: string): Promise<void> {
  const result = await compileAgent({ file: join(repoRoot, 'examples', slug, 'agent.json'), workspaceRoot: repoRoot, target, outDir });
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  if (result.ioError !== undefined || errors.length > 0 || !result.files) throw new Error(`compiling ${slug} failed: ${result.ioError ?? JSON.stringify(errors)}`);
}

beforeAll(async () => {
  await compileExample('text-stats', 'cloudflare-dynamic-worker', join(root, 'worker'));
}, 120_000);

interface DevRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `agentdef dev` in `cwd`; `whileServing` gets the URL once it serves, then the server is stopped. */
async function dev(argv: string[], options: { cwd?: string; control?: DevControl; whileServing?: (url: string) => Promise<unknown> } = {}): Promise<DevRun & { served?: unknown }> {
  let stdout = '';
  let stderr = '';
  let stop: () => void = () => {};
  const stopped = new Promise<void>((r) => {
    stop = r;
  });
  let served: unknown;
  let failure: unknown;
  const code = await runDevCommand(
    argv,
    { cwd: options.cwd ?? root, stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) },
    {
      ...options.control,
      stop: stopped,
      onReady: (url) => {
        void (options.whileServing ?? (async () => {}))(url)
          .then(
            (value) => (served = value),
            (error: unknown) => (failure = error),
          )
          .finally(stop);
      },
    },
  );
  if (failure !== undefined) throw failure;
  return { code, stdout, stderr, served };
}

async function sendMessage(rpcUrl: string, text: string): Promise<{ state: string; answer: string }> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: { role: 'ROLE_USER', messageId: 'm-dev-1', parts: [{ text }] } } }),
  });
  const body = (await response.json()) as { result: { task: { status: { state: string }; artifacts?: { parts: { text?: string }[] }[] } } };
  return { state: body.result.task.status.state, answer: body.result.task.artifacts?.[0]?.parts[0]?.text ?? '' };
}

async function jsonRpcUrl(url: string): Promise<string> {
  const card = (await (await fetch(`${url}/.well-known/agent-card.json`)).json()) as { supportedInterfaces: { url: string; protocolBinding: string }[] };
  return card.supportedInterfaces.find((i) => i.protocolBinding === 'JSONRPC')!.url;
}

describe('agentdef dev', () => {
  it('exits 2 with the usage on bad arguments, and says --watch is not supported yet', async () => {
    for (const argv of [[], ['a', 'b'], ['out', '--port', 'http'], ['out', '--port', '70000'], ['out', '--nope']]) {
      const result = await dev(argv);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^error: .*\nusage: agentdef dev <output folder> \[--port n\] {3}\(no --watch yet: recompile, then restart dev\)\n$/);
    }
    const watch = await dev(['out', '--watch']);
    expect(watch.code).toBe(2);
    expect(watch.stderr).toMatch(/^error: --watch is not supported yet: recompile the agent, then restart agentdef dev\n/);
  });

  it('exits 2 naming what to compile when the folder holds no compiled output', async () => {
    const result = await dev(['dist/agents/nothing']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `error: ${join(root, 'dist/agents/nothing')} holds no compiled output (host-plan.json, hb3-job.json or launcher.json): compile the agent first, e.g. agentdef compile <agent.json> --out <folder>\n`,
    );
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
  }, 60_000);

  it('refuses to serve a Worker whose secret is not set, naming it and how to set it', async () => {
    const outDir = join(root, 'worker-with-secret');
    cpSync(join(root, 'worker'), outDir, { recursive: true });
    const plan = JSON.parse(readFileSync(join(outDir, 'host-plan.json'), 'utf8')) as { bindings: unknown[] };
    plan.bindings.push({ kind: 'secret-ref', loader: 'copy-secret', name: 'AGENTDEF_RECEIPT_KEY', neededBy: ['text-stats@1.0.0'], purpose: 'receipt-key' });
    writeFileSync(join(outDir, 'host-plan.json'), JSON.stringify(plan));
    const result = await dev(['worker-with-secret'], { control: { secrets: { get: async () => undefined } } });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: secret AGENTDEF_RECEIPT_KEY is not set \(the Worker text-stats@1\.0\.0 binds it\): .*AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY\n$/);
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
    expect(result.stdout).toContain(`code-search@2.1.0 (local launcher) serves A2A at ${served.url}/\n  agent card: ${served.url}/.well-known/agent-card.json\n`);
    expect(result.stdout).toMatch(new RegExp(`  ask it: {5}agentdef ask ${served.url.replaceAll('.', '\\.')} '[^']+'\\nstop with Ctrl-C\\n`));
    expect(result.code).toBe(0);
  }, 90_000);
});
