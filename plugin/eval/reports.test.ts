/**
 * The reports: eval.json is the same bytes for the same results (fixed key order, no clock, no
 * absolute path); junit.xml parses with a real XML parser (Python's expat) whatever the answers and
 * grader reasoning hold, and says what CI needs; the table is terminal-safe.
 */
import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentDefinition } from '../schema/generated/agent-definition.types';
import { evalDefinition, observation } from './__test-support__/eval-fixture';
import type { Grade } from './observation';
import { type LocatedEvalCase, parseEvalCasesText } from './parse-eval-cases';
import { evalReportJson } from './report-json';
import { evalReportJunit } from './report-junit';
import { evalReportTable } from './report-table';
import { type CaseResult, type RunScore, scoreCase, scoreRun } from './score-case';

const HOSTILE =
  'x]]></failure></testcase><testcase name="pwned"/>&amp; <!-- \u0000\u0007\u001b[2J\u202e\ud800 "\'\r\n\tend';

const CASES = `{"id":"good","input":{"text":"hi"},"assertions":[{"type":"contains","value":"hello"},{"type":"invariant","invariant":0}]}
{"id":"bad.case_1-x","input":{"text":"hi"},"assertions":[{"type":"equals","value":"nope"},{"type":"rubric","rubric":"polite"}]}
{"id":"crashed","input":{"text":"hi"},"assertions":[{"type":"max-latency","ms":10}]}
`;

let definition: AgentDefinition;
let cases: LocatedEvalCase[];
let results: CaseResult[];
let run: RunScore;

const grade: Grade = async (request) => ({
  verdict: {
    pass: request.criteria[0] !== 'polite',
    score: request.criteria[0] === 'polite' ? 0.25 : 1,
    critique: HOSTILE,
    criteria: [{ index: 0, pass: request.criteria[0] !== 'polite', reason: HOSTILE }],
  },
  grader: 'judge-mini',
  reasoning: `because ${HOSTILE}`,
  usage: { inputTokens: 7, outputTokens: 3 },
});

beforeAll(async () => {
  definition = evalDefinition();
  cases = parseEvalCasesText(CASES, 'agents/web/evals/cases.jsonl', 'jsonl').cases;
  expect(cases).toHaveLength(3);
  results = [
    await scoreCase(cases[0]!, observation({ answer: { text: `hello ${HOSTILE}` } }), grade, definition),
    await scoreCase(cases[1]!, observation({ answer: { text: HOSTILE } }), grade, definition),
    await scoreCase(
      cases[2]!,
      observation({ answer: undefined, error: { code: 'tool_error', message: HOSTILE }, latencyMs: 5 }),
      grade,
      definition,
    ),
  ];
  run = scoreRun(results, cases, definition, 0.3);
});

const report = () =>
  evalReportJson({
    definition: { slug: 'web-summarizer', version: '2.0.0', digest: `sha-256:${'a'.repeat(64)}` },
    casesDigest: `sha-256:${'b'.repeat(64)}`,
    files: ['agents/web/evals/cases.jsonl'],
    results,
    run,
  });

describe('eval.json', () => {
  it('is the same bytes for the same results, valid JSON, with the fixed top-level order', () => {
    const text = report();
    expect(report()).toBe(text);
    const parsed = JSON.parse(text);
    expect(Object.keys(parsed)).toEqual([
      'reportVersion',
      'definition',
      'casesDigest',
      'files',
      'threshold',
      'passed',
      'totals',
      'invariants',
      'unscoredInvariants',
      'cases',
    ]);
    expect(parsed).toMatchObject({
      reportVersion: 'eval-report/v1',
      threshold: 0.3,
      passed: true,
      totals: { cases: 3, passed: 1 },
    });
    expect(parsed.unscoredInvariants).toEqual([
      definition.capabilityContract.invariants[1],
      definition.capabilityContract.invariants[2],
    ]);
    expect(parsed.cases[1].assertions[1]).toMatchObject({
      type: 'rubric',
      passed: false,
      score: 0.25,
      grader: 'judge-mini',
    });
    expect(parsed.cases[1].assertions[1].reasoning).toBe(`because ${HOSTILE.replace('\ud800', '\ud800')}`);
    expect(text.endsWith('}\n')).toBe(true);
    // No absolute path and no clock: only what the inputs hold.
    expect(text).not.toContain(process.cwd());
    expect(text).not.toMatch(/"\d{4}-\d\d-\d\dT/);
    // A lone surrogate is escaped, so the file is well-formed UTF-8.
    expect(text).toContain('\\ud800');
  });
});

/** Parses XML with Python's expat and returns the testsuites as JSON. */
function parseWithExpat(xml: string): unknown {
  const script = `
import json, sys, xml.etree.ElementTree as ET
root = ET.fromstring(sys.stdin.buffer.read())
def node(e):
    return {"tag": e.tag, "attrib": e.attrib, "text": e.text or "", "children": [node(c) for c in e]}
print(json.dumps(node(root)))
`;
  const out = spawnSync('python3', ['-c', script], { input: Buffer.from(xml, 'utf8'), encoding: 'utf8' });
  expect(out.stderr).toBe('');
  expect(out.status).toBe(0);
  return JSON.parse(out.stdout);
}

interface XmlNode {
  tag: string;
  attrib: Record<string, string>;
  text: string;
  children: XmlNode[];
}

describe('junit.xml', () => {
  it('parses with a real XML parser; one suite per file, one testcase per case, failures and errors', () => {
    const xml = evalReportJunit({ definition: { slug: 'web-summarizer', version: '2.0.0' }, results, run });
    expect(evalReportJunit({ definition: { slug: 'web-summarizer', version: '2.0.0' }, results, run })).toBe(xml);
    const root = parseWithExpat(xml) as XmlNode;
    expect(root.tag).toBe('testsuites');
    expect(root.attrib).toMatchObject({ tests: '3', failures: '1', errors: '1' });
    expect(root.children).toHaveLength(1);
    const suite = root.children[0]!;
    expect(suite.attrib).toMatchObject({
      name: 'agents/web/evals/cases.jsonl',
      tests: '3',
      failures: '1',
      errors: '1',
    });
    const [properties, ...testcases] = suite.children;
    expect(properties!.children.map((p) => p.attrib['value'])).toEqual([
      `[1] ${definition.capabilityContract.invariants[1]}`,
      `[2] ${definition.capabilityContract.invariants[2]}`,
    ]);
    // The hostile text did not open a testcase of its own.
    expect(testcases.map((t) => t.attrib['name'])).toEqual(['good', 'bad.case_1-x', 'crashed']);
    const bad = testcases[1]!;
    const failures = bad.children.filter((c) => c.tag === 'failure');
    expect(failures.map((f) => f.attrib['type'])).toEqual(['equals', 'rubric']);
    // Text round-trips, except what XML cannot carry (C0 controls, lone surrogates), which is U+FFFD.
    const carried = HOSTILE.replaceAll('\u0000', '\uFFFD')
      .replaceAll('\u0007', '\uFFFD')
      .replaceAll('\u001b', '\uFFFD')
      .replace('\ud800', '\uFFFD');
    expect(failures[1]!.text).toContain(`because ${carried}`);
    expect(failures[0]!.attrib['message']).toContain(carried.slice(0, 40).replace(/\s+/g, ' '));
    const crashed = testcases[2]!;
    expect(crashed.children.find((c) => c.tag === 'error')?.attrib).toMatchObject({ type: 'tool_error' });
    expect(crashed.children.find((c) => c.tag === 'error')?.text).toBe(carried);
  });
});

describe('the table', () => {
  it('has a row per assertion, totals, the unscored invariants, and no raw control character', () => {
    const table = evalReportTable(results, run);
    expect(evalReportTable(results, run)).toBe(table);
    const raw = [...table].filter((ch) => {
      const code = ch.codePointAt(0)!;
      return (code < 0x20 && code !== 0x0a) || code === 0x202e;
    });
    expect(raw).toEqual([]);
    expect(table).toContain('tool_error: x]]></failure></testcase><testcase name="pwned"/>&amp; <!--');
    const lines = table.split('\n');
    expect(lines[0]).toMatch(/^case\s+assertion\s+result\s+score\s+cost\s+latency\s+detail$/);
    expect(lines.filter((l) => /^good\s/.test(l))).toHaveLength(1);
    expect(table).toContain('FAIL');
    expect(table).toContain('ERROR');
    expect(table).toContain('1 of 3 cases passed (pass rate 0.33, threshold 0.30): PASSED');
    expect(table).toContain('unscored invariants (no case scores them: add an invariant assertion or `covers`): 2');
  });
});
