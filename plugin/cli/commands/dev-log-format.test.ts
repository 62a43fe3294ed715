/**
 * What `agentdef dev` and `agentdef run` (the same supervisor), spawned as users run them (the
 * built package's binary), print of a process host's events:
 * by default one readable line per event (a run starting and ending, the model call, the host
 * stopping), never the host's raw JSON lines mixed into the banner; with `--log-format json`, the
 * host's JSON lines. Neither form ever holds a secret value (the provider key, the receipt key, the
 * card signing key read from the keychain). The card signing key's keychain lookup happens before
 * the host's process guard is armed, so it is not refused (it printed a `spawn.blocked` event, and
 * the key in the keychain never signed the card). An HB3 job of web-summarizer (allowed a
 * container), its OpenAI model a scripted provider on loopback, the keychain a `secret-tool` of the
 * test's own on PATH.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileAgent } from '../../compiler/compile';
import { startScriptedProvider } from '../../runtime/__test-support__/stub-provider';
import { generateReceiptKeyPair } from '../../runtime/receipts';
import { agentdefBin } from '../../../e2e/support/run-cli';
import { runDevCommand } from './dev';

const repoRoot = join(__dirname, '..', '..', '..');
const root = mkdtempSync(join(tmpdir(), 'agentdef-dev-log-format-'));
const outDir = join(root, 'out');
const PROVIDER_KEY = 'sk-proj-devlogformat0123456789ABCDEFabcdef';
let receiptJwk: string;
let receiptD: string;
let cardJwk: string;
let cardD: string;

beforeAll(async () => {
  // web-summarizer, allowed a container, in a workspace of its own (its tool maps to a stub: the model calls none).
  const definition = JSON.parse(readFileSync(join(repoRoot, 'examples/web-summarizer/agent.json'), 'utf8')) as {
    runtimeRequirements: { runtimeCapabilityClass: string };
  };
  definition.runtimeRequirements.runtimeCapabilityClass = 'workers-preferred';
  mkdirSync(join(root, 'agents/summarizer'), { recursive: true });
  mkdirSync(join(root, 'tools'));
  writeFileSync(join(root, 'nx.json'), '{}\n');
  writeFileSync(join(root, 'agents/summarizer/agent.json'), JSON.stringify(definition, null, 2));
  writeFileSync(
    join(root, 'tools.json'),
    JSON.stringify({ tools: { 'web-fetch': { module: './tools/web-fetch.ts', export: 'fetchPage' } } }),
  );
  writeFileSync(
    join(root, 'tools/web-fetch.ts'),
    "export async function fetchPage() {\n  return { text: 'a page' };\n}\n",
  );
  const result = await compileAgent({
    file: 'agents/summarizer/agent.json',
    workspaceRoot: root,
    target: 'hb3',
    outDir,
  });
  if (result.ioError !== undefined || !result.files)
    throw new Error(`compile failed: ${result.ioError ?? JSON.stringify(result.diagnostics)}`);
  const receipt = await generateReceiptKeyPair();
  receiptJwk = JSON.stringify(receipt.privateJwk);
  receiptD = (receipt.privateJwk as { d: string }).d;
  const card = await generateReceiptKeyPair();
  cardJwk = JSON.stringify(card.privateJwk);
  cardD = (card.privateJwk as { d: string }).d;
  // The OS keychain as the key store reads it on Linux and macOS: this key for keyref:acme-agents, nothing else.
  const bin = join(root, 'keychain-bin');
  mkdirSync(bin);
  for (const name of ['secret-tool', 'security']) {
    writeFileSync(
      join(bin, name),
      `#!${process.execPath}\nif (process.argv.includes('key:acme-agents')) { process.stdout.write(${JSON.stringify(cardJwk)}); } else { process.exit(1); }\n`,
    );
    chmodSync(join(bin, name), 0o755);
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Served {
  code: number | null;
  stdout: string;
  stderr: string;
  card: { signatures?: unknown[] };
}

/** The environment of the spawned CLI: this test's HOME, key store, keychain (a `secret-tool` on PATH), secrets and provider. */
function cliEnv(baseUrl: string): NodeJS.ProcessEnv {
  const home = mkdtempSync(join(root, 'home-'));
  return {
    PATH: `${join(root, 'keychain-bin')}:${process.env['PATH'] ?? ''}`,
    HOME: home,
    XDG_STATE_HOME: join(home, 'state'),
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_CACHE_HOME: join(home, 'cache'),
    AGENTDEF_KEYCHAIN: 'on',
    AGENTDEF_SECRET_OPENAI_API_KEY: PROVIDER_KEY,
    AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY: receiptJwk,
    AGENTDEF_BASE_URL_OPENAI: baseUrl,
  };
}

/** Asks the agent at `url` once; the task must complete. */
async function askOnce(url: string): Promise<void> {
  const rpc = await fetch(`${url}/a2a/v1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: {
        message: {
          role: 'ROLE_USER',
          messageId: 'm-log-1',
          parts: [{ text: 'Summarize https://fetch.acme.dev/notes' }],
        },
      },
    }),
  });
  const answer = (await rpc.json()) as { result?: { task?: { status?: { state?: string } } } };
  expect(answer.result?.task?.status?.state).toBe('TASK_STATE_COMPLETED');
}

/**
 * Spawns the real `agentdef` binary (`dev` or `run`) on the job with `args`; once it serves (its
 * banner says so), fetches the card and asks once; then stops it with SIGINT (dev, and a served
 * run) or lets the Job end after its task (run without --serve).
 */
async function serveAndAsk(command: 'dev' | 'run', args: string[], baseUrl: string): Promise<Served> {
  const child = spawn(process.execPath, [agentdefBin, command, outDir, ...args], {
    cwd: root,
    env: cliEnv(baseUrl),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const ended = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const serving = new Promise<string | undefined>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /serves A2A at (http:\/\/127\.0\.0\.1:\d+)\//.exec(stdout)?.[1];
      if (url !== undefined && (command === 'run' || stdout.includes('stop with Ctrl-C'))) resolve(url);
    });
    void ended.then(() => resolve(undefined));
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let card: Served['card'] = {};
  try {
    const url = await serving;
    if (url === undefined) throw new Error(`agentdef ${command} ended before serving:\n${stdout}${stderr}`);
    card = (await (await fetch(`${url}/.well-known/agent-card.json`)).json()) as Served['card'];
    await askOnce(url);
    if (command === 'dev' || args.includes('--serve')) child.kill('SIGINT');
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  const code = await ended;
  return { code, stdout, stderr, card };
}

function expectNoSecret(served: Served): void {
  const all = served.stdout + served.stderr;
  for (const secret of [PROVIDER_KEY, receiptD, cardD, cardJwk, receiptJwk]) expect(all).not.toContain(secret);
}

describe('agentdef dev: the host events it prints', () => {
  it('prints readable lines by default, no raw JSON event, no refused keychain lookup; the keychain key signs the card', async () => {
    const stub = await startScriptedProvider({
      wire: 'openai-chat',
      apiKey: PROVIDER_KEY,
      script: [{ text: 'A short summary.' }],
    });
    try {
      const served = await serveAndAsk('dev', [], stub.baseUrl);
      expect(served.code).toBe(0);
      expect(served.stdout).toContain('web-summarizer@');
      const lines = served.stderr.trimEnd().split('\n');
      expect(lines.filter((line) => line.trimStart().startsWith('{'))).toEqual([]);
      expect(served.stderr).not.toMatch(/spawn\.blocked|process guard refused/);
      expect(served.stderr).toMatch(/^run \S+ started on web-summarizer@\S+/m);
      expect(served.stderr).toMatch(/^run \S+: model call, step 1 \(gpt-\S+\)$/m);
      expect(served.stderr).toMatch(/^run \S+: agent loop ended: answer after 1 step$/m);
      expect(served.stderr).toMatch(/^run \S+ ended: \S+ after \d+ ms$/m);
      expect(lines.slice(-2)).toEqual(['stopping (SIGINT)', 'stopped (SIGINT)']);
      expect(served.card.signatures?.length).toBe(1);
      expect(stub.requests).toHaveLength(1);
      expectNoSecret(served);
    } finally {
      await stub.close();
    }
  });

  it('prints the host JSON lines with --log-format json, still without a secret; a bad value is a usage error', async () => {
    const stub = await startScriptedProvider({
      wire: 'openai-chat',
      apiKey: PROVIDER_KEY,
      script: [{ text: 'A short summary.' }],
    });
    try {
      const served = await serveAndAsk('dev', ['--log-format', 'json'], stub.baseUrl);
      expect(served.code).toBe(0);
      const events = served.stderr
        .trimEnd()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => (JSON.parse(line) as { event: string }).event);
      expect(events).toEqual(
        expect.arrayContaining(['host.ready', 'run.start', 'model.call', 'run.end', 'host.stopping', 'host.stopped']),
      );
      expect(events).not.toContain('spawn.blocked');
      expectNoSecret(served);
    } finally {
      await stub.close();
    }
    let stderr = '';
    // In process: the option's table refuses the value before anything starts.
    const code = await runDevCommand([outDir, '--log-format', 'yaml'], {
      cwd: root,
      stdout: () => {},
      stderr: (s) => (stderr += s),
    });
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /^error: --log-format "yaml" is not allowed\. It must be one of text, json\nusage: agentdef dev /,
    );
  });

  it('agentdef run prints the same readable lines (a Job: it ends after its task), exit 0', async () => {
    const stub = await startScriptedProvider({
      wire: 'openai-chat',
      apiKey: PROVIDER_KEY,
      script: [{ text: 'A short summary.' }],
    });
    try {
      const served = await serveAndAsk('run', [], stub.baseUrl);
      expect(served.code, served.stderr).toBe(0);
      expect(served.stderr.split('\n').filter((line) => line.trimStart().startsWith('{'))).toEqual([]);
      expect(served.stderr).not.toMatch(/spawn\.blocked|process guard refused/);
      expect(served.stderr).toMatch(/^run \S+ started on web-summarizer@\S+/m);
      expect(served.stderr).toMatch(/^run \S+ ended: \S+ after \d+ ms$/m);
      expect(served.card.signatures?.length).toBe(1);
      expectNoSecret(served);
    } finally {
      await stub.close();
    }
  });
});
