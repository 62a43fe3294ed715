/**
 * The eval grader asks a real HTTP server speaking the provider's wire (the scripted stand-in)
 * with the runtime evaluator's prompt, reads its verdict, keeps its reasoning, and never passes a
 * failure (no such pin, an unreadable reply, a refused request).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { GRADER_SYSTEM_PROMPT } from '../runtime/hybrid/grade';
import { type StubServer, startScriptedProvider } from '../runtime/__test-support__/stub-provider';
import type { RuntimeModelPin } from '../runtime/runtime-config';
import { scriptedVerdict } from './__test-support__/grading-stand-in';
import { fileGraderPin } from './file-grader-pin';
import { graderPin, pinGrader } from './pin-grader';

const KEY = 'sk-ant-test-0123456789abcdefghij';
let servers: StubServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

function pin(role: RuntimeModelPin['role'], baseUrl: string, model = 'claude-haiku-4-5-20251001'): RuntimeModelPin {
  return {
    role,
    providerId: 'anthropic',
    wire: 'anthropic-messages',
    model,
    modelVersion: '20251001',
    sampling: {},
    secretBinding: 'ANTHROPIC_API_KEY',
    baseUrl,
  };
}

async function grader(judge?: Parameters<typeof scriptedVerdict>[2], reply?: string) {
  const server = await startScriptedProvider({
    wire: 'anthropic-messages',
    apiKey: KEY,
    script: (_i, ctx) => {
      const body = ctx.body as { system?: string; messages: { content: string | { text: string }[] }[] };
      const user = body.messages[0]!.content;
      const text = typeof user === 'string' ? user : user.map((p) => p.text).join('');
      return { text: reply ?? scriptedVerdict(body.system, text, judge) ?? 'not a grading request' };
    },
  });
  servers.push(server);
  return server;
}

describe('pinGrader', () => {
  it('asks the evaluator pin with the grading prompt and keeps the verdict and its reasons', async () => {
    const evaluator = await grader((criterion, answer) =>
      criterion.includes('cites')
        ? { pass: /\(from .+\.md\)/.test(answer), reason: 'looked for a note file name' }
        : { pass: false, reason: 'no dates given' },
    );
    const grade = pinGrader({
      pins: [pin('primary', 'http://127.0.0.1:9/never'), pin('evaluator', evaluator.baseUrl)],
      names: [{ modelId: 'claude-haiku-4-5' }, { name: 'judge', modelId: 'claude-haiku-4-5' }],
      apiKey: async () => KEY,
    });
    const result = await grade({
      criteria: ['The answer cites a note.', 'The answer gives the dates.'],
      task: 'what venue?',
      answer: 'Quinta da Serra (from 2026-06-12-offsite.md)',
    });
    expect(result.error).toBeUndefined();
    expect(result.grader).toBe('judge');
    expect(result.verdict).toMatchObject({
      pass: false,
      criteria: [
        { index: 0, pass: true, reason: 'looked for a note file name' },
        { index: 1, pass: false, reason: 'no dates given' },
      ],
    });
    expect(result.reasoning).toBe('no dates given\n[0] pass: looked for a note file name\n[1] fail: no dates given');
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    const sent = evaluator.requests[0]!.body as { system: string; messages: { content: unknown }[] };
    expect(sent.system).toBe(GRADER_SYSTEM_PROMPT);
    expect(JSON.stringify(sent.messages[0]!.content)).toContain('0. The answer cites a note.');
  });

  it('takes the pin a grader name gives (its name, else its modelId), else the primary when there is no evaluator', async () => {
    const named = {
      pins: [pin('primary', 'http://a'), pin('specialist', 'http://b', 'm2')],
      names: [{ modelId: 'p' }, { name: 'strict', modelId: 'gpt' }],
    };
    expect(graderPin({ grader: 'strict' }, named)).toMatchObject({ label: 'strict', pin: { baseUrl: 'http://b' } });
    expect(graderPin({ grader: 'gpt' }, named)).toMatchObject({ label: 'strict' });
    expect(graderPin({ grader: 'p' }, named)).toMatchObject({ label: 'p', pin: { role: 'primary' } });
    expect(graderPin({}, named)).toMatchObject({
      label: 'primary pin claude-haiku-4-5-20251001',
      pin: { role: 'primary' },
    });
    expect(graderPin({ grader: 'lenient' }, named)).toBe(
      'no model pin is named "lenient" (by modelSet[].name or modelId): name one, or drop grader to use the evaluator pin',
    );
  });

  it("asks a grader the case's file declares (the request's pin) as the pin its provider implies, settled like the agent's", async () => {
    const declared = fileGraderPin({
      name: 'strict',
      providerId: 'anthropic',
      modelId: 'claude-haiku-4-5',
      modelVersion: '20251001',
      samplingParams: { temperature: 0 },
    });
    expect(declared).toEqual({
      role: 'evaluator',
      name: 'strict',
      providerId: 'anthropic',
      wire: 'anthropic-messages',
      model: 'claude-haiku-4-5-20251001',
      modelVersion: '20251001',
      sampling: { temperature: 0 },
      secretBinding: 'ANTHROPIC_API_KEY',
    });
    expect(
      fileGraderPin({ name: 'local', providerId: 'local-ollama', modelId: 'llama3.1', modelVersion: '8b' }),
    ).toMatchObject({ wire: 'ollama-chat', model: 'llama3.1:8b' });
    const server = await grader();
    const grade = pinGrader({
      pins: [pin('primary', 'http://127.0.0.1:9/never')],
      names: [{ name: 'strict', modelId: 'claude-haiku-4-5' }],
      settle: (p) => ({ ...p, baseUrl: server.baseUrl }),
      apiKey: async (p) => (p.secretBinding === 'ANTHROPIC_API_KEY' ? KEY : undefined),
    });
    const result = await grade({
      criteria: ['c'],
      task: 't',
      answer: 'a',
      grader: 'strict',
      pin: { name: 'strict', providerId: 'anthropic', modelId: 'claude-haiku-4-5', modelVersion: '20251001' },
    });
    expect(result).toMatchObject({ grader: 'strict', verdict: { pass: true } });
    expect(server.requests).toHaveLength(1);
    expect((server.requests[0]!.body as { model: string }).model).toBe('claude-haiku-4-5-20251001');
  });

  it('never passes what it cannot read: an unknown pin, a reply with no verdict, a refused request', async () => {
    const prose = await grader(undefined, 'Looks good to me!');
    const names = [{ modelId: 'claude' }];
    const unreadable = await pinGrader({ pins: [pin('evaluator', prose.baseUrl)], names, apiKey: async () => KEY })({
      criteria: ['x'],
      task: 't',
      answer: 'a',
    });
    expect(unreadable).toMatchObject({ reasoning: 'Looks good to me!' });
    expect(unreadable.verdict).toBeUndefined();

    const refused = await pinGrader({
      pins: [pin('evaluator', prose.baseUrl)],
      names,
      apiKey: async () => 'sk-ant-wrong-0123456789abcdefghij',
    })({ criteria: ['x'], task: 't', answer: 'a' });
    expect(refused.verdict).toBeUndefined();
    expect(refused.error?.code).toMatch(/^[a-z_]+$/);
    expect(JSON.stringify(refused)).not.toContain('sk-ant-');

    const unknown = await pinGrader({ pins: [pin('evaluator', prose.baseUrl)], names, apiKey: async () => KEY })({
      criteria: ['x'],
      task: 't',
      answer: 'a',
      grader: 'nobody',
    });
    expect(unknown).toMatchObject({ error: { code: 'grader_unknown' }, grader: 'nobody' });
    expect(prose.requests).toHaveLength(2);
  });
});
