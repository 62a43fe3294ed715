import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TEST_KEY, dagConfig, memorySink, pin, toolChildConfig } from './__test-support__/configs';
import type { StubServer } from './__test-support__/stub-provider';
import { startScriptedProvider } from './__test-support__/stub-provider';
import type { ToolHandler } from './agent-loop';
import type { ChildRunContext, ChildRunner } from './composition';
import { conditionHolds, parseRouterChoice, topologicalOrder } from './composition';
import { generateReceiptKeyPair, verifyReceipt } from './receipts';
import type { RunDeps } from './run-agent';
import { inProcessChildRunner, runAgent } from './run-agent';
import type { RuntimeConfig, RuntimeEdge } from './runtime-config';

const servers: StubServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
let keys: { privateJwk: JsonWebKey; publicJwk: JsonWebKey };
beforeAll(async () => {
  keys = await generateReceiptKeyPair();
});
const settle = () => new Promise((r) => setTimeout(r, 10));

/** A tool-only child whose one tool is `handler`. */
function child(slug: string, handler: ToolHandler): { config: RuntimeConfig; tools: Record<string, ToolHandler> } {
  return { config: toolChildConfig(slug), tools: { [`${slug}.tool`]: handler } };
}

const classify = child('classify', (args) => ({
  kind: String(args['text']).includes('sum') ? 'math' : 'poem',
  text: args['text'],
}));
const math = child('math', (args) => ({ result: 42, saw: (args['kind'] as string) ?? null }));
const poem = child('poem', () => 'roses are red');
const upper = child('upper', (args) => String(args['text'] ?? JSON.stringify(args)).toUpperCase());
const hang = child('hang', () => new Promise(() => {}));
const broken = child('broken', () => Promise.reject(new Error('child exploded')));
const all = [classify, math, poem, upper, hang, broken];

function parent(edges: RuntimeEdge[], slugs: string[], extra: Partial<RuntimeConfig> = {}): RuntimeConfig {
  return dagConfig(slugs, edges, extra);
}

function harness(extra: Partial<RunDeps> = {}) {
  const sink = memorySink();
  const contexts: { slug: string; context: ChildRunContext }[] = [];
  const childDeps = (config: RuntimeConfig): RunDeps => ({
    tools: all.find((c) => c.config.agent.slug === config.agent.slug)!.tools,
    receipts: { signingKey: keys.privateJwk, sink },
  });
  const inner = inProcessChildRunner(
    all.map((c) => c.config),
    childDeps,
  );
  const runChild: ChildRunner = (c, input, context) => {
    contexts.push({ slug: c.slug, context });
    return inner(c, input, context);
  };
  const deps: RunDeps = {
    runChild,
    receipts: { signingKey: keys.privateJwk, sink },
    secrets: { OPENAI_API_KEY: TEST_KEY },
    ...extra,
  };
  return { deps, sink, contexts };
}

describe('dag composition', () => {
  it('runs deterministic edges in order, passing each output on, and returns the sink answer', async () => {
    const { deps, sink } = harness();
    const config = parent([{ from: 'classify', to: 'upper', gate: 'deterministic' }], ['classify', 'upper']);
    const result = await runAgent(config, { text: 'a sum please' }, deps);
    expect(result.stopReason).toBe('answer');
    expect(result.answer?.text).toBe('A SUM PLEASE');
    expect(result.composition?.nodes).toEqual([
      { slug: 'classify', version: '1.0.0', status: 'ran', order: 1, stopReason: 'answer' },
      { slug: 'upper', version: '1.0.0', status: 'ran', order: 2, stopReason: 'answer' },
    ]);
    await settle();
    // one receipt per run: two children and the parent, grouped by the parent's run id
    expect(sink.receipts).toHaveLength(3);
    expect(new Set(sink.receipts.map((r) => r.runId))).toEqual(new Set([result.runId]));
    const byCard = Object.fromEntries(sink.receipts.map((r) => [r.pinning.card, r]));
    expect(byCard['classify']!.composedIn).toEqual({ card: 'pipeline', cardVersion: '3.0.0' });
    expect(byCard['upper']!.pinning).toEqual({
      card: 'upper',
      cardVersion: '1.0.0',
      skill: 'run',
      skillVersion: '1.0.0',
    });
    expect(byCard['pipeline']!.pinning).toEqual({
      card: 'pipeline',
      cardVersion: '3.0.0',
      skill: 'handle',
      skillVersion: '3.1.0',
    });
    expect(byCard['pipeline']!.composition?.nodes.map((n) => n.status)).toEqual(['ran', 'ran']);
    for (const r of sink.receipts) expect(await verifyReceipt(r, keys.publicJwk)).toBe(true);
  });

  it("counts its children's tokens in its own usage, and only counts that are counts", async () => {
    const usages = [
      { inputTokens: 5, outputTokens: 7 },
      { inputTokens: -3, outputTokens: 1.5 },
    ];
    const { deps } = harness({
      runChild: async () => ({
        stopReason: 'answer',
        answer: { text: 'ok' },
        usage: usages.shift() as { inputTokens: number; outputTokens: number },
      }),
    });
    const config = parent([{ from: 'classify', to: 'upper', gate: 'deterministic' }], ['classify', 'upper']);
    const result = await runAgent(config, { text: 'a sum please' }, deps);
    expect(result.stopReason).toBe('answer');
    expect(result.usage).toEqual({ inputTokens: 5, outputTokens: 7 });
  });

  it('takes a conditional edge only when the pointer into the structured output matches', async () => {
    const edges: RuntimeEdge[] = [
      { from: 'classify', to: 'math', gate: 'conditional', condition: { pointer: '/kind', equals: 'math' } },
      { from: 'classify', to: 'poem', gate: 'conditional', condition: { pointer: '/kind', equals: 'poem' } },
    ];
    const { deps } = harness();
    const mathRun = await runAgent(parent(edges, ['classify', 'math', 'poem']), { text: 'a sum please' }, deps);
    expect(mathRun.answer?.data).toEqual({ result: 42, saw: 'math' });
    expect(mathRun.composition?.nodes.map((n) => [n.slug, n.status])).toEqual([
      ['classify', 'ran'],
      ['math', 'ran'],
      ['poem', 'skipped'],
    ]);
    const poemRun = await runAgent(parent(edges, ['classify', 'math', 'poem']), { text: 'something lovely' }, deps);
    expect(poemRun.answer?.text).toBe('roses are red');
    expect(poemRun.composition?.edgesTaken).toEqual([{ from: 'classify', to: 'poem', gate: 'conditional' }]);
  });

  it('asks the router pin which llm-decides edge to take', async () => {
    const router = await startScriptedProvider({ wire: 'openai-chat', apiKey: TEST_KEY, script: [{ text: 'poem' }] });
    servers.push(router);
    const edges: RuntimeEdge[] = [
      { from: 'classify', to: 'math', gate: 'llm-decides' },
      { from: 'classify', to: 'poem', gate: 'llm-decides' },
    ];
    const config = parent(edges, ['classify', 'math', 'poem'], {
      agenticGate: 'agentic',
      models: [pin('openai-chat', router.baseUrl, { role: 'router' })],
    });
    const { deps } = harness();
    const result = await runAgent(config, { text: 'a sum please' }, deps);
    expect(result.stopReason).toBe('answer');
    expect(result.answer?.text).toBe('roses are red');
    expect(router.requests).toHaveLength(1);
    const ask = JSON.stringify(router.requests[0]!.body);
    expect(ask).toContain('one of: math, poem');
    expect(router.requests[0]!.body.tools).toBeUndefined();
    expect(result.subrequests).toBe(3); // two children + one router call
  });

  it('fails with router_invalid_choice when the router names no offered edge', async () => {
    const router = await startScriptedProvider({
      wire: 'openai-chat',
      apiKey: TEST_KEY,
      script: [{ text: 'I would rather not say' }],
    });
    servers.push(router);
    const config = parent(
      [
        { from: 'classify', to: 'math', gate: 'llm-decides' },
        { from: 'classify', to: 'poem', gate: 'llm-decides' },
      ],
      ['classify', 'math', 'poem'],
      { agenticGate: 'agentic', models: [pin('openai-chat', router.baseUrl, { role: 'router' })] },
    );
    const { deps } = harness();
    const result = await runAgent(config, { text: 'x' }, deps);
    expect(result.stopReason).toBe('error');
    expect(result.error?.code).toBe('router_invalid_choice');
  });

  it('fans in: a node reached by two edges runs once with both outputs', async () => {
    const { deps } = harness();
    const config = parent(
      [
        { from: 'poem', to: 'upper', gate: 'deterministic' },
        { from: 'math', to: 'upper', gate: 'deterministic' },
      ],
      ['poem', 'math', 'upper'],
    );
    const result = await runAgent(config, { text: 'x' }, deps);
    expect(result.stopReason).toBe('answer');
    expect(result.composition?.nodes.find((n) => n.slug === 'upper')).toMatchObject({ status: 'ran', order: 3 });
    expect(result.answer?.text).toContain('ROSES ARE RED');
  });

  it('stops with composition_failed when a child fails, and says which', async () => {
    const { deps, sink } = harness();
    const result = await runAgent(
      parent([{ from: 'classify', to: 'broken', gate: 'deterministic' }], ['classify', 'broken']),
      { text: 'x' },
      deps,
    );
    expect(result.stopReason).toBe('error');
    expect(result.error).toEqual({
      code: 'composition_failed',
      message: 'child broken@1.0.0 stopped: error (tool_failed)',
    });
    await settle();
    expect(sink.receipts.map((r) => [r.pinning.card, r.outcome.stopReason])).toEqual([
      ['classify', 'answer'],
      ['broken', 'error'],
      ['pipeline', 'error'],
    ]);
  });

  it("the parent's wall clock covers its children", async () => {
    const { deps } = harness();
    const result = await runAgent(parent([], ['hang'], { limits: { wallClockMs: 150 } }), { text: 'x' }, deps);
    expect(result.stopReason).toBe('limit:wallClock');
  });

  it('tells the host runner to quarantine children when the composition asks', async () => {
    const { deps, contexts } = harness();
    const config = parent([{ from: 'classify', to: 'upper', gate: 'deterministic' }], ['classify', 'upper']);
    config.composition.quarantine = true;
    const result = await runAgent(config, { text: 'x' }, deps);
    expect(result.stopReason).toBe('answer');
    expect(contexts.map((c) => [c.slug, c.context.quarantine, c.context.runId, c.context.parent])).toEqual([
      ['classify', true, result.runId, { slug: 'pipeline', version: '3.0.0' }],
      ['upper', true, result.runId, { slug: 'pipeline', version: '3.0.0' }],
    ]);
    expect(contexts[0]!.context.remainingMs).toBeGreaterThan(0);
  });

  it('fails closed when the host cannot run children', async () => {
    const result = await runAgent(
      parent([], ['classify']),
      { text: 'x' },
      { receipts: { signingKey: keys.privateJwk } },
    );
    expect(result.error?.code).toBe('composition_failed');
  });
});

describe('composition helpers', () => {
  it('orders nodes topologically with declaration order breaking ties, and rejects cycles', () => {
    const nodes = ['a', 'b', 'c', 'd'].map((slug) => ({ slug, version: '1.0.0' }));
    expect(topologicalOrder(nodes, [{ from: 'c', to: 'a', gate: 'deterministic' }])).toEqual(['b', 'c', 'a', 'd']); // among ready nodes, declaration order wins
    expect(() =>
      topologicalOrder(nodes, [
        { from: 'a', to: 'b', gate: 'deterministic' },
        { from: 'b', to: 'a', gate: 'deterministic' },
      ]),
    ).toThrow(/cycle/);
    expect(() => topologicalOrder(nodes, [{ from: 'a', to: 'zz', gate: 'deterministic' }])).toThrow(/unknown node/);
  });

  it('evaluates conditions by JSON pointer with strict equality', () => {
    const edge = (pointer: string, equals: string | number | boolean | null): RuntimeEdge => ({
      from: 'a',
      to: 'b',
      gate: 'conditional',
      condition: { pointer, equals },
    });
    const answer = { text: '', data: { route: { 'a/b': 1, list: [true] }, none: null } };
    expect(conditionHolds(edge('/route/a~1b', 1), answer)).toBe(true);
    expect(conditionHolds(edge('/route/a~1b', '1'), answer)).toBe(false);
    expect(conditionHolds(edge('/route/list/0', true), answer)).toBe(true);
    expect(conditionHolds(edge('/none', null), answer)).toBe(true);
    expect(conditionHolds(edge('/missing', null), answer)).toBe(false);
    expect(conditionHolds(edge('/route', 1), { text: 'no data' })).toBe(false);
  });

  it('parses router replies', () => {
    expect(parseRouterChoice('poem', ['math', 'poem'])).toBe('poem');
    expect(parseRouterChoice('`math`.', ['math', 'poem'])).toBe('math');
    expect(parseRouterChoice('I pick math for this', ['math', 'poem'])).toBe('math');
    expect(parseRouterChoice('math or poem', ['math', 'poem'])).toBeUndefined();
    expect(parseRouterChoice('mathematics', ['math', 'poem'])).toBeUndefined();
  });
});
