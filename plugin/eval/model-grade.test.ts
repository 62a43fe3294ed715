/**
 * `modelGrade` against a scripted OpenAI-wire provider on loopback (the real client, the real wire
 * format): the runtime evaluator's prompt goes out, the verdict comes back read by `readVerdict`,
 * and an unreadable reply, a provider error and no grader all fail without a pass or a throw.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pin, TEST_KEY } from '../runtime/__test-support__/configs';
import { startScriptedProvider, type StubServer } from '../runtime/__test-support__/stub-provider';
import { GRADER_SYSTEM_PROMPT } from '../runtime/hybrid/grade';
import { createModelClient } from '../runtime/providers/create-model-client';
import { modelGrade } from './model-grade';

let server: StubServer & { baseUrl: string };
const replies = [
  'Here you go: {"pass": false, "score": 0.5, "critique": "name the URL", "criteria": [{"index": 0, "pass": true, "reason": "short"}, {"index": 1, "pass": false, "reason": "no URL"}]}',
  'I think it is fine.',
];

beforeAll(async () => {
  server = await startScriptedProvider({
    wire: 'openai-chat',
    apiKey: TEST_KEY,
    script: (index) =>
      index < replies.length
        ? { text: replies[index]! }
        : { status: 500, body: { error: { message: `boom ${TEST_KEY}` } } },
  });
});
afterAll(() => server.close());

describe('modelGrade', () => {
  it('asks with the evaluator prompt and reads the verdict; reasoning is the critique and the reasons', async () => {
    const client = createModelClient(pin('openai-chat', server.baseUrl), { fetch, apiKey: TEST_KEY });
    const grade = modelGrade(() => ({ client, grader: 'judge-mini' }));
    const request = { criteria: ['short', 'names the URL'], task: 'Summarise', answer: 'A page.' };
    const first = await grade(request);
    expect(first).toEqual({
      verdict: {
        pass: false,
        score: 0.5,
        critique: 'name the URL',
        criteria: [
          { index: 0, pass: true, reason: 'short' },
          { index: 1, pass: false, reason: 'no URL' },
        ],
      },
      grader: 'judge-mini',
      reasoning: 'name the URL\n[0] pass: short\n[1] fail: no URL',
      usage: { inputTokens: 10, outputTokens: 5 },
    });
    const sent = server.requests[0]!.body;
    expect(sent.messages[0]).toEqual({ role: 'system', content: GRADER_SYSTEM_PROMPT });
    expect(sent.messages[1].content).toBe(
      'Criteria:\n0. short\n1. names the URL\n\nTask:\nSummarise\n\nAnswer:\nA page.',
    );
    expect(sent.tools).toBeUndefined();

    const second = await grade(request);
    expect(second).toMatchObject({ grader: 'judge-mini', reasoning: 'I think it is fine.' });
    expect(second.verdict).toBeUndefined();

    const third = await grade(request);
    expect(third.verdict).toBeUndefined();
    expect(third.error?.message).toMatch(/^the grader call failed/);
    expect(JSON.stringify(third)).not.toContain(TEST_KEY);
  });

  it("hands on the runner's refusal to choose a grader; a chooser that throws is a failure too", async () => {
    const refused = await modelGrade(() => ({ error: { code: 'no_grader', message: 'no pin named x' } }))({
      criteria: ['a'],
      task: 't',
      answer: 'a',
      grader: 'x',
    });
    expect(refused).toEqual({
      grader: 'x',
      reasoning: '',
      usage: { inputTokens: 0, outputTokens: 0 },
      error: { code: 'no_grader', message: 'no pin named x' },
    });
    const thrown = await modelGrade(() => {
      throw new Error('bad');
    })({ criteria: ['a'], task: 't', answer: 'a' });
    expect(thrown.error?.code).toBe('grader_unavailable');
  });
});
