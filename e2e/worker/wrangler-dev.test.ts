/**
 * The pinned wrangler (4.86.0) runs a generated Worker: `wrangler dev --local` on the emitted
 * `wrangler.jsonc` starts (its workerd accepts the compatibility date we emit), serves the card
 * and answers an A2A SendMessage from the @a2a-js/sdk client. Offline: loopback only, wrangler's
 * logs, config, caches and temp files inside the test folder, no metrics, no banner (so no update
 * check), no `Request.cf` fetch.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPATIBILITY_DATE } from '../../plugin/targets/cloudflare-dynamic-worker/worker-constants';
import { askWithSdk } from './support/a2a-client';
import { compileWorker, exampleWorkspace, repoRoot, type ExampleWorkspace } from './support/example-workspace';

let ws: ExampleWorkspace;
let home: string;
let wrangler: ChildProcess | undefined;
let output = '';

function freeLoopbackPort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

async function waitForCard(url: string, timeoutMs: number): Promise<Response> {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  while (Date.now() < deadline) {
    if (wrangler?.exitCode !== null) throw new Error(`wrangler dev exited (${wrangler?.exitCode}):\n${output}`);
    try {
      const response = await fetch(`${url}/.well-known/agent-card.json`);
      if (response.ok) return response;
      lastError = `HTTP ${response.status}`;
    } catch (error) {
      lastError = (error as Error).message;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`wrangler dev did not serve the card within ${timeoutMs} ms (${lastError}):\n${output}`);
}

beforeAll(() => {
  ws = exampleWorkspace('wrangler-dev');
  home = mkdtempSync(join(tmpdir(), 'agentdef-wrangler-dev-'));
});
afterAll(async () => {
  if (wrangler && wrangler.exitCode === null) {
    const exited = new Promise((r) => wrangler!.once('exit', r));
    wrangler.kill('SIGINT');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (wrangler.exitCode === null) wrangler.kill('SIGKILL');
  }
  ws.remove();
  rmSync(home, { recursive: true, force: true });
});

describe('wrangler dev on a generated wrangler.jsonc', () => {
  it('starts offline with the emitted compatibility date and answers an A2A SendMessage', async () => {
    const compiled = await compileWorker(ws.root, 'text-stats');
    expect(compiled.result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(compiled.files.get('wrangler.jsonc')).toContain(`"compatibility_date": "${COMPATIBILITY_DATE}"`);
    for (const folder of ['config', 'cache', 'tmp', 'logs']) mkdirSync(join(home, folder), { recursive: true });
    const port = await freeLoopbackPort();
    const binary = join(repoRoot, 'node_modules', '.bin', process.platform === 'win32' ? 'wrangler.cmd' : 'wrangler');
    wrangler = spawn(
      binary,
      [
        'dev',
        '--config',
        join(compiled.outDir, 'wrangler.jsonc'),
        '--local',
        '--ip',
        '127.0.0.1',
        '--port',
        String(port),
      ],
      {
        cwd: compiled.outDir,
        env: {
          PATH: process.env['PATH'] ?? '',
          HOME: home,
          XDG_CONFIG_HOME: join(home, 'config'),
          XDG_CACHE_HOME: join(home, 'cache'),
          TMPDIR: join(home, 'tmp'),
          WRANGLER_LOG_PATH: join(home, 'logs'),
          WRANGLER_SEND_METRICS: 'false',
          WRANGLER_HIDE_BANNER: 'true',
          CLOUDFLARE_CF_FETCH_ENABLED: 'false',
          CI: 'true',
          NO_COLOR: '1',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    wrangler.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    wrangler.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));

    const url = `http://127.0.0.1:${port}`;
    const card = (await (await waitForCard(url, 60_000)).json()) as { name: string };
    expect(card.name).toBe('Text stats');

    const answer = await askWithSdk(url, 'Workers run agents.\nAgents call tools.');
    expect(answer.state).toBe(3); // TASK_STATE_COMPLETED
    expect(JSON.parse(answer.text)).toMatchObject({ words: 6, sentences: 2, lines: 2 });
    expect(output).not.toMatch(/compatibility date|Unable to fetch the `Request.cf`/i);
  });
});
