/**
 * The `run` executor and the inferred `run` target: `nx run <agent>:run` compiles first
 * (dependsOn compile), then serves the compiled output on loopback until it stops.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { executorContext } from '../test-support';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { compileAgent } from '../../plugin/compiler/compile';
import { createAgentNodes } from '../../plugin/graph/create-nodes';
import { descendantsOf } from '../../plugin/hosts/node/__test-support__/process-tree';
import { generateReceiptKeyPair } from '../../plugin/runtime/receipts';
import runExecutor from './executor';

const REPO = join(__dirname, '..', '..');
let root: string;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'agentdef-run-executor-'));
  writeFileSync(join(root, 'nx.json'), '{}\n');
  cpSync(join(REPO, 'examples', 'code-search'), join(root, 'examples', 'code-search'), { recursive: true });
  writeFileSync(
    join(root, 'mcp.json'),
    JSON.stringify({
      servers: { 'code-search-index': { command: 'node', args: [join(REPO, 'examples/mcp/code-search/server.mjs')] } },
    }),
  );
  const compiled = await compileAgent({ file: join(root, 'examples/code-search/agent.json'), workspaceRoot: root });
  expect(compiled.outDir).toBe('dist/agents/code-search');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

const context = (projectName: string) => executorContext(root, projectName, 'run');

describe('run executor', () => {
  /** Runs the executor with `options` until it serves, checks the card, stops the launcher; returns what it printed. */
  async function serveOnce(options: Parameters<typeof runExecutor>[0]): Promise<{ stdout: string; stderr: string }> {
    const keys = await generateReceiptKeyPair();
    const saved = { ...process.env };
    Object.assign(process.env, {
      AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY: JSON.stringify(keys.privateJwk),
      AGENTDEF_KEYCHAIN: 'off',
      AGENTDEF_KEYS_DIR: join(root, 'keys'),
      AGENTDEF_STATE_DIR: join(root, 'state'),
    });
    let printed = '';
    let errors = '';
    vi.spyOn(process.stdout, 'write').mockImplementation(
      (chunk: string | Uint8Array) => ((printed += chunk.toString()), true),
    );
    vi.spyOn(process.stderr, 'write').mockImplementation(
      (chunk: string | Uint8Array) => ((errors += chunk.toString()), true),
    );
    try {
      const running = runExecutor(options, context('code-search'));
      // Until it serves, or it ends (then the match below fails, with what it printed).
      let ended = false;
      void running.finally(() => (ended = true));
      while (!ended && !printed.includes('serves A2A at')) await new Promise((r) => setTimeout(r, 50));
      expect(printed, errors).toContain('serves A2A at');
      const url = /serves A2A at (http:\/\/127\.0\.0\.1:\d+)\//.exec(printed)![1]!;
      const card = (await (await fetch(`${url}/.well-known/agent-card.json`)).json()) as { name: string };
      expect(card.name).toBe('Code search');
      const launcher = descendantsOf(process.pid).find((p) => p.args.includes('launch.mjs'))!;
      process.kill(launcher.pid, 'SIGTERM');
      expect(await running).toEqual({ success: true });
      return { stdout: printed, stderr: errors };
    } finally {
      vi.restoreAllMocks();
      process.env = saved;
    }
  }

  it('serves the compiled output of the project on loopback and succeeds when it stops cleanly, printing the host events as readable lines', async () => {
    const { stderr } = await serveOnce({});
    expect(stderr).toMatch(/^MCP server code-search-index ready/m);
    expect(stderr).toMatch(/^stopping \(SIGTERM\)$/m);
    expect(stderr.split('\n').filter((line) => line.startsWith('{'))).toEqual([]);
  });

  it('passes logFormat json on: the host JSON event lines, as `agentdef run --log-format json` prints them', async () => {
    const { stderr } = await serveOnce({ logFormat: 'json' });
    const events = stderr
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => (JSON.parse(line) as { event: string }).event);
    expect(events).toEqual(expect.arrayContaining(['host.ready', 'mcp.ready', 'host.stopping']));
    expect(stderr).not.toMatch(/^MCP server code-search-index ready/m);
  });

  it('fails when there is no compiled output', async () => {
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(await runExecutor({ outputPath: 'dist/agents/nothing' }, context('nothing'))).toEqual({ success: false });
  });
});

describe('the inferred run target', () => {
  it('runs the compile output after compiling, and is never cached', async () => {
    // `run` is an operational target: inferred with the plugin option, as `nx g agentdef:init` registers it.
    const results = await createAgentNodes(['examples/code-search/agent.json'], { operationalTargets: true }, {
      workspaceRoot: root,
      nxJsonConfiguration: {},
    } as never);
    const project = results[0]![1].projects!['examples/code-search']!;
    expect(project.targets!['run']).toEqual({
      executor: 'agentdef:run',
      options: { outputPath: 'dist/agents/{projectName}' },
      dependsOn: ['compile'],
      cache: false,
      metadata: {
        description:
          'Runs the compiled agent on this machine (HB3 job or local launcher), serving A2A on a loopback port',
        technologies: ['agentdef'],
      },
    });
    const renamed = await createAgentNodes(
      ['examples/code-search/agent.json'],
      { operationalTargets: true, targetNames: { compile: 'run' } },
      {
        workspaceRoot: root,
        nxJsonConfiguration: {},
      } as never,
    );
    expect(renamed[0]![1].projects!['examples/code-search']!.targets!['run']!.executor).toBe('agentdef:compile');
  });
});
