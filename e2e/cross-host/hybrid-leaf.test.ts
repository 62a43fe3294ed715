/**
 * A hybrid leaf (examples/support-triage: classifier → billing or technical specialist → evaluator
 * with one retry, then escalation) runs identically on all three hosts, every model call in its
 * receipt. support-triage is compiled for the Worker (workerd via miniflare), the HB3 job and the
 * local launcher and served by `agentdef dev` (a real process) against scripted OpenAI and
 * Anthropic stubs on loopback (the scripted support desk, hybrid-script.ts, reached through
 * AGENTDEF_BASE_URL_<PROVIDER> with stand-in keys). Each host is asked the same questions with the
 * @a2a-js/sdk client: the same answers, `hybrid` traces and receipt `modelCalls` on the three; the
 * receipts verify and validate against receipt.v1.schema.json; the stubs saw exactly the calls the
 * receipts list. Then `--record` on every target: identical requests, and the same as the checked-in
 * examples/recordings/support-triage (re-record with `node scripts/run-dev-ask-examples.mjs --record`
 * when this fails); and `--replay` of that checked-in recording with no key and no provider on every
 * target: the same answers, traces and calls, said to be replayed.
 */
import type { ChildProcess } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { TaskState } from '@a2a-js/sdk';
import addFormats from 'ajv-formats';
import { runAgentdef, serveAgentdef } from './support/agentdef-process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUPPORT_SECRETS, supportDeskTurn } from '../../plugin/runtime/__test-support__/hybrid-script';
import { startScriptedProvider, type StubServer } from '../../plugin/runtime/__test-support__/stub-provider';
import type { Receipt } from '../../plugin/runtime/receipts';
import { verifyReceipt } from '../../plugin/runtime/receipts';
import { REPO, a2aAsk, compileExample, isolatedEnv, receiptKeys, scratch } from '../local/support/host-harness';

const TARGETS = { worker: 'cloudflare-dynamic-worker', hb3: 'hb3', local: 'local-mac' } as const;
type Target = keyof typeof TARGETS;
const HOSTS = Object.keys(TARGETS) as Target[];

/** The questions, by what the scripted desk does with them. */
const QUESTIONS = {
  /** Routed to billing; its first answer fails the evaluator, the retry with the critique passes. */
  billingRetry: 'I was charged twice for my March invoice.',
  /** Routed to technical; its first answer passes. */
  technicalFirstTime: 'The CLI says EACCES when I run sync. What should I do?',
  /** The classifier names no label: the default (technical) answers, fails once, passes on the retry. */
  gibberish: 'gibberish about something',
  /** Billing fails, its retry fails, the escalation to technical fails: evaluation_failed. */
  stubborn: 'stubborn: my invoice total looks wrong',
} as const;
type Question = keyof typeof QUESTIONS;

const ws = scratch('hybrid-leaf');
const started: ChildProcess[] = [];
let keys: Awaited<ReturnType<typeof receiptKeys>>;
let openai: StubServer;
let anthropic: StubServer;

const receiptSchema = JSON.parse(readFileSync(join(REPO, 'plugin/schema/receipt.v1.schema.json'), 'utf8'));
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
const validReceipt = ajv.compile(receiptSchema);

beforeAll(async () => {
  writeFileSync(ws.path('nx.json'), '{}\n');
  keys = await receiptKeys();
  writeFileSync(ws.path('receipt.public.jwk'), JSON.stringify(keys.publicJwk));
  // `--replay` takes a folder of the workspace: the checked-in recording, copied in.
  cpSync(join(REPO, 'examples', 'recordings', 'support-triage'), ws.path('recordings', 'checked-in'), {
    recursive: true,
  });
  for (const [name, target] of Object.entries(TARGETS))
    await compileExample('support-triage', target, ws.path('dist', name));
  openai = await startScriptedProvider({
    wire: 'openai-chat',
    apiKey: SUPPORT_SECRETS.OPENAI_API_KEY,
    script: supportDeskTurn,
  });
  anthropic = await startScriptedProvider({
    wire: 'anthropic-messages',
    apiKey: SUPPORT_SECRETS.ANTHROPIC_API_KEY,
    script: supportDeskTurn,
  });
});
afterAll(async () => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await openai?.close();
  await anthropic?.close();
  ws.cleanup();
});

/** The environment of a session: nothing of this machine's, the receipt key, and `extra`. */
function env(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return isolatedEnv(ws.path('home'), {
    AGENTDEF_STATE_DIR: ws.path('state'),
    AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY: keys.secret,
    ...extra,
  });
}
const LIVE = () =>
  env({
    AGENTDEF_BASE_URL_OPENAI: (openai as StubServer & { baseUrl: string }).baseUrl,
    AGENTDEF_BASE_URL_ANTHROPIC: anthropic.url,
    AGENTDEF_SECRET_OPENAI_API_KEY: SUPPORT_SECRETS.OPENAI_API_KEY,
    AGENTDEF_SECRET_ANTHROPIC_API_KEY: SUPPORT_SECRETS.ANTHROPIC_API_KEY,
  });
const NO_KEY = () => env({});

const place = { cwd: ws.dir, started };
/** `agentdef dev <args>` left serving (support/agentdef-process.ts). */
const serve = (args: string[], environment: NodeJS.ProcessEnv) => serveAgentdef(place, args, environment);
/** `agentdef <args>` to its end (asynchronously: the stubs answer from this process). */
const cli = (args: string[], environment: NodeJS.ProcessEnv) => runAgentdef(place, args, environment);

/** What one ask shows, host-independent: what the three hosts must agree on. */
interface Outcome {
  state: string | undefined;
  answer: string | undefined;
  errorCode: unknown;
  hybrid: unknown;
  calls: {
    purpose: string;
    role: string;
    pin?: string;
    providerId: string;
    model: string;
    verdict?: string;
    label?: string;
    ok: boolean;
  }[];
  outcome: Receipt['outcome'];
  steps: number;
  subrequests: number;
  replayed: boolean;
}

/** Asks `question` on `url`, checks its receipt (signature, schema), and returns what the hosts must agree on. */
async function ask(url: string, question: string): Promise<Outcome> {
  const { task, answer } = await a2aAsk(url, question);
  const receipt = task.metadata?.['receipt'] as Receipt;
  expect(receipt, JSON.stringify(task.metadata)).toBeDefined();
  expect(await verifyReceipt(receipt, keys.publicJwk)).toBe(true);
  expect(validReceipt(receipt), JSON.stringify(validReceipt.errors)).toBe(true);
  return {
    state: task.status?.state === undefined ? undefined : TaskState[task.status.state],
    answer,
    errorCode: task.metadata?.['errorCode'],
    hybrid: task.metadata?.['hybrid'],
    calls: (receipt.modelCalls ?? []).map((c) => ({
      purpose: c.purpose,
      role: c.role,
      ...(c.pin !== undefined ? { pin: c.pin } : {}),
      providerId: c.providerId,
      model: c.model,
      ...(c.verdict !== undefined ? { verdict: c.verdict } : {}),
      ...(c.label !== undefined ? { label: c.label } : {}),
      ok: c.ok,
    })),
    outcome: receipt.outcome,
    steps: receipt.steps,
    subrequests: receipt.subrequests,
    replayed: receipt.modelsReplayed === true && task.metadata?.['modelsReplayed'] === true,
  };
}

/** Asks every question on `url`; each time, the stubs saw exactly the calls its receipt lists, per wire. */
async function askAll(url: string, live: boolean): Promise<Record<Question, Outcome>> {
  const outcomes = {} as Record<Question, Outcome>;
  for (const [name, question] of Object.entries(QUESTIONS) as [Question, string][]) {
    const before = { openai: openai.requests.length, anthropic: anthropic.requests.length };
    const outcome = await ask(url, question);
    const perProvider = (id: string) => outcome.calls.filter((c) => c.providerId === id).length;
    const seen = {
      openai: openai.requests.length - before.openai,
      anthropic: anthropic.requests.length - before.anthropic,
    };
    expect(seen, name).toEqual(
      live ? { openai: perProvider('openai'), anthropic: perProvider('anthropic') } : { openai: 0, anthropic: 0 },
    );
    // Each request the stubs saw asked for the model its receipt entry names, in order.
    if (live)
      expect(
        [...openai.requests.slice(before.openai), ...anthropic.requests.slice(before.anthropic)]
          .map((r) => r.body.model)
          .sort(),
      ).toEqual(outcome.calls.map((c) => c.model).sort());
    outcomes[name] = outcome;
  }
  return outcomes;
}

const sig = (o: Outcome) => o.calls.map((c) => [c.purpose, c.pin, c.model, c.verdict ?? c.label ?? ''].join(' '));

const live: Partial<Record<Target, Record<Question, Outcome>>> = {};

describe('a hybrid leaf on the Worker, the HB3 job and the local launcher', () => {
  for (const target of HOSTS)
    it(`${target}: routes, judges, retries and escalates; every call in the verified receipt and seen by the stubs`, async () => {
      const dev = await serve(['dev', `dist/${target}`], LIVE());
      try {
        live[target] = await askAll(dev.url, true);
        const asked = await cli(['ask', dev.url, QUESTIONS.billingRetry, '--key', 'receipt.public.jwk'], LIVE());
        expect(asked.status, asked.stderr).toBe(0);
        expect(asked.stdout).toMatch(/^state: completed$/m);
        expect(asked.stdout).toMatch(/^receipt: verified /m);
        expect(asked.stdout).toMatch(
          /^hybrid: routed to billing \(label billing\); evaluator: billing failed, billing passed$/m,
        );
      } finally {
        expect(await dev.stop()).toBe(0);
      }
      const text = JSON.stringify(dev.output());
      for (const secret of Object.values(SUPPORT_SECRETS)) expect(text).not.toContain(secret);
    });

  it('the three hosts agree: the same answers, hybrid traces and receipt model calls', () => {
    const worker = live.worker!;
    expect(live.hb3).toEqual(worker);
    expect(live.local).toEqual(worker);

    expect(worker.billingRetry.state).toBe('TASK_STATE_COMPLETED');
    expect(worker.billingRetry.answer).toMatch(/^\[claude-haiku-4-5.*\nNext step: /s);
    expect(worker.billingRetry.hybrid).toMatchObject({
      route: { label: 'billing', pin: 'billing' },
      verdicts: [
        { pin: 'billing', pass: false, failed: [2] },
        { pin: 'billing', pass: true, failed: [] },
      ],
    });
    expect(sig(worker.billingRetry)).toEqual([
      'route triage gpt-4o-mini-2024-07-18 billing',
      'answer billing claude-haiku-4-5-20251001 ',
      'evaluate reviewer claude-sonnet-4-5-20250929 fail',
      'answer billing claude-haiku-4-5-20251001 ',
      'evaluate reviewer claude-sonnet-4-5-20250929 pass',
    ]);
    expect(worker.billingRetry.calls.map((c) => c.role)).toEqual([
      'classifier',
      'specialist',
      'evaluator',
      'specialist',
      'evaluator',
    ]);
    expect([worker.billingRetry.steps, worker.billingRetry.subrequests]).toEqual([5, 5]);

    expect(worker.technicalFirstTime.state).toBe('TASK_STATE_COMPLETED');
    expect(worker.technicalFirstTime.answer).toMatch(/^\[gpt-4o-2024-08-06\].*\nNext step: /s);
    expect(sig(worker.technicalFirstTime)).toEqual([
      'route triage gpt-4o-mini-2024-07-18 technical',
      'answer technical gpt-4o-2024-08-06 ',
      'evaluate reviewer claude-sonnet-4-5-20250929 pass',
    ]);

    expect(worker.gibberish.state).toBe('TASK_STATE_COMPLETED');
    expect(worker.gibberish.hybrid).toMatchObject({ route: { pin: 'technical' } });
    expect((worker.gibberish.hybrid as { route: object }).route).not.toHaveProperty('label');
    expect(sig(worker.gibberish)[0]).toBe('route triage gpt-4o-mini-2024-07-18 ');

    expect(worker.stubborn.state).toBe('TASK_STATE_FAILED');
    expect(worker.stubborn.answer).toBeUndefined();
    expect(worker.stubborn.errorCode).toBe('evaluation_failed');
    expect(worker.stubborn.outcome).toMatchObject({ status: 'error', errorCode: 'evaluation_failed' });
    expect(sig(worker.stubborn)).toEqual([
      'route triage gpt-4o-mini-2024-07-18 billing',
      'answer billing claude-haiku-4-5-20251001 ',
      'evaluate reviewer claude-sonnet-4-5-20250929 fail',
      'answer billing claude-haiku-4-5-20251001 ',
      'evaluate reviewer claude-sonnet-4-5-20250929 fail',
      'answer technical gpt-4o-2024-08-06 ',
      'evaluate reviewer claude-sonnet-4-5-20250929 fail',
    ]);
    for (const outcome of Object.values(worker)) {
      expect(outcome.calls.every((c) => c.ok)).toBe(true);
      expect(outcome.replayed).toBe(false);
    }
  });
});

function recording(folder: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(ws.path(folder))
      .sort()
      .map((name) => [name, readFileSync(ws.path(folder, name), 'utf8')]),
  );
}

describe('agentdef dev --record, then --replay with the providers gone and no key', () => {
  it('records one session per target: the three recordings hold the same requests and no key', async () => {
    for (const target of HOSTS) {
      const dev = await serve(['dev', `dist/${target}`, '--record', `recordings/${target}`], LIVE());
      try {
        const recorded = await askAll(dev.url, true);
        expect(recorded).toEqual(live[target]);
      } finally {
        expect(await dev.stop()).toBe(0);
      }
      expect(dev.output().stdout).toMatch(
        new RegExp(`^recorded openai-chat POST /chat/completions into recordings/${target}/[0-9a-f]{64}\\.json$`, 'm'),
      );
      expect(dev.output().stdout).toMatch(
        new RegExp(
          `^recorded anthropic-messages POST /v1/messages into recordings/${target}/[0-9a-f]{64}\\.json$`,
          'm',
        ),
      );
    }
    const requests = (folder: string) =>
      Object.entries(recording(folder)).map(([name, text]) => [name, JSON.parse(text).request]);
    expect(requests('recordings/hb3')).toEqual(requests('recordings/worker'));
    expect(requests('recordings/local')).toEqual(requests('recordings/worker'));
    expect(requests('recordings/checked-in')).toEqual(requests('recordings/worker'));
    const text = Object.values(recording('recordings/worker')).join('');
    for (const secret of Object.values(SUPPORT_SECRETS)) expect(text).not.toContain(secret);
    expect(text).not.toContain(openai.url);
    expect(text).not.toContain(anthropic.url);
    expect(text).not.toContain(ws.dir);
  });

  for (const target of HOSTS)
    it(`${target}: replays the checked-in recording with no key and no provider: the same answers, traces and model calls, said replayed`, async () => {
      const dev = await serve(['dev', `dist/${target}`, '--replay', 'recordings/checked-in'], NO_KEY());
      try {
        expect(dev.output().stdout).toContain(
          '  models:     replayed from recordings/checked-in (19 recorded exchanges; no API key used)',
        );
        const replayed = await askAll(dev.url, false);
        for (const [name, outcome] of Object.entries(replayed) as [Question, Outcome][]) {
          expect(outcome.replayed, name).toBe(true);
          expect({ ...outcome, replayed: false }).toEqual(live[target]?.[name]);
        }
        const asked = await cli(
          ['ask', dev.url, QUESTIONS.technicalFirstTime, '--key', 'receipt.public.jwk'],
          NO_KEY(),
        );
        expect(asked.status, asked.stderr).toBe(0);
        expect(asked.stdout).toMatch(/^receipt: verified /m);
        expect(asked.stdout).toMatch(/^hybrid: routed to technical \(label technical\); evaluator: technical passed$/m);
        expect(asked.stdout).toContain('models: replayed from a recording, not a live model (the receipt says so)');
      } finally {
        expect(await dev.stop()).toBe(0);
      }
    });
});
