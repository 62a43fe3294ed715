/**
 * Hostile A2A requests get the same answer on every host, and none of them runs the agent.
 * fallback-writer is compiled for each target and started as it is deployed: the Worker in workerd
 * (miniflare, loader mode), the HB3 entrypoint and the local launcher as real processes (the
 * launcher also with a configured public origin, as a container reached by its service name is).
 *   - deep nesting (10,000 levels in a data part, in message metadata, in params metadata): the
 *     same `-32602` with the same located field on every host, never `-32603`; moderate nesting
 *     answers the same way everywhere too;
 *   - what a web page can send (a cross-site `Origin` with `text/plain` or JSON, no content type,
 *     a declared body over the limit): the same status and bytes on every host (403, 415, 413);
 *   - Node hosts only (a Worker's Host is its route): a forged `Host` (`evil.example`,
 *     `127.0.0.1.evil.example`, `localhost:1@evil.example`, a DNS-rebinding name with the served
 *     port) is refused with 421 for the card and for JSON-RPC; the card's URL never comes from a
 *     Host the host does not serve, and is not publicly cacheable when it depends on the request;
 *   - with `AGENTDEF_PUBLIC_ORIGIN`, the card advertises that origin and its Host is accepted;
 *     a malformed setting stops the start with one clear line.
 * Random JSON-RPC envelopes (the runtime property test's generator) against the HB3 process: always
 * a well-formed JSON-RPC answer, never an internal error. Afterwards every host still answers the
 * official @a2a-js/sdk client, and the receipts count only the runs that were accepted.
 */
import { request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileAgent } from '../../plugin/compiler/compile';
import { answerProblem, jsonRpcBodies } from '../../plugin/runtime/__test-support__/jsonrpc-envelopes';
import { startScriptedProvider } from '../../plugin/runtime/__test-support__/stub-provider';
import { startCompiledWorker, type StartedWorker } from '../worker/support/start-compiled-worker';
import {
  REPO,
  a2aAsk,
  compileExample,
  isolatedEnv,
  readReceipts,
  receiptKeys,
  scratch,
  startHostProcess,
  type RunningHost,
  type Scratch,
} from '../local/support/host-harness';

const ANTHROPIC_KEY = 'sk-ant-hostile-0123456789';
const ANSWER = JSON.stringify({ path: 'src/a.ts', applied: true, diff: '@@ -1 +1 @@\n-a\n+b\n', lines: 1 });
const PUBLIC_ORIGIN = 'http://fallback-writer.agents.internal:8080';
type HostName = 'worker' | 'hb3' | 'local';

let tmp: Scratch;
let model: Awaited<ReturnType<typeof startScriptedProvider>>;
let keys: Awaited<ReturnType<typeof receiptKeys>>;
let worker: StartedWorker;
const processes: Record<'hb3' | 'local' | 'configured', { host: RunningHost; url: string; receipts: string }> =
  {} as never;
const urls = {} as Record<HostName, string>;
let randomRuns = 0;

async function startProcess(name: 'hb3' | 'local' | 'configured', extra: NodeJS.ProcessEnv = {}) {
  const receipts = tmp.path(`${name}-receipts.jsonl`);
  const hb3 = name !== 'local';
  const entry = hb3 ? tmp.path('hb3', 'image', 'entrypoint.mjs') : tmp.path('local', 'launch.mjs');
  const env = hb3
    ? { HOST: '127.0.0.1', PORT: '0', AGENTDEF_RECEIPT_KEY: keys.secret, ANTHROPIC_API_KEY: ANTHROPIC_KEY }
    : { AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY: keys.secret, AGENTDEF_SECRET_ANTHROPIC_API_KEY: ANTHROPIC_KEY };
  const host = startHostProcess([entry, ...(hb3 ? [] : ['--port', '0'])], {
    cwd: REPO,
    env: isolatedEnv(tmp.path(`home-${name}`), {
      ...env,
      AGENTDEF_JOB_MODE: 'serve',
      AGENTDEF_RECEIPTS_FILE: receipts,
      AGENTDEF_BASE_URL_ANTHROPIC: model.url,
      ...extra,
    }),
  });
  processes[name] = { host, url: await host.ready, receipts };
}

beforeAll(async () => {
  tmp = scratch('hostile');
  keys = await receiptKeys();
  model = await startScriptedProvider({
    wire: 'anthropic-messages',
    apiKey: ANTHROPIC_KEY,
    script: [{ text: ANSWER }],
  });
  const compiled = await compileAgent({
    file: 'examples/fallback-writer/agent.json',
    workspaceRoot: REPO,
    target: 'cloudflare-dynamic-worker',
    outDir: tmp.path('worker'),
  });
  expect(compiled.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  await compileExample('fallback-writer', 'hb3', tmp.path('hb3'));
  await compileExample('fallback-writer', 'local-mac', tmp.path('local'));
  worker = await startCompiledWorker(tmp.path('worker'), {
    secrets: { ANTHROPIC_API_KEY: ANTHROPIC_KEY, AGENTDEF_RECEIPT_KEY: keys.secret },
    upstreams: { 'https://api.anthropic.com': model.url },
  });
  await Promise.all([
    startProcess('hb3'),
    startProcess('local'),
    startProcess('configured', { AGENTDEF_PUBLIC_ORIGIN: `${PUBLIC_ORIGIN}, https://console.example.com` }),
  ]);
  urls.worker = worker.url;
  urls.hb3 = processes.hb3.url;
  urls.local = processes.local.url;
});

afterAll(async () => {
  await Promise.all(Object.values(processes).map((p) => p.host.stop('SIGKILL')));
  await worker?.dispose();
  await model?.close();
  tmp.cleanup();
});

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request with node:http, so Host and every other header are exactly what the test says. */
function raw(
  base: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Raw> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {
      ...(options.body !== undefined ? { 'content-length': String(Buffer.byteLength(options.body)) } : {}),
      ...options.headers,
    };
    // A fresh connection per request: a host may close one after refusing a body it did not read,
    // and a keep-alive client racing that close would report "socket hang up" for the next request.
    const req = httpRequest(url, { method: options.method ?? 'GET', headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const send = (
  messageExtra: Record<string, unknown> = {},
  paramsExtra: Record<string, unknown> = {},
  data: unknown = { path: 'src/a.ts', source: 'a', instruction: 'rename a' },
) =>
  `{"jsonrpc":"2.0","id":"deep-1","method":"SendMessage","params":{"message":{"messageId":"m-deep","role":"ROLE_USER","parts":[{"data":${typeof data === 'string' ? data : JSON.stringify(data)}}]${Object.entries(
    messageExtra,
  )
    .map(([k, v]) => `,"${k}":${v as string}`)
    .join('')}}${Object.entries(paramsExtra)
    .map(([k, v]) => `,"${k}":${v as string}`)
    .join('')}}}`;

const nested = (depth: number, open = '[', close = ']') => `${open.repeat(depth)}${close.repeat(depth)}`;
const nestedObjects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/** The same request to every host: their answers (status + parsed body). */
async function onEveryHost(
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string },
) {
  const out = {} as Record<HostName, { status: number; body: any }>;
  for (const name of ['worker', 'hb3', 'local'] as const) {
    const answer = await raw(urls[name], path, options);
    let body: unknown = answer.body;
    try {
      body = JSON.parse(answer.body);
    } catch {
      // keep the text
    }
    out[name] = { status: answer.status, body };
  }
  return out;
}

const JSON_HEADERS = { 'content-type': 'application/json' };

describe('deep nesting in a message', () => {
  it.each([
    ['arrays in a data part', send({}, {}, nested(10_000)), 'params.message.parts[0].data'],
    ['objects in a data part', send({}, {}, nestedObjects(10_000)), 'params.message.parts[0].data'],
    ['message metadata', send({ metadata: `{"x":${nested(10_000)}}` }), 'params.message.metadata.x'],
    ['params metadata', send({}, { metadata: `{"x":${nestedObjects(10_000)}}` }), 'params.metadata.x'],
  ])('answers %s with the same -32602 on every host', async (_what, body, field) => {
    const answers = await onEveryHost('/a2a/v1', { method: 'POST', headers: JSON_HEADERS, body });
    expect(answers.worker.status).toBe(200);
    expect(answers.worker.body).toMatchObject({ jsonrpc: '2.0', id: 'deep-1', error: { code: -32602 } });
    const violation = answers.worker.body.error.data[0].fieldViolations[0];
    expect(violation.field.startsWith(field)).toBe(true);
    expect(violation.description).toContain('deeper than 64 levels');
    expect(answers.hb3).toEqual(answers.worker);
    expect(answers.local).toEqual(answers.worker);
  });

  it('answers nesting within the limit the same on every host (a task, not an error)', async () => {
    const body = send({ metadata: `{"x":${nested(40)}}` });
    const answers = await onEveryHost('/a2a/v1', { method: 'POST', headers: JSON_HEADERS, body });
    for (const name of ['worker', 'hb3', 'local'] as const) {
      expect(answers[name].status).toBe(200);
      expect(answers[name].body.error).toBeUndefined();
      expect(answers[name].body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    }
  });
});

describe('what a web page can send', () => {
  const message = send();
  it.each([
    ['a cross-site text/plain POST', { origin: 'https://evil.example', 'content-type': 'text/plain' }, 403],
    ['a cross-site JSON POST', { origin: 'https://evil.example', 'content-type': 'application/json' }, 403],
    ['an opaque (null) origin', { origin: 'null', 'content-type': 'application/json' }, 403],
    ['a text/plain POST without Origin', { 'content-type': 'text/plain' }, 415],
    ['a form POST', { 'content-type': 'application/x-www-form-urlencoded' }, 415],
    ['a POST without a content type', {}, 415],
  ] as [string, Record<string, string>, number][])(
    'refuses %s the same way on every host, before any run',
    async (_what, headers, status) => {
      const answers = await onEveryHost('/a2a/v1', { method: 'POST', headers, body: message });
      expect(answers.worker.status).toBe(status);
      expect(answers.worker.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
      expect(answers.hb3).toEqual(answers.worker);
      expect(answers.local).toEqual(answers.worker);
    },
  );

  it('refuses a declared body over the limit with 413 on every host', async () => {
    const answers = await onEveryHost('/a2a/v1', {
      method: 'POST',
      headers: JSON_HEADERS,
      body: send({}, {}, { source: 'x'.repeat(1_100_000) }),
    });
    expect(answers.worker).toEqual({
      status: 413,
      body: {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'Request payload too large (the limit is 1048576 bytes)' },
      },
    });
    expect(answers.hb3).toEqual(answers.worker);
    expect(answers.local).toEqual(answers.worker);
  });

  it('accepts application/json with parameters and application/a2a+json', async () => {
    for (const type of ['application/json; charset=utf-8', 'application/a2a+json']) {
      const answers = await onEveryHost('/a2a/v1', { method: 'POST', headers: { 'content-type': type }, body: send() });
      for (const name of ['worker', 'hb3', 'local'] as const)
        expect(answers[name].body.result.task.status.state, `${name} ${type}`).toBe('TASK_STATE_COMPLETED');
    }
  });
});

describe('the Host of a request to a process host', () => {
  const forged = (port: string) => [
    'evil.example',
    '127.0.0.1.evil.example',
    `127.0.0.1.evil.example:${port}`,
    'localhost:1@evil.example',
    `rebind.attacker.example:${port}`,
    '127.0.0.1',
    `localhost:${Number(port) + 1}`,
  ];
  it.each(['hb3', 'local'] as const)(
    'refuses forged and rebinding Host headers on the %s host with 421, for the card and for JSON-RPC',
    async (name) => {
      const base = processes[name].url;
      const port = new URL(base).port;
      for (const host of forged(port)) {
        const card = await raw(base, '/.well-known/agent-card.json', { headers: { host } });
        expect(card.status, host).toBe(421);
        expect(card.body).not.toContain('evil');
        const rpc = await raw(base, '/a2a/v1', { method: 'POST', headers: { host, ...JSON_HEADERS }, body: send() });
        expect(rpc.status, host).toBe(421);
        expect(JSON.parse(rpc.body)).toEqual({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32600, message: 'Misdirected request: the Host is not one this agent serves' },
        });
      }
      for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`]) {
        const card = await raw(base, '/.well-known/agent-card.json', { headers: { host } });
        expect(card.status, host).toBe(200);
        const url = JSON.parse(card.body).supportedInterfaces[0].url as string;
        expect(new URL(url).port).toBe(port);
        expect(['127.0.0.1', 'localhost']).toContain(new URL(url).hostname);
        expect(card.headers['cache-control']).not.toContain('public');
        expect(card.headers['vary']).toBe('Host');
      }
    },
  );

  it('serves the configured public origin: its Host is accepted, the card advertises it and may be cached publicly', async () => {
    const { url: base, receipts } = processes.configured;
    const card = await raw(base, '/.well-known/agent-card.json', { headers: { host: 'evil.example' } });
    expect(card.status).toBe(421);
    const served = await raw(base, '/.well-known/agent-card.json', {
      headers: { host: 'fallback-writer.agents.internal:8080' },
    });
    expect(served.status).toBe(200);
    expect(JSON.parse(served.body).supportedInterfaces.map((i: { url: string }) => i.url)).toEqual([
      `${PUBLIC_ORIGIN}/`,
      `${PUBLIC_ORIGIN}/`,
    ]);
    expect(served.headers['cache-control']).toBe('public, max-age=300');
    // Through loopback too, the card advertises the configured origin, never the request's Host.
    const loopback = JSON.parse((await raw(base, '/.well-known/agent-card.json')).body);
    expect(loopback.supportedInterfaces[0].url).toBe(`${PUBLIC_ORIGIN}/`);
    // A page on a configured origin may call the agent; another may not.
    const allowed = await raw(base, '/a2a/v1', {
      method: 'POST',
      headers: { host: 'fallback-writer.agents.internal:8080', origin: 'https://console.example.com', ...JSON_HEADERS },
      body: send(),
    });
    expect(JSON.parse(allowed.body).result.task.status.state).toBe('TASK_STATE_COMPLETED');
    const refused = await raw(base, '/a2a/v1', {
      method: 'POST',
      headers: {
        host: 'fallback-writer.agents.internal:8080',
        origin: 'https://console.example.com.evil.example',
        ...JSON_HEADERS,
      },
      body: send(),
    });
    expect(refused.status).toBe(403);
    await processes.configured.host.stop('SIGTERM');
    expect(readReceipts(receipts)).toHaveLength(1);
  });

  it.each([
    ['http://user:secret@agents.example.com', 'must not contain a user name or password'],
    ['agents.example.com', 'is not a URL'],
    ['https://agents.example.com/a2a', 'must be an origin only'],
    ['ftp://agents.example.com', 'must use http or https'],
  ])('refuses AGENTDEF_PUBLIC_ORIGIN=%s with one clear start error', async (value, problem) => {
    const host = startHostProcess([tmp.path('hb3', 'image', 'entrypoint.mjs')], {
      cwd: REPO,
      env: isolatedEnv(tmp.path('home-bad'), {
        HOST: '127.0.0.1',
        PORT: '0',
        AGENTDEF_RECEIPT_KEY: keys.secret,
        ANTHROPIC_API_KEY: ANTHROPIC_KEY,
        AGENTDEF_PUBLIC_ORIGIN: value,
      }),
    });
    expect(await host.exited).toBe(78);
    expect(host.stderr()).toContain(`agentdef: error: AGENTDEF_PUBLIC_ORIGIN: `);
    expect(host.stderr()).toContain(problem);
    expect(host.stderr()).not.toContain('secret@');
    expect(host.stderr().trim().split('\n')).toHaveLength(1);
  });
});

describe('random JSON-RPC envelopes against the HB3 process', () => {
  it('always get a well-formed JSON-RPC answer, never an internal error', async () => {
    await fc.assert(
      fc.asyncProperty(jsonRpcBodies, async (body) => {
        const answer = await raw(urls.hb3, '/a2a/v1', { method: 'POST', headers: JSON_HEADERS, body });
        const problem = answerProblem(body, answer.status, answer.body);
        if (problem)
          throw new Error(`${problem}\nrequest: ${body.slice(0, 300)}\nanswer: ${answer.body.slice(0, 300)}`);
        if (answer.body.startsWith('{') && JSON.parse(answer.body).result) randomRuns++;
      }),
      { numRuns: 150 },
    );
    expect(randomRuns).toBeGreaterThan(0);
    expect((await fetch(`${urls.hb3}/healthz`)).status).toBe(200);
  });
});

describe('after the hostile requests', () => {
  it('every host still answers the official client, and only accepted runs left receipts', async () => {
    for (const name of ['worker', 'hb3', 'local'] as const) {
      const { task } = await a2aAsk(
        urls[name],
        { path: 'src/a.ts', source: 'a', instruction: 'rename a' },
        `sdk-${name}`,
      );
      expect(task.status?.state, name).toBe(3);
    }
    // Accepted runs: nesting within the limit (1), two accepted content types (2), the client (1).
    expect(await worker.receipts(4)).toHaveLength(4);
    for (const name of ['hb3', 'local'] as const) {
      expect(await processes[name].host.stop('SIGTERM')).toBe(0);
      expect(readReceipts(processes[name].receipts), name).toHaveLength(4 + (name === 'hb3' ? randomRuns : 0));
    }
  });
});
