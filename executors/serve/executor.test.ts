/**
 * The `serve` executor (`nx run <agent>:serve`): serves the project's compiled output with
 * `agentdef dev` in Nx's own process (no binary on PATH), here a Worker in workerd through
 * miniflare, until interrupted; it succeeds when stopped cleanly and fails, saying why, on bad
 * options or an output that is not there.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { captureOutput } from '../__test-support__/captured-output';
import { executorContext } from '../test-support';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { compileAgent } from '../../plugin/compiler/compile';
import { generateReceiptKeyPair } from '../../plugin/runtime/receipts';
import serveExecutor from './executor';

const REPO = join(__dirname, '..', '..');
let root: string;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'agentdef-serve-executor-'));
  writeFileSync(join(root, 'nx.json'), '{}\n');
  cpSync(join(REPO, 'examples', 'text-stats'), join(root, 'examples', 'text-stats'), { recursive: true });
  cpSync(join(REPO, 'examples', 'tools'), join(root, 'examples', 'tools'), { recursive: true });
  cpSync(join(REPO, 'tools.json'), join(root, 'tools.json'));
  const compiled = await compileAgent({ file: join(root, 'examples/text-stats/agent.json'), workspaceRoot: root });
  expect(compiled.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  expect(compiled.outDir).toBe('dist/agents/text-stats');
  // A local launcher (served through the `agentdef run` host, whose events dev prints).
  cpSync(join(REPO, 'examples', 'code-search'), join(root, 'examples', 'code-search'), { recursive: true });
  writeFileSync(
    join(root, 'mcp.json'),
    JSON.stringify({
      servers: { 'code-search-index': { command: 'node', args: [join(REPO, 'examples/mcp/code-search/server.mjs')] } },
    }),
  );
  const launcher = await compileAgent({ file: join(root, 'examples/code-search/agent.json'), workspaceRoot: root });
  expect(launcher.outDir).toBe('dist/agents/code-search');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

const context = (projectName: string) => executorContext(root, projectName, 'serve');

describe('serve executor', () => {
  it('serves the Worker output of the project until interrupted, answering A2A, and succeeds when stopped', async () => {
    const keys = await generateReceiptKeyPair();
    const saved = { ...process.env };
    Object.assign(process.env, {
      AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY: JSON.stringify(keys.privateJwk),
      AGENTDEF_KEYCHAIN: 'off',
    });
    const out = captureOutput();
    try {
      const running = serveExecutor({}, context('text-stats'));
      for (let i = 0; i < 800 && !out.stdout().includes('stop with Ctrl-C'); i++)
        await new Promise((r) => setTimeout(r, 50));
      const url = /serves A2A at (http:\/\/127\.0\.0\.1:\d+)\//.exec(out.stdout())![1]!;
      const answer = (await (
        await fetch(`${url}/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'SendMessage',
            params: {
              message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'One sentence. Two sentences.' }] },
            },
          }),
        })
      ).json()) as { result: { task: { status: { state: string } } } };
      expect(answer.result.task.status.state).toBe('TASK_STATE_COMPLETED');
      // What Ctrl-C delivers to Nx's process: dev's own listener stops the Worker (miniflare's do not exit the process).
      process.emit('SIGINT', 'SIGINT');
      expect(await running).toEqual({ success: true });
      await expect(fetch(`${url}/.well-known/agent-card.json`)).rejects.toThrow();
    } finally {
      process.env = saved;
    }
  });

  it('replays the models from AGENTDEF_REPLAY (the Nx target reads the same variable as agentdef dev), and fails saying why on a folder that is not there', async () => {
    const keys = await generateReceiptKeyPair();
    const saved = { ...process.env };
    mkdirSync(join(root, 'recordings', 'empty'), { recursive: true });
    Object.assign(process.env, {
      AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY: JSON.stringify(keys.privateJwk),
      AGENTDEF_KEYCHAIN: 'off',
      AGENTDEF_REPLAY: 'recordings/empty',
    });
    const out = captureOutput();
    try {
      const running = serveExecutor({}, context('text-stats'));
      for (let i = 0; i < 800 && !out.stdout().includes('stop with Ctrl-C'); i++)
        await new Promise((r) => setTimeout(r, 50));
      expect(out.stdout()).toContain(
        '  models:     replayed from recordings/empty (0 recorded exchanges; no API key used)',
      );
      process.emit('SIGINT', 'SIGINT');
      expect(await running).toEqual({ success: true });
      process.env['AGENTDEF_REPLAY'] = 'recordings/missing';
      expect(await serveExecutor({}, context('text-stats'))).toEqual({ success: false });
      expect(out.stderr()).toContain('AGENTDEF_REPLAY recordings/missing does not exist');
    } finally {
      process.env = saved;
    }
  });

  it("prints a process host's events as readable lines, and its JSON lines with logFormat json (passed on to agentdef dev)", async () => {
    const keys = await generateReceiptKeyPair();
    const saved = { ...process.env };
    Object.assign(process.env, {
      AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY: JSON.stringify(keys.privateJwk),
      AGENTDEF_KEYCHAIN: 'off',
      AGENTDEF_KEYS_DIR: join(root, 'keys'),
      AGENTDEF_STATE_DIR: join(root, 'state'),
    });
    try {
      for (const logFormat of [undefined, 'json'] as const) {
        vi.restoreAllMocks();
        const out = captureOutput();
        const running = serveExecutor(logFormat === undefined ? {} : { logFormat }, context('code-search'));
        // Until it serves, or it ends (then the check below says what it printed).
        let ended = false;
        void running.finally(() => (ended = true));
        while (!ended && !out.stdout().includes('stop with Ctrl-C')) await new Promise((r) => setTimeout(r, 50));
        expect(out.stdout(), out.stderr()).toContain('stop with Ctrl-C');
        process.emit('SIGINT', 'SIGINT');
        expect(await running).toEqual({ success: true });
        const jsonLines = out
          .stderr()
          .split('\n')
          .filter((line) => line.startsWith('{'));
        if (logFormat === undefined) {
          expect(jsonLines).toEqual([]);
          expect(out.stderr()).toMatch(/^MCP server code-search-index ready/m);
        } else {
          expect(jsonLines.map((line) => (JSON.parse(line) as { event: string }).event)).toEqual(
            expect.arrayContaining(['host.ready', 'mcp.ready']),
          );
          expect(out.stderr()).not.toMatch(/^MCP server code-search-index ready/m);
        }
      }
    } finally {
      process.env = saved;
    }
  });

  it('fails saying why on a bad port or a missing output, serving nothing', async () => {
    const out = captureOutput();
    expect(await serveExecutor({ port: 70_000 }, context('text-stats'))).toEqual({ success: false });
    expect(out.stderr()).toContain('agentdef:serve: ');
    expect(await serveExecutor({}, context('not-compiled'))).toEqual({ success: false });
    expect(out.stderr()).toMatch(/dist\/agents\/not-compiled/);
    expect(out.stdout()).not.toContain('serves A2A');
  });
});
