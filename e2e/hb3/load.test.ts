/**
 * An HB3 container host under load stays up with bounded memory. The compiled entrypoint of
 * fallback-writer (memoryMb 128, so the job spec's 96 MB heap) runs as a real process with that
 * heap limit, against a stub Anthropic model that takes 50 ms a turn, and gets:
 *   - a few hundred sequential requests with large messages (data parts of 200 KB, which the model
 *     answers, and of 1 MB, just under the body limit and past the agent's context budget, which fail before any model call;
 *     before the task store was bounded by bytes, a hundred of these ran the heap out);
 *   - a concurrent flood larger than the host's caps, mixed with bodies over the size limit.
 * Asserted: the host answers its health route throughout and stops cleanly; its resident memory
 * late in the test is within a generous factor of an early sample (a correctness bound, not a
 * timing one); every request answered 200 left exactly one receipt, every refused one (503 with
 * `Retry-After` and a JSON-RPC error, 413) left none.
 */
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedProvider } from '../../plugin/runtime/__test-support__/stub-provider';
import {
  a2aAsk,
  compileExample,
  isolatedEnv,
  readReceipts,
  receiptKeys,
  scratch,
  startHostProcess,
  type Scratch,
} from '../local/support/host-harness';

const ANTHROPIC_KEY = 'sk-ant-load-0123456789';
const ANSWER = JSON.stringify({ path: 'src/big.ts', applied: true, diff: '@@ -1 +1 @@\n-a\n+b\n', lines: 1 });
const SEQUENTIAL = 300;
const FLOOD = 120;

let tmp: Scratch;
beforeAll(async () => {
  tmp = scratch('hb3-load');
  await compileExample('fallback-writer', 'hb3', tmp.path('out'));
});
afterAll(() => tmp.cleanup());

function rssKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+)/m.exec(status)![1]);
}

function sendMessageBody(i: number, sourceBytes: number): string {
  const source = `// file ${i}\n${'const value = 1;\n'.repeat(Math.ceil(sourceBytes / 17))}`.slice(0, sourceBytes);
  return JSON.stringify({
    jsonrpc: '2.0',
    id: i,
    method: 'SendMessage',
    params: {
      message: {
        messageId: `load-${i}`,
        role: 'ROLE_USER',
        parts: [{ data: { path: 'src/big.ts', source, instruction: `rename value (${i})` } }],
      },
    },
  });
}

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: string;
}

/**
 * One POST with node:http on a connection of its own (a refusal may close the connection before the
 * body is sent: the answer still counts). Not on a kept-alive one: on a loaded machine a pause
 * between two requests can outlast the server's keep-alive timeout, and the next request races the
 * idle close (a client-side "socket hang up" that says nothing about the host).
 */
function post(base: string, body: string, headers: Record<string, string> = {}): Promise<Answer> {
  const url = new URL('/a2a/v1', base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], body: text }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', (error) => reject(error));
    req.end(body);
  });
}

describe('an HB3 host with a 96 MB heap under load', () => {
  it('stays up with flat memory, receipts every accepted run and refuses the excess with 503 or 413', async () => {
    const heapMb = (
      JSON.parse(readFileSync(tmp.path('out', 'hb3-job.json'), 'utf8')) as { resources: { heapMb: number } }
    ).resources.heapMb;
    expect(heapMb).toBe(96);
    const model = await startScriptedProvider({
      wire: 'anthropic-messages',
      apiKey: ANTHROPIC_KEY,
      delayMs: 50,
      script: [{ text: ANSWER }],
    });
    const keys = await receiptKeys();
    const receipts = tmp.path('receipts.jsonl');
    const host = startHostProcess([`--max-old-space-size=${heapMb}`, tmp.path('out', 'image', 'entrypoint.mjs')], {
      cwd: tmp.path('out'),
      env: isolatedEnv(tmp.path('home'), {
        HOST: '127.0.0.1',
        PORT: '0',
        AGENTDEF_JOB_MODE: 'serve',
        AGENTDEF_RECEIPTS_FILE: receipts,
        AGENTDEF_RECEIPT_KEY: keys.secret,
        ANTHROPIC_API_KEY: ANTHROPIC_KEY,
        AGENTDEF_BASE_URL_ANTHROPIC: model.url,
      }),
    });
    try {
      const url = await host.ready;
      const pid = host.proc.pid!;
      const healthy = async () => (await fetch(`${url}/healthz`)).status === 200;
      let accepted = 0;
      const refused: number[] = [];

      // The official client still works against the guarded host.
      const { task } = await a2aAsk(url, { path: 'src/a.ts', source: 'a', instruction: 'rename a' }, 'sdk-0');
      expect(task.status?.state, JSON.stringify(task.status)).toBe(3);
      accepted++;

      const sequential = async (from: number, count: number) => {
        for (let i = from; i < from + count; i++) {
          const large = i % 10 !== 0;
          const answer = await post(url, sendMessageBody(i, large ? 950_000 : 200_000));
          expect(answer.status, answer.body.slice(0, 300)).toBe(200);
          const task = JSON.parse(answer.body).result.task;
          expect(task.status.state, JSON.stringify(task.metadata)).toBe(
            large ? 'TASK_STATE_FAILED' : 'TASK_STATE_COMPLETED',
          );
          if (large) expect(task.metadata.errorCode).toBe('context_budget_exceeded');
          accepted++;
          model.requests.length = 0; // the stub keeps what it was sent: not the host's memory
        }
      };
      await sequential(1, 30);
      const early = rssKb(pid);
      await sequential(31, SEQUENTIAL - 30);
      expect(await healthy()).toBe(true);

      // The flood: more than the caps at once, some over the body limit.
      const flood = await Promise.all(
        Array.from({ length: FLOOD }, (_, k) => {
          const i = 10_000 + k;
          return k % 10 === 9 ? post(url, sendMessageBody(i, 1_200_000)) : post(url, sendMessageBody(i, 200_000));
        }),
      );
      for (const [k, answer] of flood.entries()) {
        if (k % 10 === 9) {
          expect(answer.status).toBe(413);
          expect(JSON.parse(answer.body)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
          refused.push(413);
        } else if (answer.status === 503) {
          expect(answer.retryAfter).toBe('1');
          expect(JSON.parse(answer.body)).toMatchObject({
            jsonrpc: '2.0',
            id: null,
            error: { code: -32000, data: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo' }] },
          });
          refused.push(503);
        } else {
          expect(answer.status, answer.body.slice(0, 300)).toBe(200);
          accepted++;
        }
      }
      expect(refused.filter((s) => s === 503).length).toBeGreaterThan(0);
      expect(await healthy()).toBe(true);
      await sequential(20_000, 30);
      const late = rssKb(pid);
      expect(late, `RSS early ${early} kB, late ${late} kB`).toBeLessThan(early * 2);

      expect(await host.stop('SIGTERM')).toBe(0);
      expect(host.stderr()).not.toContain('heap out of memory');
      const written = readReceipts(receipts);
      expect(written).toHaveLength(accepted);
      expect(new Set(written.map((r) => r.runId)).size).toBe(accepted);
    } finally {
      await host.stop('SIGKILL');
      await model.close();
    }
  });
});
