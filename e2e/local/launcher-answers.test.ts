/**
 * The local launcher, running for real: stdio MCP servers from examples/ (official SDK server and
 * client), a stub Ollama on loopback, the @a2a-js/sdk client over HTTP. It answers by calling the
 * tool, sends nothing off the machine (every TCP connection it opens is recorded), and on SIGTERM
 * stops its MCP servers, flushes every receipt (each verifies) and exits 0.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyReceipt } from '../../plugin/runtime/receipts';
import { descendantsOf, settle } from '../../plugin/hosts/node/__test-support__/process-tree';
import {
  REPO,
  a2aAsk,
  agentdefRun,
  compileExample,
  isolatedEnv,
  readReceipts,
  receiptKeys,
  scratch,
  startHostProcess,
  type Scratch,
} from './support/host-harness';
import { startStubOllama } from './support/stub-ollama';

let tmp: Scratch;
let keys: Awaited<ReturnType<typeof receiptKeys>>;
beforeAll(async () => {
  tmp = scratch('launcher');
  keys = await receiptKeys();
  await compileExample('code-search', 'local-mac', tmp.path('out', 'code-search'));
  await compileExample('local-notes', 'local-mac', tmp.path('out', 'local-notes'));
});
afterAll(() => tmp.cleanup());

describe('the local launcher', () => {
  it('answers an A2A message by calling the code-search tool on the real stdio MCP server (agentdef run)', async () => {
    const receipts = tmp.path('code-search-receipts.jsonl');
    const env = isolatedEnv(tmp.path('home-1'), { AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY: keys.secret });
    const host = agentdefRun(tmp.path('out', 'code-search'), ['--receipts', receipts], env);
    try {
      const url = await host.ready;
      expect(host.stdout()).toContain(`code-search@2.1.0 (local launcher) serves A2A at ${url}/`);
      const { task, answer, client } = await a2aAsk(url, 'find every caller of createNodes');
      expect((await client.getAgentCard()).name).toBe('Code search');
      expect(task.status?.state).toBe(3); // TASK_STATE_COMPLETED
      const data = JSON.parse(answer!) as {
        results: { path: string; startLine: number; endLine: number; score: number }[];
      };
      expect(data.results.map((r) => r.path)).toEqual([
        'plugin/graph/create-nodes.test.ts',
        'plugin/graph/nx-integration.test.ts',
        'plugin/index.ts',
        'plugin/graph/create-nodes.ts',
      ]);
      for (const r of data.results) expect(r.endLine).toBeGreaterThanOrEqual(r.startLine);
      const servers = () =>
        descendantsOf(host.proc.pid!).filter((p) => p.args.includes('examples/mcp/code-search/server.mjs'));
      expect(servers()).toHaveLength(1);
      expect(await host.stop('SIGINT')).toBe(0);
      expect(await settle(servers)).toEqual([]);
      const written = readReceipts(receipts);
      expect(written.map((r) => [r.runId, r.toolCalls, r.outcome.status])).toEqual([
        [task.id, [{ seq: 1, name: 'search', ok: true }], 'answer'],
      ]);
      expect(await verifyReceipt(written[0], keys.publicJwk)).toBe(true);
    } finally {
      await host.stop('SIGKILL');
    }
  });

  it('calls the local Ollama for its local-ollama pin, uses the notes tool, never leaves the machine, and shuts down cleanly on SIGTERM', async () => {
    const ollama = await startStubOllama({
      models: ['llama3.1:8b'],
      respond: (chat) => {
        const tool = chat.messages.find((m) => m.role === 'tool');
        if (!tool) return { toolCalls: [{ name: 'search_notes', arguments: { query: 'Q3 offsite venue' } }] };
        const match = (JSON.parse(tool.content) as { matches: { file: string; text: string }[] }).matches[0]!;
        return { text: `The Q3 offsite is at ${/the (Quinta da Serra[^,]*)/.exec(match.text)![1]} (${match.file}).` };
      },
    });
    const netlog = tmp.path('netlog.txt');
    const home = tmp.path('home-2');
    const env = isolatedEnv(home, {
      AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY: keys.secret,
      OLLAMA_HOST: `127.0.0.1:${ollama.port}`,
      AGENTDEF_WORKSPACE: REPO,
      NODE_OPTIONS: `--require ${join(__dirname, 'support', 'network-recorder.cjs')}`,
      AGENTDEF_TEST_NETLOG: netlog,
    });
    // The launcher as a LaunchAgent would start it: node launch.mjs, in the workspace.
    const host = startHostProcess([tmp.path('out', 'local-notes', 'launch.mjs'), '--port', '0'], { cwd: REPO, env });
    try {
      const url = await host.ready;
      const asked = await Promise.all([
        a2aAsk(url, 'what did we decide about the Q3 offsite venue?', 'n-1'),
        a2aAsk(url, 'and the venue again?', 'n-2'),
      ]);
      for (const { task } of asked) expect(task.status?.state).toBe(3);
      for (const { answer } of asked)
        expect(answer).toBe('The Q3 offsite is at Quinta da Serra in Sintra (2026-06-12-offsite.md).');
      // What Ollama saw: the tool, then the real notes server's result under its tool name.
      const chats = ollama.chats();
      expect(chats).toHaveLength(4);
      expect(chats[0]!.body.model).toBe('llama3.1:8b');
      expect(chats[0]!.body.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual([
        'search_notes',
      ]);
      const toolMessage = chats
        .find((c) => c.body.messages.some((m: { role: string }) => m.role === 'tool'))!
        .body.messages.find((m: { role: string }) => m.role === 'tool');
      expect(toolMessage).toMatchObject({ tool_name: 'search_notes' });
      expect(toolMessage.content).toContain('Quinta da Serra');

      const servers = () =>
        descendantsOf(host.proc.pid!).filter((p) => p.args.includes('examples/mcp/notes/server.mjs'));
      expect(servers()).toHaveLength(1);
      expect(await host.stop('SIGTERM')).toBe(0);
      expect(host.stdout()).toContain('"event":"host.stopped"');
      expect(await settle(servers)).toEqual([]);

      // Every receipt was flushed to the default JSONL file below the (temp) XDG state folder, and verifies.
      const written = readReceipts(join(home, '.local', 'state', 'agentdef', 'local-notes', 'receipts.jsonl'));
      expect(written.map((r) => r.runId).sort()).toEqual(asked.map((a) => a.task.id).sort());
      for (const r of written) {
        expect(await verifyReceipt(r, keys.publicJwk)).toBe(true);
        expect(r.models).toEqual([
          { role: 'primary', providerId: 'local-ollama', model: 'llama3.1:8b', modelVersion: '8b' },
        ]);
      }

      // Nothing left the machine: every connection the launcher opened went to loopback, Ollama included.
      const destinations = [...new Set(readFileSync(netlog, 'utf8').trim().split('\n'))];
      expect(destinations).toContain(`127.0.0.1:${ollama.port}`);
      for (const d of destinations) expect(d).toMatch(/^(127\.0\.0\.1|localhost|::1|\[::1\]):\d+$|^unix:/);
    } finally {
      await host.stop('SIGKILL');
      await ollama.close();
    }
  });
});
