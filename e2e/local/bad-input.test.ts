/**
 * A launcher that cannot start says why in one line, naming what is missing and how to provide
 * it, exits non-zero, and leaves nothing running: a missing keychain entry, an MCP server that
 * crashes at start, an Ollama that is down, an OLLAMA_HOST that is no URL, a port already taken.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settle } from '../../plugin/hosts/node/__test-support__/process-tree';
import {
  REPO,
  compileExample,
  isolatedEnv,
  receiptKeys,
  scratch,
  startHostProcess,
  writeExecutable,
  type Scratch,
} from './support/host-harness';
import { startStubOllama } from './support/stub-ollama';

let tmp: Scratch;
let key: string;
beforeAll(async () => {
  tmp = scratch('local-bad');
  key = (await receiptKeys()).secret;
  // A workspace whose notes server crashes at start.
  const ws = tmp.path('ws');
  mkdirSync(ws, { recursive: true });
  writeFileSync(join(ws, 'nx.json'), '{}');
  cpSync(join(REPO, 'examples', 'local-notes'), join(ws, 'examples', 'local-notes'), { recursive: true });
  cpSync(join(REPO, 'plugin/hosts/node/__fixtures__/crash-at-start.mjs'), join(ws, 'crash.mjs'));
  writeFileSync(
    join(ws, 'mcp.json'),
    JSON.stringify({ servers: { 'notes-mcp': { command: 'node', args: ['crash.mjs'] } } }),
  );
  await compileExample(join(ws, 'examples/local-notes/agent.json'), 'local-mac', tmp.path('out', 'crashing-notes'), ws);
  await compileExample('code-search', 'local-mac', tmp.path('out', 'code-search'));
  await compileExample('local-notes', 'local-mac', tmp.path('out', 'local-notes'));
});
afterAll(() => tmp.cleanup());

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function launchFailing(out: string, env: NodeJS.ProcessEnv, args: string[] = [], cwd = REPO) {
  const host = startHostProcess([tmp.path('out', out, 'launch.mjs'), ...args], { cwd, env });
  const code = await host.exited;
  const lines = host.stderr().trimEnd().split('\n');
  const mcpPids = [...host.stdout().matchAll(/"event":"mcp\.ready"[^\n]*"pid":(\d+)/g)].map((m) => Number(m[1]));
  return { code, lines, mcpPids, stdout: host.stdout() };
}

describe('a launcher that cannot start', () => {
  it('names a secret missing from the keychain and the environment, after asking the keychain', async () => {
    const bin = tmp.path('keychain-bin');
    const asked = tmp.path('keychain-asked.txt');
    writeExecutable(
      bin,
      'secret-tool',
      `require('node:fs').appendFileSync(${JSON.stringify(asked)}, process.argv.slice(2).join(' ') + '\\n'); process.exit(1);`,
    );
    const env = isolatedEnv(tmp.path('home-1'), { AGENTDEF_KEYCHAIN: 'on', PATH: `${bin}:${process.env['PATH']}` });
    const { code, lines } = await launchFailing('code-search', env);
    expect(code).toBe(78);
    const hint =
      process.platform === 'darwin'
        ? '`security add-generic-password -s agentdef -a AGENTDEF_RECEIPT_KEY -w`'
        : '`secret-tool store --label=agentdef service agentdef name AGENTDEF_RECEIPT_KEY`';
    // The receipt signer is keyref:acme-receipts: the key store (keychain, then keys folder) is asked first, and the error says how to create the key.
    const keysFolder = join(tmp.path('home-1'), '.config', 'agentdef', 'keys');
    expect(lines).toEqual([
      `agentdef: error: secret AGENTDEF_RECEIPT_KEY is not set (code-search@2.1.0 signs its receipts with it): no private key keyref:acme-receipts in the OS keychain or ${keysFolder}: create it with \`agentdef keys generate keyref:acme-receipts\`; or add it with ${hint} or set AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY`,
    ]);
    // The card signing key (optional) is asked for first, before the host arms its process guard
    // (the guard used to refuse that lookup); the key ref it shares with the receipts is asked for
    // once, then the receipt key by its name.
    if (process.platform === 'linux')
      expect(readFileSync(asked, 'utf8')).toBe(
        'lookup service agentdef name AGENTDEF_CARD_SIGNING_KEY\nlookup service agentdef name key:acme-receipts\nlookup service agentdef name AGENTDEF_RECEIPT_KEY\n',
      );
  });

  it('names an MCP server that crashes at start, with its last stderr line', async () => {
    const ollama = await startStubOllama({ models: ['llama3.1:8b'], respond: () => ({ text: 'unused' }) });
    try {
      const env = isolatedEnv(tmp.path('home-2'), {
        AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY: key,
        OLLAMA_HOST: ollama.url,
      });
      const { code, lines } = await launchFailing('crashing-notes', env, [], tmp.path('ws'));
      expect(code).toBe(78);
      expect(lines).toEqual([
        'agentdef: error: MCP server "notes-mcp" (node crash.mjs) exited while starting: notes-mcp: cannot open the index at /nonexistent/notes.db; run it by hand to see why, or fix "servers.notes-mcp" in mcp.json',
      ]);
    } finally {
      await ollama.close();
    }
  });

  it('says how to start Ollama when it is down, before starting any MCP server', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const env = isolatedEnv(tmp.path('home-3'), {
      AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY: key,
      OLLAMA_HOST: `127.0.0.1:${port}`,
    });
    const { code, lines, mcpPids } = await launchFailing('local-notes', env);
    expect(code).toBe(78);
    expect(lines).toEqual([
      `agentdef: error: Ollama is not reachable at http://127.0.0.1:${port} (connection failed; local-notes@0.3.0 needs model llama3.1:8b): start it with \`ollama serve\`, or set OLLAMA_HOST to where it listens`,
    ]);
    expect(mcpPids).toEqual([]);
  });

  it('names an OLLAMA_HOST the URL parser refuses (issue 23), in one line, before starting any MCP server', async () => {
    for (const value of ['http://[::1', 'http://127.0.0.1:99999', 'web.archive.org^1.2.3']) {
      const env = isolatedEnv(tmp.path('home-5'), { AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY: key, OLLAMA_HOST: value });
      const { code, lines, mcpPids } = await launchFailing('local-notes', env);
      expect(code, value).toBe(78);
      expect(lines, value).toEqual([
        expect.stringMatching(
          /^agentdef: error: local-notes@0\.3\.0 cannot start: the base URL of model llama3\.1:8b \(local-ollama\) is not a URL the WHATWG URL parser accepts: .*: it comes from OLLAMA_HOST; /,
        ),
      ]);
      expect(lines[0]).not.toMatch(/internal error/);
      expect(mcpPids).toEqual([]);
    }
  });

  it('names a port already taken, and stops the MCP server it had started', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const env = isolatedEnv(tmp.path('home-4'), { AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY: key });
      const { code, lines, mcpPids } = await launchFailing('code-search', env, ['--port', String(port)]);
      expect(code).toBe(78);
      expect(lines).toEqual([
        `agentdef: error: port ${port} on 127.0.0.1 is already in use: stop the process that holds it, or pass --port <n> (or AGENTDEF_PORT=<n>) with a free port`,
      ]);
      expect(mcpPids).toHaveLength(1);
      expect(await settle(() => mcpPids.filter(alive))).toEqual([]);
    } finally {
      blocker.close();
    }
  });
});
