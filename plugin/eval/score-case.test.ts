/**
 * The assertion engine: every kind passing and failing (and its edge cases), model-graded
 * assertions through a `Grade` (verdict, threshold, unreadable verdict, grader failure, no answer),
 * weighted case scores, run totals against a threshold, invariant coverage, and secrets scrubbed
 * from every detail and reasoning.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createRedactor } from '../runtime/redact';
import type { AgentDefinition } from '../schema/generated/agent-definition.types';
import { evalDefinition, observation } from './__test-support__/eval-fixture';
import type { EvalObservation, Grade, GradeRequest, GradeResult } from './observation';
import { type LocatedEvalCase, parseEvalCasesText } from './parse-eval-cases';
import { scoreCase, scoreRun } from './score-case';

let definition: AgentDefinition;
beforeAll(() => {
  definition = evalDefinition();
});

function caseOf(assertions: unknown[], extra: Record<string, unknown> = {}): LocatedEvalCase {
  const line = JSON.stringify({ id: 'c1', input: { text: 'Summarise https://example.com' }, ...extra, assertions });
  const parsed = parseEvalCasesText(`${line}\n`, 'evals/t.jsonl', 'jsonl');
  expect(parsed.diagnostics).toEqual([]);
  return parsed.cases[0]!;
}

/** A Grade answering from a list, recording what it was asked. */
function grader(results: GradeResult[]): Grade & { asked: GradeRequest[] } {
  const asked: GradeRequest[] = [];
  const grade = (async (request: GradeRequest) => {
    asked.push(request);
    const next = results.shift();
    if (next === undefined) throw new Error('no more verdicts');
    return next;
  }) as Grade & { asked: GradeRequest[] };
  grade.asked = asked;
  return grade;
}
const noGrade = grader([]);

async function one(assertion: Record<string, unknown>, obs: Partial<EvalObservation> = {}, extra = {}) {
  const result = await scoreCase(caseOf([assertion], extra), observation(obs), noGrade, definition);
  return result.assertions[0]!;
}

describe('deterministic assertions', () => {
  it('equals: text exactly, data by canonical JSON, the expected answer by default', async () => {
    expect((await one({ type: 'equals', value: 'hi' }, { answer: { text: 'hi' } })).passed).toBe(true);
    const wrong = await one({ type: 'equals', value: 'hi' }, { answer: { text: 'hi ' } });
    expect(wrong).toMatchObject({ passed: false, score: 0 });
    expect(wrong.detail).toBe('the answer "hi " is not the expected text "hi"');
    expect(
      (await one({ type: 'equals', value: { b: 1, a: [1, 2] } }, { answer: { text: '{"a":[1,2],"b":1}' } })).passed,
    ).toBe(true);
    expect((await one({ type: 'equals', value: { a: 1 } }, { answer: { text: 'x', data: { a: 1 } } })).passed).toBe(
      true,
    );
    expect((await one({ type: 'equals', value: { a: 1 } }, { answer: { text: 'x', data: { a: 2 } } })).passed).toBe(
      false,
    );
    const notJson = await one({ type: 'equals', value: [1] }, { answer: { text: 'not json' } });
    expect(notJson.detail).toBe('the answer has no data part and its text is not JSON');
    expect((await one({ type: 'equals' }, { answer: { text: 'hello' } }, { expected: { text: 'hello' } })).passed).toBe(
      true,
    );
    expect((await one({ type: 'equals' }, { answer: { text: '[1]' } }, { expected: { data: [1] } })).passed).toBe(true);
    expect((await one({ type: 'equals', value: 0 }, { answer: { text: '0' } })).passed).toBe(true);
  });

  it('contains / not-contains, with and without case', async () => {
    expect((await one({ type: 'contains', value: 'example.com' })).passed).toBe(true);
    expect((await one({ type: 'contains', value: 'EXAMPLE.com' })).passed).toBe(false);
    expect((await one({ type: 'contains', value: 'EXAMPLE.com', caseSensitive: false })).passed).toBe(true);
    expect((await one({ type: 'not-contains', value: 'hello' })).passed).toBe(false);
    const ok = await one({ type: 'not-contains', value: 'password' });
    expect(ok).toMatchObject({ passed: true, score: 1, detail: 'the answer does not contain "password"' });
  });

  it('regex: matches, fails, and refuses an answer longer than its engine reads', async () => {
    expect((await one({ type: 'regex', pattern: 'https?://\\S+' })).passed).toBe(true);
    expect((await one({ type: 'regex', pattern: '^\\d+$' })).passed).toBe(false);
    expect((await one({ type: 'regex', pattern: 'SAYS', flags: 'i' })).passed).toBe(true);
    const long = await one({ type: 'regex', pattern: 'x.*y', flags: 'i' }, { answer: { text: 'a'.repeat(20_001) } });
    expect(long.passed).toBe(false);
    expect(long.detail).toMatch(
      /20001 characters; this pattern \(backtracking engine\) is matched against at most 20000/,
    );
    // The classic exponential pattern on the linear engine, against a long hostile answer: it just answers.
    const hostile = await one({ type: 'regex', pattern: '(a+)+$' }, { answer: { text: `${'a'.repeat(50_000)}!` } });
    expect(hostile.passed).toBe(false);
  });

  it('json-schema: the data part, else the text as JSON; formats; failures say where', async () => {
    const schema = {
      type: 'object',
      required: ['title'],
      properties: { title: { type: 'string', minLength: 2 }, mail: { type: 'string', format: 'email' } },
    };
    expect((await one({ type: 'json-schema', schema }, { answer: { text: '{"title":"ok"}' } })).passed).toBe(true);
    expect(
      (await one({ type: 'json-schema', schema }, { answer: { text: '', data: { title: 'ok', mail: 'a@b.co' } } }))
        .passed,
    ).toBe(true);
    const bad = await one({ type: 'json-schema', schema }, { answer: { text: '{"title":"x","mail":"nope"}' } });
    expect(bad.passed).toBe(false);
    expect(bad.detail).toMatch(/\/title must NOT have fewer than 2 characters; \/mail must match format "email"/);
    expect((await one({ type: 'json-schema', schema }, { answer: { text: 'prose' } })).detail).toMatch(/not JSON/);
    const tooLong = await one(
      { type: 'json-schema', schema: { type: 'object', properties: { s: { type: 'string', pattern: '(?=a)a+$' } } } },
      { answer: { text: JSON.stringify({ s: 'a'.repeat(20_001) }) } },
    );
    expect(tooLong.detail).toMatch(/longer than 20000 characters/);
    // Two schemas with different patterns in one run: each pattern is its own (Ajv keys them by text).
    const two = {
      type: 'object',
      properties: { a: { type: 'string', pattern: '^a+$' }, b: { type: 'string', pattern: '^b+$' } },
    };
    expect((await one({ type: 'json-schema', schema: two }, { answer: { text: '{"a":"aa","b":"bb"}' } })).passed).toBe(
      true,
    );
    expect(
      (await one({ type: 'json-schema', schema: two }, { answer: { text: '{"a":"aa","b":"ab"}' } })).detail,
    ).toMatch(/\/b must match pattern/);
  });

  it('max-length counts code points; max-latency; max-cost by tokens and model calls', async () => {
    expect((await one({ type: 'max-length', chars: 2 }, { answer: { text: '😀😀' } })).passed).toBe(true);
    expect((await one({ type: 'max-length', chars: 1 }, { answer: { text: '😀😀' } })).detail).toBe(
      'the answer has 2 characters, more than 1',
    );
    expect((await one({ type: 'max-latency', ms: 120 })).passed).toBe(true);
    expect((await one({ type: 'max-latency', ms: 119 })).detail).toBe('the run took 120 ms, more than 119');
    expect((await one({ type: 'max-cost', tokens: 120, modelCalls: 2 })).passed).toBe(true);
    const over = await one({ type: 'max-cost', tokens: 119, modelCalls: 1 });
    expect(over.detail).toBe('the run used 120 tokens, more than 119 and 2 model calls, more than 1');
  });

  it('tool-called (at least once, exactly n times) and tool-not-called', async () => {
    const calls = {
      toolCalls: [
        { name: 'fetch_page', ok: true },
        { name: 'fetch_page', ok: false, errorCode: 'x' },
      ],
    };
    expect((await one({ type: 'tool-called', tool: 'fetch_page' }, calls)).passed).toBe(true);
    expect((await one({ type: 'tool-called', tool: 'fetch_page', times: 2 }, calls)).passed).toBe(true);
    expect((await one({ type: 'tool-called', tool: 'fetch_page', times: 1 }, calls)).detail).toBe(
      '"fetch_page" was called 2 time(s), not exactly 1 time(s)',
    );
    expect((await one({ type: 'tool-called', tool: 'fetch_page' }, { toolCalls: [] })).passed).toBe(false);
    expect((await one({ type: 'tool-not-called', tool: 'fetch_page' }, { toolCalls: [] })).passed).toBe(true);
    expect((await one({ type: 'tool-not-called', tool: 'fetch_page' }, calls)).passed).toBe(false);
  });

  it('no-egress-outside-allowlist names the hosts, sorted and once', async () => {
    expect((await one({ type: 'no-egress-outside-allowlist' })).passed).toBe(true);
    const blocked = await one(
      { type: 'no-egress-outside-allowlist' },
      { egressBlocked: ['z.evil', 'a.evil', 'z.evil'] },
    );
    expect(blocked).toMatchObject({
      passed: false,
      detail: 'the run tried to reach 2 host(s) outside its allow-list: "a.evil", "z.evil"',
    });
  });

  it('a run with no answer fails the answer assertions and the case, saying why', async () => {
    const evalCase = caseOf([
      { type: 'contains', value: 'x' },
      { type: 'max-latency', ms: 1000 },
    ]);
    const result = await scoreCase(
      evalCase,
      observation({
        answer: undefined,
        error: { code: 'wall_clock', message: 'the run took too long' },
        stopReason: 'wall_clock',
      }),
      noGrade,
      definition,
    );
    expect(result.assertions.map((a) => [a.passed, a.detail])).toEqual([
      [false, 'the run gave no answer (wall_clock)'],
      [true, 'the run took 120 ms (at most 1000)'],
    ]);
    expect(result).toMatchObject({ passed: false, error: { code: 'wall_clock', message: 'the run took too long' } });
  });
});

const verdict = (pass: boolean, score: number, reasons: string[]): GradeResult => ({
  verdict: {
    pass,
    score,
    critique: pass ? '' : 'fix it',
    criteria: reasons.map((reason, index) => ({ index, pass, reason })),
  },
  grader: 'judge-mini',
  reasoning: `${pass ? 'ok' : 'fix it'}: ${reasons.join('; ')}`,
  usage: { inputTokens: 50, outputTokens: 10 },
});

describe('model-graded assertions', () => {
  it('an invariant by index and by text is graded against its text, the task and the answer; reasoning kept', async () => {
    const grade = grader([verdict(true, 1, ['quotes are verbatim']), verdict(false, 0, ['no URL'])]);
    const evalCase = caseOf([
      { type: 'invariant', invariant: 0 },
      { type: 'invariant', invariant: 'The summary names the URL and the time it was fetched.', grader: 'judge-mini' },
    ]);
    const result = await scoreCase(evalCase, observation(), grade, definition);
    expect(grade.asked).toEqual([
      {
        criteria: ['Every quoted sentence appears verbatim on the fetched page.'],
        task: 'Summarise https://example.com',
        answer: 'The page at https://example.com says hello.',
      },
      {
        criteria: ['The summary names the URL and the time it was fetched.'],
        task: 'Summarise https://example.com',
        answer: 'The page at https://example.com says hello.',
        grader: 'judge-mini',
      },
    ]);
    expect(result.assertions).toEqual([
      {
        id: '0-invariant',
        type: 'invariant',
        passed: true,
        score: 1,
        weight: 1,
        detail: 'judge-mini scored 1 (1 of 1 criteria met); passes by the verdict',
        grader: 'judge-mini',
        reasoning: 'ok: quotes are verbatim',
      },
      {
        id: '1-invariant',
        type: 'invariant',
        passed: false,
        score: 0,
        weight: 1,
        detail: 'judge-mini scored 0 (0 of 1 criteria met); fails by the verdict',
        grader: 'judge-mini',
        reasoning: 'fix it: no URL',
      },
    ]);
    expect(result.cost).toMatchObject({
      graderCalls: 2,
      graderInputTokens: 100,
      graderOutputTokens: 20,
      inputTokens: 100,
      outputTokens: 20,
      modelCalls: 2,
    });
    expect(result).toMatchObject({ passed: false, score: 0.5 });
  });

  it('a rubric with a threshold passes on the score, whatever the verdict; the file grader is used', async () => {
    const yaml =
      'schemaVersion: eval-cases/v1\ngrader: judge-mini\ncases:\n  - id: r\n    input: { text: t }\n    assertions:\n      - { type: rubric, rubric: [short, polite], threshold: 0.5 }\n';
    const evalCase = parseEvalCasesText(yaml, 'evals/r.yaml', 'yaml').cases[0]!;
    const grade = grader([
      {
        ...verdict(false, 0.5, ['short', 'rude']),
        verdict: {
          pass: false,
          score: 0.5,
          critique: 'be polite',
          criteria: [
            { index: 0, pass: true, reason: 'short' },
            { index: 1, pass: false, reason: 'rude' },
          ],
        },
      },
    ]);
    const result = await scoreCase(evalCase, observation(), grade, definition);
    expect(grade.asked[0]).toMatchObject({ criteria: ['short', 'polite'], grader: 'judge-mini' });
    expect(result.assertions[0]).toMatchObject({
      passed: true,
      score: 0.5,
      detail: 'judge-mini scored 0.5 (1 of 2 criteria met); passes by threshold 0.5',
    });
  });

  it('an unreadable verdict, a grader error, a throwing grader and no answer all fail, never pass', async () => {
    const grade = grader([
      { grader: 'judge-mini', reasoning: 'I think it is fine', usage: { inputTokens: 5, outputTokens: 5 } },
      {
        grader: 'judge-mini',
        reasoning: '',
        usage: { inputTokens: 0, outputTokens: 0 },
        error: { code: 'provider_error', message: 'down' },
      },
    ]);
    const evalCase = caseOf([
      { type: 'rubric', rubric: 'a' },
      { type: 'rubric', rubric: 'b' },
      { type: 'rubric', rubric: 'c' },
    ]);
    const result = await scoreCase(evalCase, observation(), grade, definition);
    expect(result.assertions.map((a) => [a.passed, a.detail])).toEqual([
      [false, "the grader's reply held no readable verdict"],
      [false, 'the grader failed (provider_error)'],
      [false, 'the grader judge-mini could not be asked'],
    ]);
    const none = await scoreCase(
      caseOf([{ type: 'rubric', rubric: 'a' }]),
      observation({ answer: undefined }),
      noGrade,
      definition,
    );
    expect(none.assertions[0]!.detail).toBe('the run gave no answer (stopped: completed)');
  });
});

describe('case and run scores', () => {
  it('weights the case score; weight 0 counts in pass/fail only', async () => {
    const evalCase = caseOf([
      { type: 'contains', value: 'hello', weight: 3 },
      { type: 'contains', value: 'absent', weight: 1 },
      { type: 'contains', value: 'absent', weight: 0, id: 'free' },
    ]);
    const result = await scoreCase(evalCase, observation(), noGrade, definition);
    expect(result.score).toBe(0.75);
    expect(result.passed).toBe(false);
    expect(result.assertions.map((a) => a.id)).toEqual(['0-contains', '1-contains', 'free']);
  });

  it('scoreRun: totals, pass rate against the threshold, and the invariants no case scores', async () => {
    const grade = grader([verdict(true, 1, ['ok'])]);
    const a = caseOf([{ type: 'invariant', invariant: 1 }]);
    const b = caseOf([{ type: 'contains', value: 'absent' }], { id: 'c2' });
    const results = [
      await scoreCase(a, observation(), grade, definition),
      await scoreCase(b, observation(), grade, definition),
    ];
    const run = scoreRun(results, [a, b], definition, 0.5);
    expect(run.totals).toEqual({
      cases: 2,
      passed: 1,
      failed: 1,
      passRate: 0.5,
      score: 0.5,
      assertions: 2,
      assertionsPassed: 1,
      inputTokens: 200,
      outputTokens: 40,
      modelCalls: 4,
      graderInputTokens: 50,
      graderOutputTokens: 10,
      graderCalls: 1,
    });
    expect(run.passed).toBe(true);
    expect(scoreRun(results, [a, b], definition).passed).toBe(false);
    expect(run.coverage.unscoredIndices).toEqual([0, 2]);
    expect(run.coverage.unscored).toEqual([
      'Every quoted sentence appears verbatim on the fetched page.',
      'Pages that cannot be fetched are reported, never summarized from memory.',
    ]);
    expect(run.coverage.invariants[1]).toEqual({
      index: 1,
      text: 'The summary names the URL and the time it was fetched.',
      cases: ['c1'],
    });
    expect(scoreRun([], [], definition, 0)).toMatchObject({ passed: false, totals: { cases: 0, passRate: 0 } });
  });
});

describe('secrets', () => {
  it('are scrubbed from details, reasoning, error messages; answers are only quoted in short excerpts', async () => {
    const secret = 'sk-live-4f9a8b7c6d5e4f3a2b1c';
    const grade = grader([{ ...verdict(false, 0, [`leaked ${secret}`]), reasoning: `the answer repeats ${secret}` }]);
    const evalCase = caseOf([
      { type: 'equals', value: 'x' },
      { type: 'rubric', rubric: 'no secrets' },
      { type: 'regex', pattern: '^nothing$' },
    ]);
    const result = await scoreCase(
      evalCase,
      observation({
        answer: { text: `key: ${secret} ${'y'.repeat(200)}` },
        error: { code: 'tool_error', message: `upstream said ${secret}` },
      }),
      grade,
      definition,
      { redactor: createRedactor([secret]) },
    );
    const text = JSON.stringify(result);
    expect(text).not.toContain(secret);
    expect(text).toContain('[redacted]');
    expect(result.assertions[0]!.detail.length).toBeLessThan(200);
  });
});

describe('covers, file graders and data inputs', () => {
  it("any assertion's covers count toward coverage; an invariant assertion covers its own", async () => {
    const a = caseOf([
      {
        type: 'contains',
        value: 'hello',
        covers: [0, 'Pages that cannot be fetched are reported, never summarized from memory.'],
      },
    ]);
    const result = await scoreCase(a, observation(), noGrade, definition);
    const run = scoreRun([result], [a], definition);
    expect(run.coverage.unscoredIndices).toEqual([1]);
    expect(run.coverage.invariants.map((i) => i.cases)).toEqual([['c1'], [], ['c1']]);
  });

  it('a file grader is handed to the Grade with its pin; the task is the text and the data part as the model saw it', async () => {
    const yaml = `schemaVersion: eval-cases/v1
graders: [{ name: judge, providerId: local-ollama, modelId: llama3.1, modelVersion: 8b-q4 }]
cases:
  - id: d
    input: { text: "Apply the diff", data: { source: "a\\nb", diff: "-a" } }
    assertions: [{ type: rubric, rubric: the diff applies, grader: judge }, { type: rubric, rubric: short, grader: judge-mini }]
`;
    const parsed = parseEvalCasesText(yaml, 'evals/d.yaml', 'yaml');
    expect(parsed.diagnostics).toEqual([]);
    const grade = grader([verdict(true, 1, ['ok']), verdict(true, 1, ['ok'])]);
    await scoreCase(parsed.cases[0]!, observation(), grade, definition);
    expect(grade.asked[0]).toEqual({
      criteria: ['the diff applies'],
      task: 'Apply the diff\n\nInput data (JSON):\n{"source":"a\\nb","diff":"-a"}',
      answer: 'The page at https://example.com says hello.',
      grader: 'judge',
      pin: { name: 'judge', providerId: 'local-ollama', modelId: 'llama3.1', modelVersion: '8b-q4' },
    });
    expect(grade.asked[1]).not.toHaveProperty('pin');
  });
});
