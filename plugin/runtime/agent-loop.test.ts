import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ADD_TOOL,
  MUL_TOOL,
  TEST_KEY,
  agenticConfig,
  calcTools,
  memorySink,
  toolOnlyConfig,
} from './__test-support__/configs';
import type { ScriptTurn, StubServer, TurnContext, Wire } from './__test-support__/stub-provider';
import { sendJson, startScriptedProvider, startServer } from './__test-support__/stub-provider';
import type { RuntimeLogEvent, ToolHandler } from './agent-loop';
import { ELIDED_RESULT } from './compaction';
import type { Receipt } from './receipts';
import { generateReceiptKeyPair, verifyReceipt } from './receipts';
import type { RunDeps } from './run-agent';
import { runAgent } from './run-agent';
import type { RuntimeConfig, RuntimeTool } from './runtime-config';
import { DEFAULT_LIMITS } from './runtime-config';

const servers: StubServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

let keys: { privateJwk: JsonWebKey; publicJwk: JsonWebKey };
beforeAll(async () => {
  keys = await generateReceiptKeyPair();
});

const SECRETS = { OPENAI_API_KEY: TEST_KEY, ANTHROPIC_API_KEY: TEST_KEY };

function harness(extra: Partial<RunDeps> = {}) {
  const logs: RuntimeLogEvent[] = [];
  const sink = memorySink();
  const deps: RunDeps = {
    secrets: SECRETS,
    tools: calcTools,
    receipts: { signingKey: keys.privateJwk, sink },
    log: (e) => logs.push(e),
    ...extra,
  };
  return { deps, logs, sink };
}

async function provider(wire: Wire, script: ScriptTurn[] | ((i: number, ctx: TurnContext) => ScriptTurn)) {
  const stub = await startScriptedProvider({ wire, ...(wire === 'ollama-chat' ? {} : { apiKey: TEST_KEY }), script });
  servers.push(stub);
  return stub;
}

/** Lets the receipt sink's microtask run. */
const settle = () => new Promise((r) => setTimeout(r, 10));

describe('tool-only configs', () => {
  it('route the skill straight to its tool, with no model', async () => {
    const { deps, sink } = harness();
    const result = await runAgent(toolOnlyConfig(), { text: '', data: { a: 2, b: 40 } }, deps);
    expect(result.stopReason).toBe('answer');
    expect(result.answer).toEqual({ text: '{"sum":42}', data: { sum: 42 } });
    expect(result.toolCalls).toEqual([{ seq: 1, step: 1, name: 'add', toolId: 'calc.add', ok: true }]);
    expect(result.steps).toBe(1);
    expect(result.subrequests).toBe(1);
    await settle();
    expect(sink.receipts).toHaveLength(1);
    expect(sink.receipts[0]!.agenticGate).toBe('tool-only');
    expect(sink.receipts[0]!.models).toEqual([]);
  });

  it('parse a JSON text message as the arguments', async () => {
    const { deps } = harness();
    const result = await runAgent(toolOnlyConfig(), { text: '{"a": 1, "b": 2}' }, deps);
    expect(result.answer?.data).toEqual({ sum: 3 });
  });

  it('stop with tool_unavailable when the host gives no implementation', async () => {
    const { deps } = harness({ tools: {} });
    const result = await runAgent(toolOnlyConfig(), { text: '{}' }, deps);
    expect(result.stopReason).toBe('error');
    expect(result.error?.code).toBe('tool_unavailable');
    expect(result.toolCalls).toEqual([
      { seq: 1, step: 1, name: 'add', toolId: 'calc.add', ok: false, errorCode: 'tool_unavailable' },
    ]);
  });

  it('stop with tool_failed when the tool throws', async () => {
    const { deps } = harness({ tools: { 'calc.add': () => Promise.reject(new Error(`boom ${TEST_KEY}`)) } });
    const result = await runAgent(toolOnlyConfig(), { text: '{}' }, deps);
    expect(result.stopReason).toBe('error');
    expect(result.error?.code).toBe('tool_failed');
    expect(JSON.stringify(result)).not.toContain(TEST_KEY);
  });
});

for (const wire of ['openai-chat', 'anthropic-messages', 'ollama-chat'] as const) {
  describe(`agentic loop over ${wire}`, () => {
    it('calls the model, runs the tool calls in order, feeds the results back, and answers', async () => {
      const stub = await provider(wire, [
        { toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] },
        {
          toolCalls: [
            { name: 'mul', arguments: { a: 5, b: 4 } },
            { name: 'add', arguments: { a: 20, b: 0 } },
          ],
        },
        { text: (ctx) => `Final: ${ctx.lastToolResults.join(', ')}` },
      ]);
      const { deps, sink, logs } = harness();
      const result = await runAgent(agenticConfig(wire, stub.baseUrl), { text: 'What is (2+3)*4?' }, deps);
      expect(result.stopReason).toBe('answer');
      expect(result.answer?.text).toBe('Final: {"product":20}, {"sum":20}');
      expect(result.toolCalls.map((c) => [c.seq, c.step, c.name, c.ok])).toEqual([
        [1, 1, 'add', true],
        [2, 2, 'mul', true],
        [3, 2, 'add', true],
      ]);
      expect(result.steps).toBe(3);
      expect(result.subrequests).toBe(6);
      expect(result.usage).toEqual({ inputTokens: 30, outputTokens: 15 });
      expect(stub.requests).toHaveLength(3);
      await settle();
      expect(sink.receipts).toHaveLength(1);
      const receipt = sink.receipts[0]!;
      expect(receipt.toolCalls.map((c) => c.name)).toEqual(['add', 'mul', 'add']);
      expect(receipt.outcome).toMatchObject({ stopReason: 'answer', status: 'answer' });
      expect(await verifyReceipt(receipt, keys.publicJwk)).toBe(true);
      const visible = JSON.stringify({ result, logs, receipts: sink.receipts });
      expect(visible).not.toContain(TEST_KEY);
    });
  });
}

describe('tool call failures go back to the model', () => {
  it('reports unknown tools, bad arguments, thrown errors and blocked egress as tool errors, and carries on', async () => {
    const fetchTool: RuntimeTool = {
      id: 'web.get',
      name: 'get',
      version: '1.0.0',
      kind: 'bundled',
      risk: 'low',
      endpoints: ['https://declared.example.com'],
    };
    const thrower: RuntimeTool = { id: 'bad', name: 'bad', version: '1.0.0', kind: 'bundled', risk: 'low' };
    const stub = await provider('openai-chat', [
      {
        toolCalls: [
          { name: 'nope', arguments: {} },
          { name: 'bad', arguments: {} },
          { name: 'get', arguments: { url: 'https://undeclared.example.net/secret?q=1' } },
        ],
      },
      { text: (ctx) => ctx.lastToolResults.join('\n') },
    ]);
    const tools: Record<string, ToolHandler> = {
      ...calcTools,
      bad: () => {
        throw new Error('kaput');
      },
      'web.get': async (args, ctx) => (await ctx.fetch(String(args['url']))).text(),
    };
    const { deps } = harness({ tools });
    const result = await runAgent(
      agenticConfig('openai-chat', stub.baseUrl, { tools: [ADD_TOOL, fetchTool, thrower] }),
      { text: 'go' },
      deps,
    );
    expect(result.stopReason).toBe('answer');
    const lines = result.answer!.text.split('\n').map((l) => JSON.parse(l));
    expect(lines[0].error).toBe('unknown tool nope');
    expect(lines[1].error).toBe('kaput');
    expect(lines[2].error).toContain('egress_blocked');
    expect(lines[2].error).toContain('undeclared.example.net');
    expect(lines[2].error).not.toContain('secret');
    expect(result.toolCalls.map((c) => [c.name, c.ok, c.errorCode])).toEqual([
      ['nope', false, 'tool_unavailable'],
      ['bad', false, 'tool_failed'],
      ['get', false, 'egress_blocked'],
    ]);
  });

  it('lets a tool reach an endpoint it declares', async () => {
    const api = await startServer((_req, res) => sendJson(res, 200, { weather: 'sunny' }));
    servers.push(api);
    const tool: RuntimeTool = {
      id: 'weather',
      name: 'weather',
      version: '1.0.0',
      kind: 'bundled',
      risk: 'low',
      endpoints: [api.url],
    };
    const stub = await provider('openai-chat', [
      { toolCalls: [{ name: 'weather', arguments: {} }] },
      { text: (ctx) => ctx.lastToolResults[0]! },
    ]);
    const { deps } = harness({ tools: { weather: async (_a, ctx) => (await ctx.fetch(`${api.url}/now`)).json() } });
    const result = await runAgent(
      agenticConfig('openai-chat', stub.baseUrl, { tools: [tool] }),
      { text: 'weather?' },
      deps,
    );
    expect(result.answer?.data).toEqual({ weather: 'sunny' });
  });
});

describe('limits', () => {
  it('a hanging provider hits wallClockMs: the result and the receipt say limit:wallClock', async () => {
    const stub = await provider('openai-chat', [{ hang: true }]);
    const { deps, sink } = harness();
    // The provider never answers: the run ending at all, with limit:wallClock, is the limit at work.
    const result = await runAgent(
      agenticConfig('openai-chat', stub.baseUrl, { limits: { wallClockMs: 300 } }),
      { text: 'hi' },
      deps,
    );
    expect(result.stopReason).toBe('limit:wallClock');
    expect(result.answer).toBeUndefined();
    expect(result.latencyMs).toBeGreaterThanOrEqual(290);
    await settle();
    expect(sink.receipts).toHaveLength(1);
    expect(sink.receipts[0]!.outcome).toEqual({ stopReason: 'limit:wallClock', status: 'limit' });
  });

  it('a tool that ignores its abort signal still cannot outlive the wall clock', async () => {
    const stub = await provider('openai-chat', [
      { toolCalls: [{ name: 'add', arguments: { a: 1, b: 1 } }] },
      { text: 'never' },
    ]);
    const { deps } = harness({ tools: { 'calc.add': () => new Promise(() => {}) } });
    const result = await runAgent(
      agenticConfig('openai-chat', stub.baseUrl, { limits: { wallClockMs: 200 } }),
      { text: 'hi' },
      deps,
    );
    expect(result.stopReason).toBe('limit:wallClock');
  });

  it('maxSubrequests counts model and tool calls together', async () => {
    const stub = await provider('anthropic-messages', [{ toolCalls: [{ name: 'add', arguments: { a: 1, b: 1 } }] }]);
    const { deps, sink } = harness();
    const result = await runAgent(
      agenticConfig('anthropic-messages', stub.baseUrl, { limits: { maxSubrequests: 3 } }),
      { text: 'loop forever' },
      deps,
    );
    expect(result.stopReason).toBe('limit:subrequests');
    expect(result.subrequests).toBe(3);
    expect(stub.requests).toHaveLength(2);
    expect(result.toolCalls).toHaveLength(1);
    await settle();
    expect(sink.receipts[0]!.outcome.stopReason).toBe('limit:subrequests');
  });

  it('maxSteps stops a model that keeps calling tools', async () => {
    const stub = await provider('ollama-chat', [{ toolCalls: [{ name: 'add', arguments: { a: 1, b: 1 } }] }]);
    const { deps } = harness();
    const result = await runAgent(
      agenticConfig('ollama-chat', stub.baseUrl, { limits: { maxSteps: 2 } }),
      { text: 'loop forever' },
      deps,
    );
    expect(result.stopReason).toBe('limit:steps');
    expect(result.steps).toBe(2);
    expect(stub.requests).toHaveLength(2);
    expect(result.toolCalls).toHaveLength(1); // the over-limit step's calls are not run
  });

  it('maxSteps defaults to 8', async () => {
    expect(DEFAULT_LIMITS.maxSteps).toBe(8);
    const stub = await provider('openai-chat', [{ toolCalls: [{ name: 'add', arguments: { a: 1, b: 1 } }] }]);
    const { deps } = harness();
    const result = await runAgent(agenticConfig('openai-chat', stub.baseUrl, { limits: {} }), { text: 'loop' }, deps);
    expect(result.stopReason).toBe('limit:steps');
    expect(stub.requests).toHaveLength(8);
  });

  it('the caller aborting ends the run as an aborted error', async () => {
    const stub = await provider('openai-chat', [{ hang: true }]);
    const { deps } = harness();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const result = await runAgent(agenticConfig('openai-chat', stub.baseUrl), { text: 'hi' }, deps, {
      signal: controller.signal,
    });
    expect(result.stopReason).toBe('error');
    expect(result.error?.code).toBe('aborted');
  });
});

describe('errors never leak the key', () => {
  it('a provider that rejects the key (and echoes it) ends the run as provider_http_error', async () => {
    const stub = await startScriptedProvider({
      wire: 'openai-chat',
      apiKey: 'another-key-000000',
      script: [{ text: 'x' }],
    });
    servers.push(stub);
    const { deps, logs, sink } = harness();
    const result = await runAgent(agenticConfig('openai-chat', stub.baseUrl), { text: 'hi' }, deps);
    expect(result.stopReason).toBe('error');
    expect(result.error).toEqual({
      code: 'provider_http_error',
      message: 'openai-chat: HTTP 401 (invalid_request_error)',
    });
    await settle();
    expect(sink.receipts).toHaveLength(1);
    expect(sink.receipts[0]!.outcome).toEqual({
      stopReason: 'error',
      status: 'error',
      errorCode: 'provider_http_error',
    });
    expect(JSON.stringify({ result, logs, r: sink.receipts })).not.toContain(TEST_KEY);
  });

  it('a tool error echoing the key is redacted before the model, the result and the logs see it', async () => {
    const stub = await provider('openai-chat', [
      { toolCalls: [{ name: 'add', arguments: {} }] },
      { text: (ctx) => ctx.lastToolResults[0]! },
    ]);
    const { deps, logs } = harness({
      tools: { 'calc.add': () => Promise.reject(new Error(`upstream said ${TEST_KEY}`)) },
    });
    const result = await runAgent(agenticConfig('openai-chat', stub.baseUrl), { text: 'hi' }, deps);
    expect(result.answer?.text).toContain('[redacted]');
    expect(JSON.stringify({ result, logs, requests: stub.requests.map((r) => r.body) })).not.toContain(TEST_KEY);
  });

  it('a missing secret stops the run before any call', async () => {
    const stub = await provider('openai-chat', [{ text: 'x' }]);
    const { deps, sink } = harness({ secrets: {} });
    const result = await runAgent(agenticConfig('openai-chat', stub.baseUrl), { text: 'hi' }, deps);
    expect(result.error?.code).toBe('missing_secret');
    expect(stub.requests).toHaveLength(0);
    await settle();
    expect(sink.receipts).toHaveLength(1);
  });
});

describe('context compaction', () => {
  const PAGE: RuntimeTool = {
    id: 'page',
    name: 'page',
    version: '1.0.0',
    description: 'Reads a page.',
    kind: 'bundled',
    risk: 'low',
    inputSchema: { type: 'object', properties: { n: { type: 'number' } } },
  };
  const pageTools: Record<string, ToolHandler> = { page: (args) => `PAGE${String(args['n'])}:` + 'x'.repeat(2000) };
  const SUMMARISER = 'You compress the working notes';

  /** Three page reads, then an answer that lists what the model could still see. */
  function script() {
    let steps = 0;
    return (_i: number, ctx: TurnContext): ScriptTurn => {
      if (ctx.allText.includes(SUMMARISER)) return { text: 'SUMMARY: pages read so far were long' };
      steps++;
      if (steps <= 3) return { toolCalls: [{ name: 'page', arguments: { n: steps } }] };
      return {
        text: (c) => `visible: ${['PAGE1:', 'PAGE2:', 'PAGE3:'].filter((p) => c.allText.includes(p)).join(',')}`,
      };
    };
  }

  function compactConfig(baseUrl: string, policy: 'summarise' | 'drop' | 'quarantine', budget = 1000): RuntimeConfig {
    return agenticConfig('openai-chat', baseUrl, {
      tools: [PAGE],
      memory: { contextWindowBudget: budget, compactionPolicy: policy },
    });
  }

  it('drop: elides the oldest tool results first, keeping the newest step whole', async () => {
    const stub = await provider('openai-chat', script());
    const { deps, sink } = harness({ tools: pageTools });
    const result = await runAgent(compactConfig(stub.baseUrl, 'drop'), { text: 'read three pages' }, deps);
    expect(result.stopReason).toBe('answer');
    expect(result.answer?.text).toBe('visible: PAGE3:');
    expect(result.compactions.length).toBeGreaterThan(0);
    expect(result.compactions.every((c) => c.policy === 'drop' && c.afterTokens <= 1000)).toBe(true);
    expect(result.compactions.reduce((n, c) => n + c.resultsElided, 0)).toBe(2);
    const last = JSON.stringify(stub.requests.at(-1)!.body);
    expect(last).toContain(ELIDED_RESULT);
    await settle();
    expect(sink.receipts[0]!.compactions).toBe(result.compactions.length);
  });

  it('drop: removes whole old steps when eliding results is not enough', async () => {
    // The assistant turns themselves are long here, so eliding tool results cannot make room.
    const inner = script();
    const stub = await provider('openai-chat', (i, ctx) => {
      const turn = inner(i, ctx);
      return 'toolCalls' in turn ? { ...turn, text: 'thinking '.repeat(150) } : turn;
    });
    const { deps } = harness({ tools: { page: (args) => `PAGE${String(args['n'])}:` + 'x'.repeat(1500) } });
    const result = await runAgent(compactConfig(stub.baseUrl, 'drop', 900), { text: 'read' }, deps);
    expect(result.stopReason).toBe('answer');
    expect(result.compactions.some((c) => c.stepsRemoved > 0)).toBe(true);
    expect(JSON.stringify(stub.requests.at(-1)!.body)).toMatch(/\[dropped \d+ earlier step\(s\)/);
  });

  it('quarantine: moves old steps out of context into the run record, leaving a stub', async () => {
    const stub = await provider('openai-chat', script());
    const { deps } = harness({ tools: pageTools });
    const result = await runAgent(compactConfig(stub.baseUrl, 'quarantine'), { text: 'read three pages' }, deps);
    expect(result.stopReason).toBe('answer');
    expect(result.answer?.text).toBe('visible: PAGE3:');
    expect(result.quarantined.map((q) => q.step)).toEqual([1, 2]);
    expect(JSON.stringify(result.quarantined[0]!.messages)).toContain('PAGE1:');
    const last = JSON.stringify(stub.requests.at(-1)!.body);
    expect(last).toContain('[step 1 quarantined out of context: called page]');
    expect(last).toContain('[step 2 quarantined out of context: called page]');
  });

  it('summarise: replaces old steps with one summary from one model call', async () => {
    const stub = await provider('openai-chat', script());
    const { deps } = harness({ tools: pageTools });
    const result = await runAgent(compactConfig(stub.baseUrl, 'summarise'), { text: 'read three pages' }, deps);
    expect(result.stopReason).toBe('answer');
    expect(result.answer?.text).toBe('visible: PAGE3:');
    const summaryCalls = stub.requests.filter((r) => JSON.stringify(r.body).includes(SUMMARISER));
    expect(summaryCalls.length).toBe(result.compactions.length);
    expect(result.compactions.every((c) => c.policy === 'summarise')).toBe(true);
    expect(summaryCalls[0]!.body.tools).toBeUndefined(); // the summariser gets no tools
    expect(JSON.stringify(summaryCalls[0]!.body)).toContain('PAGE1:');
    const last = JSON.stringify(stub.requests.at(-1)!.body);
    expect(last).toContain('SUMMARY: pages read so far were long');
    expect(result.subrequests).toBe(stub.requests.length + result.toolCalls.length);
  });

  it('fails with context_budget_exceeded when even the newest step cannot fit', async () => {
    const stub = await provider('openai-chat', script());
    const { deps } = harness({ tools: pageTools });
    const result = await runAgent(compactConfig(stub.baseUrl, 'drop', 300), { text: 'read' }, deps);
    expect(result.stopReason).toBe('error');
    expect(result.error?.code).toBe('context_budget_exceeded');
  });

  it('is deterministic given deterministic models and tools', async () => {
    const runs = [];
    for (let i = 0; i < 2; i++) {
      const stub = await provider('openai-chat', script());
      const { deps } = harness({ tools: pageTools });
      const result = await runAgent(compactConfig(stub.baseUrl, 'summarise'), { text: 'read three pages' }, deps);
      runs.push({
        requests: stub.requests.map((r) => r.body),
        answer: result.answer,
        toolCalls: result.toolCalls,
        compactions: result.compactions,
        steps: result.steps,
      });
    }
    expect(runs[0]).toEqual(runs[1]);
  });
});

describe('receipts per run', () => {
  it('exactly one receipt per run, on every terminal path', async () => {
    const sink = memorySink();
    const ok = await provider('openai-chat', [{ text: 'fine' }]);
    const hang = await provider('openai-chat', [{ hang: true }]);
    const base = { secrets: SECRETS, tools: calcTools, receipts: { signingKey: keys.privateJwk, sink } };
    const outcomes: Receipt['outcome']['stopReason'][] = [];
    for (const [config, deps] of [
      [agenticConfig('openai-chat', ok.baseUrl), base],
      [agenticConfig('openai-chat', hang.baseUrl, { limits: { wallClockMs: 100 } }), base],
      [agenticConfig('openai-chat', ok.baseUrl), { ...base, secrets: {} }],
      [toolOnlyConfig(), base],
      [toolOnlyConfig(), { ...base, tools: {} }],
    ] as const) {
      outcomes.push((await runAgent(config, { text: '{"a":1,"b":2}' }, deps)).stopReason);
    }
    await settle();
    expect(outcomes).toEqual(['answer', 'limit:wallClock', 'error', 'answer', 'error']);
    expect(sink.receipts.map((r) => r.outcome.stopReason)).toEqual(outcomes);
    expect(new Set(sink.receipts.map((r) => r.runId)).size).toBe(5);
  });

  it('no receipt when the config turns receipts off (tool-prototype)', async () => {
    const sink = memorySink();
    const result = await runAgent(
      toolOnlyConfig({
        lifecycleState: 'tool-prototype',
        receipts: { mode: 'off', schemaVersion: 'receipt/v1', signerRef: null },
      }),
      { text: '{"a":1,"b":1}' },
      { tools: calcTools, receipts: { sink } },
    );
    await settle();
    expect(result.stopReason).toBe('answer');
    expect(result.receipt).toBeUndefined();
    expect(sink.receipts).toEqual([]);
  });

  it('a signed config without a signing key fails closed', async () => {
    const result = await runAgent(toolOnlyConfig(), { text: '{"a":1,"b":1}' }, { tools: calcTools });
    expect(result.stopReason).toBe('error');
    expect(result.error?.code).toBe('missing_secret');
    expect(result.toolCalls).toEqual([]);
  });

  it('reads the signing key from the secret binding the config names', async () => {
    const sink = memorySink();
    const result = await runAgent(
      toolOnlyConfig(),
      { text: '{"a":1,"b":1}' },
      { tools: calcTools, secrets: { RECEIPT_SIGNING_JWK: JSON.stringify(keys.privateJwk) }, receipts: { sink } },
    );
    expect(result.receipt).toBeDefined();
    expect(await verifyReceipt(result.receipt, keys.publicJwk)).toBe(true);
    expect(JSON.stringify(result)).not.toContain(String(keys.privateJwk.d));
  });

  it('uses the MUL tool too (both tools are offered to the model)', async () => {
    const stub = await provider('openai-chat', [{ text: 'x' }]);
    const { deps } = harness();
    await runAgent(agenticConfig('openai-chat', stub.baseUrl), { text: 'hi' }, deps);
    expect(stub.requests[0]!.body.tools.map((t: any) => t.function.name)).toEqual([ADD_TOOL.name, MUL_TOOL.name]);
  });
});
