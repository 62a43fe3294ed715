/** A hybrid leaf in the portable runtime: route, answer, judge, retry, escalate, fail; every call counted and in the receipt. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { baseConfig, memorySink, pin } from '../__test-support__/configs';
import {
  SUPPORT_INVARIANTS,
  SUPPORT_SECRETS,
  startSupportDesk,
  supportDeskTurn,
} from '../__test-support__/hybrid-script';
import { GRADER_SYSTEM_PROMPT } from './grade';
import { ROUTER_SYSTEM_PROMPT } from './route';
import type { StubServer } from '../__test-support__/stub-provider';
import type { RuntimeLogEvent } from '../agent-loop';
import type { Receipt } from '../receipts';
import { generateReceiptKeyPair, verifyReceipt } from '../receipts';
import { runAgent } from '../run-agent';
import type { RuntimeConfig, RuntimeHybrid } from '../runtime-config';
import { checkRuntimeConfig } from '../runtime-config';

const servers: StubServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
let keys: { privateJwk: JsonWebKey; publicJwk: JsonWebKey };
beforeAll(async () => {
  keys = await generateReceiptKeyPair();
});

const INVARIANTS = SUPPORT_INVARIANTS;

async function supportDesk(hybrid: Partial<RuntimeHybrid> = {}, limits: RuntimeConfig['limits'] = {}) {
  const { config, stubs } = await startSupportDesk(hybrid, limits);
  servers.push(...stubs);
  expect(checkRuntimeConfig(config)).toEqual([]);
  return { config };
}

async function run(config: RuntimeConfig, text: string) {
  const sink = memorySink();
  const logs: RuntimeLogEvent[] = [];
  const result = await runAgent(
    config,
    { text },
    { secrets: SUPPORT_SECRETS, receipts: { signingKey: keys.privateJwk, sink }, log: (e) => logs.push(e) },
  );
  await new Promise((r) => setTimeout(r, 10));
  const receipt = sink.receipts[0] as Receipt;
  expect(receipt).toBeDefined();
  expect(await verifyReceipt(receipt, keys.publicJwk)).toBe(true);
  return { result, receipt, logs };
}

const receiptSchema = JSON.parse(readFileSync(join(__dirname, '../../schema/receipt.v1.schema.json'), 'utf8'));
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
const validReceipt = ajv.compile(receiptSchema);

const callsOf = (receipt: Receipt) =>
  (receipt.modelCalls ?? []).map((c) => [c.purpose, c.pin, c.model, c.verdict ?? c.label ?? ''].join(' '));

describe('a hybrid leaf: classifier → two specialists → evaluator with retry', () => {
  it('routes a billing question to the billing specialist, retries it once with the critique, and passes', async () => {
    const { config } = await supportDesk();
    const { result, receipt } = await run(config, 'I was charged twice for my March invoice.');
    expect(result.stopReason).toBe('answer');
    expect(result.answer?.text).toMatch(/^\[claude-haiku-4-5-20251001\].*\nNext step: /s);
    expect(result.hybrid?.route).toEqual({ label: 'billing', pin: 'billing' });
    expect(result.hybrid?.verdicts.map((v) => [v.pin, v.pass, v.failed])).toEqual([
      ['billing', false, [2]],
      ['billing', true, []],
    ]);
    expect(result.hybrid?.verdicts[0]?.critique).toContain('next step');
    expect(callsOf(receipt)).toEqual([
      'route triage gpt-4o-mini-2024-07-18 billing',
      'answer billing claude-haiku-4-5-20251001 ',
      'evaluate reviewer claude-sonnet-4-20250514 fail',
      'answer billing claude-haiku-4-5-20251001 ',
      'evaluate reviewer claude-sonnet-4-20250514 pass',
    ]);
    expect(receipt.modelCalls?.map((c) => c.role)).toEqual([
      'classifier',
      'specialist',
      'evaluator',
      'specialist',
      'evaluator',
    ]);
    expect(receipt.steps).toBe(5);
    expect(receipt.subrequests).toBe(5);
    expect(validReceipt(receipt), JSON.stringify(validReceipt.errors)).toBe(true);
  });

  it('sends a reply that names no label to the default pin, and says so', async () => {
    const { config } = await supportDesk();
    const { result, receipt } = await run(config, 'gibberish about something');
    expect(result.hybrid?.route).toEqual({ pin: 'technical' });
    expect(result.answer?.text).toMatch(/^\[gpt-4o-2024-08-06\]/);
    expect(receipt.modelCalls?.[0]).toMatchObject({ purpose: 'route', ok: true });
    expect(receipt.modelCalls?.[0]?.label).toBeUndefined();
  });

  it('escalates after the retries and fails the task when the escalation fails too', async () => {
    const { config } = await supportDesk();
    const { result, receipt } = await run(config, 'stubborn: my invoice total looks wrong');
    expect(result.stopReason).toBe('error');
    expect(result.error?.code).toBe('evaluation_failed');
    expect(result.answer).toBeUndefined();
    expect(result.hybrid?.verdicts.map((v) => [v.pin, v.pass])).toEqual([
      ['billing', false],
      ['billing', false],
      ['technical', false],
    ]);
    expect(callsOf(receipt).map((c) => c.split(' ').slice(0, 2).join(' '))).toEqual([
      'route triage',
      'answer billing',
      'evaluate reviewer',
      'answer billing',
      'evaluate reviewer',
      'answer technical',
      'evaluate reviewer',
    ]);
    expect(receipt.outcome).toMatchObject({ status: 'error', errorCode: 'evaluation_failed' });
    expect(validReceipt(receipt), JSON.stringify(validReceipt.errors)).toBe(true);
  });

  it('fails with evaluator_unreadable, never a pass, when the verdict cannot be read', async () => {
    const { config } = await supportDesk();
    const { result } = await run(config, 'unjudgeable: the CLI crashes');
    expect(result.error?.code).toBe('evaluator_unreadable');
    expect(result.answer).toBeUndefined();
  });

  it('with no retries and no escalation, fails on the first failed verdict', async () => {
    const { config } = await supportDesk({ evaluate: { by: 3, invariants: INVARIANTS, maxRetries: 0 } });
    const { result, receipt } = await run(config, 'The CLI says EACCES when I run sync');
    expect(result.error?.code).toBe('evaluation_failed');
    expect(receipt.modelCalls?.map((c) => c.purpose)).toEqual(['route', 'answer', 'evaluate']);
  });

  it('counts route and evaluation turns against maxSteps and maxSubrequests', async () => {
    const steps = await supportDesk({}, {});
    steps.config.limits = { maxSubrequests: 3 };
    const bySubrequests = await run(steps.config, 'I was charged twice for my March invoice.');
    expect(bySubrequests.result.stopReason).toBe('limit:subrequests');
    expect(bySubrequests.receipt.modelCalls?.map((c) => c.purpose)).toEqual(['route', 'answer', 'evaluate']);
    // maxSteps lives in the runtime config's limits too: three turns, then the retry is refused.
    steps.config.limits = { maxSteps: 3 };
    const bySteps = await run(steps.config, 'I was charged twice for my March invoice.');
    expect(bySteps.result.stopReason).toBe('limit:steps');
    expect(bySteps.receipt.modelCalls).toHaveLength(3);
  });

  it('logs the route and each verdict without the answer or the critique', async () => {
    const { config } = await supportDesk();
    const { logs } = await run(config, 'I was charged twice for my March invoice.');
    const events = logs.map((e) => e.event);
    expect(events).toContain('route.chosen');
    expect(events.filter((e) => e === 'answer.judged')).toHaveLength(2);
    expect(JSON.stringify(logs)).not.toMatch(/Next step|concrete next step for the customer/);
  });
});

describe('a hybrid leaf under attack', () => {
  it('a specialist that repeats a key hands it to neither the evaluator nor its own retry, and it reaches no output', async () => {
    const key = SUPPORT_SECRETS.OPENAI_API_KEY;
    const leaky: typeof supportDeskTurn = (index, ctx) => {
      const text = ctx.allText;
      const isSpecialist = !text.includes(ROUTER_SYSTEM_PROMPT) && !text.includes(GRADER_SYSTEM_PROMPT);
      if (isSpecialist && !text.includes('A reviewer rejected')) return { text: `Your key is ${key}, keep it safe.` };
      return supportDeskTurn(index, ctx);
    };
    const { config, stubs } = await startSupportDesk({}, {}, leaky);
    servers.push(...stubs);
    const { result, receipt, logs } = await run(config, 'I was charged twice for my March invoice.');
    expect(result.stopReason).toBe('answer');
    // What the evaluator and the retry were sent: every request after the specialist's first answer.
    const sent = stubs.flatMap((s) => s.requests.map((r) => JSON.stringify(r.body)));
    const afterLeak = sent.filter((body) => body.includes('Answer:') || body.includes('A reviewer rejected'));
    expect(afterLeak.length).toBeGreaterThanOrEqual(2);
    for (const body of afterLeak) expect(body).not.toContain(key);
    expect(JSON.stringify({ result, receipt, logs })).not.toContain(key);
  });
});

describe('checkRuntimeConfig on hybrid', () => {
  it('refuses pins out of range or in the wrong role, naming the field', () => {
    const config = baseConfig({
      models: [pin('openai-chat', 'https://api.openai.com/v1', { role: 'primary' })],
      hybrid: {
        route: { by: 0, routes: [{ label: 'a', to: 7 }], default: 0 },
        evaluate: { by: 0, invariants: [], maxRetries: 9 },
      },
    });
    expect(checkRuntimeConfig(config)).toEqual([
      'hybrid.route.by: must be the index of a pin with role router or classifier',
      'hybrid.route.routes[0].to: must be the index of a pin with role primary or specialist',
      'hybrid.evaluate.by: must be the index of a pin with role evaluator',
      'hybrid.evaluate.invariants: at least one invariant is required',
      'hybrid.evaluate.maxRetries: an integer from 0 to 5',
    ]);
    const dag = baseConfig({
      models: [pin('openai-chat', 'https://api.openai.com/v1', { role: 'primary' })],
      composition: { kind: 'dag', children: [], edges: [], quarantine: false },
      hybrid: { answer: 0 },
    });
    expect(checkRuntimeConfig(dag)).toEqual([
      'hybrid: only a leaf routes between its own pins; a dag routes by its edges',
    ]);
  });
});
