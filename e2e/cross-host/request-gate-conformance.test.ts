/**
 * One request gate stands in front of every server agentdef starts: the same raw-socket cases
 * (support/gate-cases.ts) get the same statuses from both Node hosts (the HB3 job and the local
 * launcher of fallback-writer, real processes) and from the Worker under `agentdef dev` (workerd
 * through miniflare, behind the gate's Node front), and no refused case reaches the agent: each host has its own stub model,
 * whose calls are counted after every case. Both run with short gate time limits
 * (AGENTDEF_HEADERS_TIMEOUT_MS, AGENTDEF_REQUEST_TIMEOUT_MS), so slow headers and a stalled body
 * are answered 408 and closed within a generous bound, far below the 45 s the review saw.
 * The Worker under dev also gets the review's reproduction on its own: a POST with
 * `Host: evil.example:PORT` and `Origin: http://evil.example:PORT` is refused, its model is not
 * called, and the card served afterwards advertises only the loopback origin.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDevCommand } from '../../plugin/cli/commands/dev';
import { startScriptedProvider } from '../../plugin/runtime/__test-support__/stub-provider';
import {
  REPO,
  compileExample,
  isolatedEnv,
  receiptKeys,
  scratch,
  startHostProcess,
  type RunningHost,
  type Scratch,
} from '../local/support/host-harness';
import { GATE_CASES, type GateCase, type GateTarget, httpRequest, SEND_MESSAGE } from './support/gate-cases';

const ANTHROPIC_KEY = 'sk-ant-gate-0123456789';
const ANSWER = JSON.stringify({ path: 'src/a.ts', applied: true, diff: '@@ -1 +1 @@\n-a\n+b\n', lines: 1 });
const GATE_TIMES = { AGENTDEF_HEADERS_TIMEOUT_MS: '1000', AGENTDEF_REQUEST_TIMEOUT_MS: '2000' };
/** A timed case must be answered and closed well within this (the limits above are 1 s and 2 s). */
const TIMED_BOUND_MS = 30_000;

type Model = Awaited<ReturnType<typeof startScriptedProvider>>;
interface Served {
  target: GateTarget;
  model: Model;
}

let tmp: Scratch;
let hb3: RunningHost;
let local: RunningHost;
let stopDev: () => void = () => {};
let devDone: Promise<number> | undefined;
let devStderr = '';
const SERVERS = ['hb3', 'local', 'worker'] as const;
const served = {} as Record<(typeof SERVERS)[number], Served>;

const startModel = () =>
  startScriptedProvider({ wire: 'anthropic-messages', apiKey: ANTHROPIC_KEY, script: [{ text: ANSWER }] });
const targetOf = (url: string): GateTarget => {
  const port = Number(new URL(url).port);
  return { port, own: `127.0.0.1:${port}` };
};

beforeAll(async () => {
  tmp = scratch('gate');
  const keys = await receiptKeys();
  await compileExample('fallback-writer', 'hb3', tmp.path('hb3'));
  await compileExample('fallback-writer', 'local-mac', tmp.path('local'));
  await compileExample('fallback-writer', 'cloudflare-dynamic-worker', tmp.path('worker'));
  const [hb3Model, localModel, workerModel] = await Promise.all([startModel(), startModel(), startModel()]);
  hb3 = startHostProcess([tmp.path('hb3', 'image', 'entrypoint.mjs')], {
    cwd: REPO,
    env: isolatedEnv(tmp.path('home-hb3'), {
      HOST: '127.0.0.1',
      PORT: '0',
      AGENTDEF_RECEIPT_KEY: keys.secret,
      ANTHROPIC_API_KEY: ANTHROPIC_KEY,
      AGENTDEF_JOB_MODE: 'serve',
      AGENTDEF_RECEIPTS_FILE: tmp.path('hb3-receipts.jsonl'),
      AGENTDEF_BASE_URL_ANTHROPIC: hb3Model.url,
      ...GATE_TIMES,
    }),
  });
  // The local launcher as a LaunchAgent starts it: node launch.mjs.
  local = startHostProcess([tmp.path('local', 'launch.mjs'), '--port', '0'], {
    cwd: REPO,
    env: isolatedEnv(tmp.path('home-local'), {
      AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY: keys.secret,
      AGENTDEF_SECRET_ANTHROPIC_API_KEY: ANTHROPIC_KEY,
      AGENTDEF_RECEIPTS_FILE: tmp.path('local-receipts.jsonl'),
      AGENTDEF_BASE_URL_ANTHROPIC: localModel.url,
      ...GATE_TIMES,
    }),
  });
  // `agentdef dev <worker output>`, as a person runs it (in this process).
  const secrets: Record<string, string> = { ANTHROPIC_API_KEY: ANTHROPIC_KEY, AGENTDEF_RECEIPT_KEY: keys.secret };
  const devReady = new Promise<string>((resolve) => {
    devDone = runDevCommand(
      [tmp.path('worker')],
      { cwd: tmp.dir, stdout: () => {}, stderr: (s) => (devStderr += s) },
      {
        stop: new Promise<void>((stop) => (stopDev = stop)),
        onReady: resolve,
        secrets: { get: async (name: string) => secrets[name] },
        env: {
          ...isolatedEnv(tmp.path('home-dev')),
          WRANGLER_LOG_PATH: tmp.path('wrangler-logs'),
          AGENTDEF_BASE_URL_ANTHROPIC: workerModel.url,
          ...GATE_TIMES,
        },
      },
    );
  });
  served.hb3 = { target: targetOf(await hb3.ready), model: hb3Model };
  served.local = { target: targetOf(await local.ready), model: localModel };
  served.worker = { target: targetOf(await devReady), model: workerModel };
});

afterAll(async () => {
  stopDev();
  await devDone;
  await hb3?.stop('SIGKILL');
  await local?.stop('SIGKILL');
  for (const s of Object.values(served)) await s.model.close();
  tmp?.cleanup();
});

interface Exchange {
  /** Every byte the server sent. */
  answer: string;
  /** The statuses of the responses in it, in order. */
  statuses: number[];
  /** Whether the server closed the connection (false: the bound passed first). */
  closed: boolean;
  ms: number;
}

/** Sends a case's parts on a fresh connection to 127.0.0.1 and collects the answer until the server closes it. */
function exchange(port: number, parts: string[]): Promise<Exchange> {
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    let closed = false;
    const finish = () =>
      resolve({
        answer,
        statuses: [...answer.matchAll(/HTTP\/1\.[01] (\d{3}) /g)].map((m) => Number(m[1])),
        closed,
        ms: Date.now() - started,
      });
    const bound = setTimeout(() => {
      socket.destroy();
      finish();
    }, TIMED_BOUND_MS);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (answer += chunk));
    // A server that refuses a body mid-send may reset the connection: what it answered is kept.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closed = true;
      clearTimeout(bound);
      finish();
    });
    socket.once('connect', async () => {
      for (const part of parts) {
        if (socket.destroyed) break;
        if (!socket.write(part, 'latin1')) await new Promise((r) => socket.once('drain', r).once('close', r));
      }
    });
  });
}

/** Waits until the model has had `count` calls (a run that was accepted), or a generous while passes. */
async function modelCalls(model: Model, count: number): Promise<number> {
  const deadline = Date.now() + 20_000;
  while (model.requests.length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return model.requests.length;
}

/** Runs one case against one server: the statuses, no model call unless the case is accepted, the checks. */
async function runCase(host: Served, gateCase: GateCase) {
  const before = host.model.requests.length;
  const { parts } = gateCase.send(host.target);
  const result = await exchange(host.target.port, parts);
  const shown = `${gateCase.name}: ${JSON.stringify(result.answer.slice(0, 600))}`;
  expect(result.statuses, shown).toEqual(gateCase.statuses);
  expect(result.closed, `${gateCase.name}: the server closed the connection`).toBe(true);
  if (gateCase.timed) expect(result.ms, gateCase.name).toBeLessThan(TIMED_BOUND_MS);
  const last = gateCase.statuses.at(-1)!;
  if (last >= 400 && last !== 503) {
    // A refusal carries the gate's JSON-RPC error (the same bytes on every server).
    expect(result.answer, shown).toContain('"error":{"code":-32600,"message":');
  }
  expect(gateCase.check?.(result.answer, host.target), shown).toBeUndefined();
  const expected = before + (gateCase.modelCalls ?? 0);
  expect(await modelCalls(host.model, expected), `${gateCase.name}: model calls`).toBe(expected);
  return result;
}

describe('the request gate answers the same raw requests the same way on every server', () => {
  it('has one table of cases, with names that tell them apart', () => {
    expect(GATE_CASES.length).toBeGreaterThanOrEqual(56);
    expect(new Set(GATE_CASES.map((c) => c.name)).size).toBe(GATE_CASES.length);
    expect(GATE_CASES.filter((c) => (c.modelCalls ?? 0) === 0).length).toBeGreaterThan(50);
  });

  describe.each(SERVERS)('on the %s server', (name) => {
    it.each(GATE_CASES.map((c) => [c.name, c] as const))('%s', async (_name, gateCase) => {
      await runCase(served[name], gateCase);
    });
  });

  it('answers each case with the same status line and refusal body on every server', async () => {
    for (const gateCase of GATE_CASES.filter((c) => !c.timed && (c.modelCalls ?? 0) === 0)) {
      const [hb3Answer, ...others] = await Promise.all(
        SERVERS.map(async (name) => {
          const { parts } = gateCase.send(served[name].target);
          const { answer } = await exchange(served[name].target.port, parts);
          // The port differs between the servers; the status lines and the refusal bodies do not.
          const status = answer.split('\r\n', 1)[0];
          const refusal = /\{"jsonrpc":"2\.0","id":null,"error":\{[^}]*\}\}/.exec(answer)?.[0];
          return { status, refusal };
        }),
      );
      for (const other of others) expect(other, gateCase.name).toEqual(hb3Answer);
    }
  });
});

describe('the review reproduction on the Worker under agentdef dev (DNS rebinding)', () => {
  it('refuses a POST with Host and Origin evil.example:PORT, calls no model, and its card names only the loopback origin', async () => {
    const { target, model } = served.worker;
    const before = model.requests.length;
    const attack = await exchange(target.port, [
      httpRequest(target, {
        host: `evil.example:${target.port}`,
        lines: [`Origin: http://evil.example:${target.port}`],
        body: SEND_MESSAGE,
      }),
    ]);
    expect(attack.statuses).toEqual([421]);
    expect(attack.answer).toContain('Misdirected request: the Host is not one this agent serves');
    // A foreign Host on the card is refused too: the card is never built from it.
    const foreignCard = await exchange(target.port, [
      httpRequest(target, {
        method: 'GET',
        target: '/.well-known/agent-card.json',
        host: `evil.example:${target.port}`,
      }),
    ]);
    expect(foreignCard.statuses).toEqual([421]);
    expect(foreignCard.answer).not.toContain('evil.example');
    const card = await (await fetch(`http://${target.own}/.well-known/agent-card.json`)).text();
    expect(card).not.toContain('evil.example');
    expect(card).toContain(`"http://${target.own}/`);
    // The model was never called by the refused requests; an allowed request still runs the agent.
    expect(model.requests.length).toBe(before);
    const allowed = await exchange(target.port, [httpRequest(target)]);
    expect(allowed.statuses).toEqual([200]);
    expect(allowed.answer).toContain('TASK_STATE_COMPLETED');
    expect(await modelCalls(model, before + 1)).toBe(before + 1);
    expect(devStderr).toBe('');
  });
});
