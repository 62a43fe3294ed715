/**
 * Loading eval cases: YAML and JSONL beside a definition, located diagnostics (file:line:column and
 * JSON Pointer) for syntax, schema, case and definition problems, hostile input refused without a
 * crash or a hang, `--cases` files, folders and globs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../definition/diagnostic';
import { formatDiagnostics } from '../definition/format-diagnostics';
import type { AgentDefinition } from '../schema/generated/agent-definition.types';
import { evalDefinition, evalWorkspace } from './__test-support__/eval-fixture';
import { loadEvalCases } from './load-eval-cases';
import { parseEvalCasesText } from './parse-eval-cases';

let definition: AgentDefinition;
let ws: ReturnType<typeof evalWorkspace>;
beforeAll(() => {
  definition = evalDefinition();
  ws = evalWorkspace('load');
});
afterAll(() => ws.remove());

const VALID_YAML = `schemaVersion: eval-cases/v1
cases:
  - id: quotes-verbatim
    description: quotes come from the page
    input:
      text: Summarise https://example.com
    expected:
      text: hello
    assertions:
      - type: contains
        value: example.com
      - type: regex
        pattern: "https?://\\\\S+"
      - type: invariant
        invariant: 0
      - type: rubric
        rubric: [The summary is short, It names the URL]
        threshold: 0.5
        grader: judge-mini
  - id: no-egress
    input: { text: Summarise https://evil.example, skill: web.summarize }
    assertions:
      - { type: no-egress-outside-allowlist }
      - { type: tool-called, tool: fetch_page, times: 1 }
      - { type: max-cost, tokens: 5000 }
`;

const at = (d: Diagnostic) => `${d.file}:${d.line}:${d.column} ${d.path} [${d.rule}]`;

function load(files: Record<string, string | Uint8Array>, cases?: string[]) {
  const folder = `agents/case-${Math.random().toString(36).slice(2)}`;
  ws.write(`${folder}/agent.json`, JSON.stringify(definition));
  for (const [name, text] of Object.entries(files)) ws.write(`${folder}/${name}`, text);
  return {
    folder,
    result: loadEvalCases({
      definitionFile: `${folder}/agent.json`,
      definition,
      cwd: ws.root,
      ...(cases ? { cases: cases.map((c) => `${folder}/${c}`) } : {}),
    }),
  };
}

describe('loadEvalCases: valid files', () => {
  it('reads every YAML and JSONL file of evals/ beside the definition, in code-point order, named relative to cwd', () => {
    const { folder, result } = load({
      'evals/b.yaml': VALID_YAML,
      'evals/a.jsonl': `{"id":"j1","input":{"text":"hi"},"assertions":[{"type":"equals","value":"hi"}]}\n\n{"id":"j2","input":{"text":"x"},"assertions":[{"type":"max-length","chars":10}]}\n`,
      'evals/notes.txt': 'not a cases file',
    });
    expect(result.diagnostics).toEqual([]);
    expect(result.ioErrors).toEqual([]);
    expect(result.valid).toBe(true);
    expect(result.files).toEqual([`${folder}/evals/a.jsonl`, `${folder}/evals/b.yaml`]);
    expect(result.cases.map((c) => [c.value.id, c.file, c.line, c.column])).toEqual([
      ['j1', `${folder}/evals/a.jsonl`, 1, 1],
      ['j2', `${folder}/evals/a.jsonl`, 3, 1],
      ['quotes-verbatim', `${folder}/evals/b.yaml`, 3, 5],
      ['no-egress', `${folder}/evals/b.yaml`, 20, 5],
    ]);
    expect(result.cases[2]!.locate('/assertions/1/pattern')).toEqual({ line: 13, column: 18 });
    expect(result.sources.get(`${folder}/evals/b.yaml`)).toBe(VALID_YAML);
  });

  it('finds nothing, and says nothing, when the definition has no evals folder', () => {
    const { result } = load({});
    expect(result).toMatchObject({ cases: [], files: [], diagnostics: [], ioErrors: [], valid: true });
  });

  it('reads --cases files, folders and last-segment globs; names what matches nothing', () => {
    const { folder, result } = load(
      {
        'more/x.yaml': VALID_YAML.replace(/quotes-verbatim/, 'x1').replace(/no-egress/, 'x2'),
        'more/y.yml': VALID_YAML.replace(/quotes-verbatim/, 'y1').replace(/no-egress/, 'y2'),
        'other/z.jsonl': '{"id":"z","input":{"text":"z"},"assertions":[{"type":"max-latency","ms":5}]}\n',
      },
      ['more/*.y*ml', 'other', 'missing/*.yaml', 'notes.txt'],
    );
    expect(result.files).toEqual([`${folder}/more/x.yaml`, `${folder}/more/y.yml`, `${folder}/other/z.jsonl`]);
    expect(result.cases.map((c) => c.value.id)).toEqual(['x1', 'x2', 'y1', 'y2', 'z']);
    expect(result.ioErrors).toEqual([
      `--cases ${folder}/missing/*.yaml: matches no .yaml, .yml or .jsonl file`,
      `--cases ${folder}/notes.txt: not an eval-cases file (expected .yaml, .yml or .jsonl)`,
    ]);
    expect(result.valid).toBe(false);
  });
});

describe('loadEvalCases: located diagnostics', () => {
  it('a YAML syntax error: line and column, nothing loaded', () => {
    const { folder, result } = load({
      'evals/bad.yaml': 'schemaVersion: eval-cases/v1\ncases:\n  - id: a\n    input: {text: "x"\n',
    });
    expect(result.cases).toEqual([]);
    expect(result.valid).toBe(false);
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]).toMatchObject({ file: `${folder}/evals/bad.yaml`, rule: 'syntax', line: 5 });
    expect(result.diagnostics[0]!.suggestion).toMatch(/YAML/);
  });

  it('a JSONL syntax error: the line of the file and the column in it', () => {
    const { folder, result } = load({
      'evals/bad.jsonl':
        '{"id":"ok","input":{"text":"x"},"assertions":[{"type":"max-latency","ms":1}]}\n{"id":"b", "input": {"text": "x",}}\n',
    });
    expect(result.diagnostics.map(at)).toEqual([`${folder}/evals/bad.jsonl:2:33 /input [syntax]`]);
    expect(result.diagnostics[0]!.suggestion).toMatch(/one case as a JSON object on a single line/);
    expect(result.cases.map((c) => c.value.id)).toEqual(['ok']);
  });

  it('schema errors in YAML: unknown field (with a did-you-mean), missing field, wrong assertion type', () => {
    const { folder, result } = load({
      'evals/schema.yaml': `schemaVersion: eval-cases/v1
cases:
  - id: a
    inptu: { text: x }
    assertions:
      - type: contians
        value: x
`,
    });
    const file = `${folder}/evals/schema.yaml`;
    expect(result.diagnostics.map(at)).toEqual([
      `${file}:4:5 /cases/0/inptu [schema]`,
      `${file}:6:15 /cases/0/assertions/0/type [schema]`,
    ]);
    expect(result.diagnostics[0]!.message).toMatch(/did you mean `input`\?/);
    expect(result.diagnostics[1]!.message).toMatch(/must be one of .*"contains"/);
    expect(result.diagnostics[1]!.suggestion).toBe('did you mean "contains"?');
  });

  it("schema errors in JSONL: located in the file, pointers relative to the line's case", () => {
    const { folder, result } = load({
      'evals/schema.jsonl':
        '{"id":"a","input":{"text":"x"},"assertions":[{"type":"max-length","chars":1}]}\n' +
        '{"id":"b","input":{"text":"x"},"assertions":[{"type":"max-length","chars":-1}],"extra":true}\n' +
        '[1,2]\n',
    });
    const file = `${folder}/evals/schema.jsonl`;
    expect(result.diagnostics.map(at)).toEqual([
      `${file}:2:75 /assertions/0/chars [schema]`,
      `${file}:2:80 /extra [schema]`,
      `${file}:3:1  [not-an-object]`,
    ]);
    expect(result.diagnostics[1]!.message).toBe('unknown field `extra` in the case');
    expect(result.diagnostics[2]!.message).toMatch(/each line of a \.jsonl eval-cases file must be an object/);
    expect(result.cases.map((c) => c.value.id)).toEqual(['a']);
  });

  it('an invalid regex and a catastrophic one are located diagnostics at load, not crashes or hangs', () => {
    const { folder, result } = load({
      'evals/regex.yaml': `schemaVersion: eval-cases/v1
cases:
  - id: r
    input: { text: x }
    assertions:
      - { type: regex, pattern: "(unclosed" }
      - { type: regex, pattern: "(a+)+$", flags: i }
      - { type: regex, pattern: "(a+)+$" }
      - { type: regex, pattern: "x", flags: ii }
`,
    });
    const file = `${folder}/evals/regex.yaml`;
    expect(result.diagnostics.map(at)).toEqual([
      `${file}:6:33 /cases/0/assertions/0/pattern [eval-regex]`,
      `${file}:7:33 /cases/0/assertions/1/pattern [eval-regex]`,
      `${file}:9:45 /cases/0/assertions/3/flags [eval-regex]`,
    ]);
    expect(result.diagnostics[0]!.message).toMatch(/not a valid regular expression/);
    expect(result.diagnostics[1]!.message).toMatch(/nested quantifier/);
  });

  it('a JSON Schema assertion with a bad schema: located at the offending keyword', () => {
    const { folder, result } = load({
      'evals/schema-assert.jsonl':
        '{"id":"s1","input":{"text":"x"},"assertions":[{"type":"json-schema","schema":{"type":"objekt"}}]}\n' +
        '{"id":"s2","input":{"text":"x"},"assertions":[{"type":"json-schema","schema":{"type":"object","properties":{"a":{"type":"string","pattern":"(?<=a)(x+)+y"}},"patternProperties":{"\\\\p{L}(a|b)*":{}}}}]}\n' +
        '{"id":"s3","input":{"text":"x"},"assertions":[{"type":"json-schema","schema":{"$ref":"https://evil.example/s.json"}}]}\n' +
        '{"id":"s4","input":{"text":"x"},"assertions":[{"type":"json-schema","schema":{"type":"string","format":"email"}}]}\n',
    });
    const file = `${folder}/evals/schema-assert.jsonl`;
    expect(result.diagnostics.map(at)).toEqual([
      `${file}:1:78 /assertions/0/schema [eval-json-schema]`,
      `${file}:2:140 /assertions/0/schema/properties/a/pattern [eval-json-schema]`,
      `${file}:2:193 /assertions/0/schema/patternProperties/\\p{L}(a|b)* [eval-json-schema]`,
      `${file}:3:78 /assertions/0/schema [eval-json-schema]`,
    ]);
    expect(result.diagnostics[0]!.message).toMatch(/not a valid JSON Schema/);
    // A lookbehind, or `\p{…}` (which needs the u flag), leaves the linear engine: the shape rules apply.
    expect(result.diagnostics[1]!.message).toMatch(/nested quantifier/);
    expect(result.diagnostics[2]!.message).toMatch(/alternation/);
    expect(result.diagnostics[3]!.message).toMatch(/can't resolve reference|not a valid JSON Schema/);
  });

  it('case checks: equals with nothing to compare, max-cost with no limit, duplicate assertion ids', () => {
    const { folder, result } = load({
      'evals/case.yaml': `schemaVersion: eval-cases/v1
cases:
  - id: c
    input: { text: x }
    assertions:
      - { type: equals, id: same }
      - { type: max-cost, id: same }
`,
    });
    const file = `${folder}/evals/case.yaml`;
    expect(result.diagnostics.map(at)).toEqual([
      `${file}:6:9 /cases/0/assertions/0 [eval-equals]`,
      `${file}:7:9 /cases/0/assertions/1 [eval-max-cost]`,
      `${file}:7:31 /cases/0/assertions/1/id [eval-assertion-id]`,
    ]);
  });

  it('checks against the definition: skill, tool, invariant by index and text, grader; duplicate case ids across files', () => {
    const { folder, result } = load({
      'evals/a.yaml': `schemaVersion: eval-cases/v1
grader: judge-maxi
cases:
  - id: d
    input: { text: x, skill: web.sumarize }
    assertions:
      - { type: tool-called, tool: fetch_pages }
      - { type: tool-not-called, tool: rm_rf }
      - { type: invariant, invariant: 3 }
      - { type: invariant, invariant: "Every quoted sentence appears verbatim" }
      - { type: rubric, rubric: short, grader: judge-mini }
      - { type: rubric, rubric: short }
`,
      'evals/b.jsonl':
        '{"id":"d","input":{"text":"x"},"assertions":[{"type":"invariant","invariant":"The summary names the URL and the time it was fetched."}]}\n',
    });
    const a = `${folder}/evals/a.yaml`;
    expect(result.diagnostics.map(at)).toEqual([
      `${a}:5:30 /cases/0/input/skill [eval-skill]`,
      `${a}:7:36 /cases/0/assertions/0/tool [eval-tool]`,
      `${a}:8:40 /cases/0/assertions/1/tool [eval-tool]`,
      `${a}:9:9 /cases/0/assertions/2 [eval-grader]`,
      `${a}:9:39 /cases/0/assertions/2/invariant [eval-invariant]`,
      `${a}:10:9 /cases/0/assertions/3 [eval-grader]`,
      `${a}:10:39 /cases/0/assertions/3/invariant [eval-invariant]`,
      `${a}:12:9 /cases/0/assertions/5 [eval-grader]`,
      `${folder}/evals/b.jsonl:1:7 /id [eval-case-id]`,
    ]);
    const messages = result.diagnostics.map((d) => `${d.message} | ${d.suggestion ?? ''}`);
    expect(messages[0]).toMatch(/no skill "web.sumarize" \| did you mean "web.summarize"\?/);
    expect(messages[1]).toMatch(/no tool named "fetch_pages" \| did you mean "fetch_page"\?/);
    expect(messages[3]).toMatch(/a grader named "judge-maxi" \(the file's grader\) \| did you mean "judge-mini"\?/);
    expect(messages[4]).toMatch(/3 invariant\(s\); index 3 names none/);
    expect(messages[6]).toMatch(/no invariant of the definition has exactly this text/);
    expect(messages[8]).toMatch(/case id "d" is used twice \(first at .*a\.yaml:4:5\)/);
    // The rubric with its own, existing grader is fine; the one without inherits the bad file grader.
  });

  it('a model-graded assertion with no grader, for a definition without an evaluator pin', () => {
    const noEvaluator = { ...definition, modelSet: definition.modelSet.filter((p) => p.role !== 'evaluator') };
    const parsed = parseEvalCasesText(
      '{"id":"g","input":{"text":"x"},"assertions":[{"type":"rubric","rubric":"short"}]}\n',
      'g.jsonl',
      'jsonl',
    );
    expect(parsed.diagnostics).toEqual([]);
    ws.write(
      'agents/noeval/evals/g.jsonl',
      '{"id":"g","input":{"text":"x"},"assertions":[{"type":"rubric","rubric":"short"}]}\n',
    );
    const result = loadEvalCases({ definitionFile: 'agents/noeval/agent.json', definition: noEvaluator, cwd: ws.root });
    expect(result.diagnostics.map(at)).toEqual(['agents/noeval/evals/g.jsonl:1:46 /assertions/0 [eval-grader]']);
    expect(result.diagnostics[0]!.suggestion).toMatch(/role `evaluator`/);
  });

  it('prints like definition diagnostics: file:line:col, the source line and a caret', () => {
    const { folder, result } = load({ 'evals/p.yaml': VALID_YAML.replace('tool: fetch_page', 'tool: fetch') });
    const text = formatDiagnostics(result.diagnostics, { format: 'text', sources: result.sources });
    expect(text).toContain(`--> ${folder}/evals/p.yaml:24:36`);
    expect(text).toContain('tool-called, tool: fetch, times: 1');
    expect(text).toMatch(/\^/);
  });
});

describe('loadEvalCases: hostile files', () => {
  it('a file over 4 MiB is refused before it is read; a non-UTF-8 file is located; an empty JSONL says so', () => {
    const { folder, result } = load({
      'evals/huge.jsonl': `${'{"id":"h","input":{"text":"x"},"assertions":[{"type":"max-latency","ms":1}]}\n'.repeat(60_000)}`,
      'evals/latin1.yaml': Buffer.from([0x63, 0x61, 0x73, 0x65, 0x73, 0x3a, 0x20, 0xe9, 0x0a]),
      'evals/empty.jsonl': '\n\n',
    });
    expect(result.cases).toEqual([]);
    expect(result.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} [${d.rule}]`)).toEqual([
      `${folder}/evals/empty.jsonl:1:1 [empty-file]`,
      `${folder}/evals/huge.jsonl:1:1 [file-size]`,
      `${folder}/evals/latin1.yaml:1:8 [encoding]`,
    ]);
    expect(result.diagnostics[1]!.message).toMatch(/an eval-cases file may be at most 4\.0 MiB/);
  });

  it('deeply nested data, a YAML alias bomb and hostile strings never throw', () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const bomb = `a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n`;
    const { result } = load({
      'evals/deep.jsonl': `{"id":"d","input":{"text":"x","data":${deep}},"assertions":[{"type":"max-latency","ms":1}]}\n`,
      'evals/bomb.yaml': bomb,
      'evals/hostile.yaml':
        'schemaVersion: eval-cases/v1\ncases:\n  - id: "\\u001b[31m\\u202e"\n    __proto__: { polluted: true }\n    input: { text: x }\n    assertions: [{ type: max-latency, ms: 1 }]\n',
    });
    expect(result.valid).toBe(false);
    expect(result.cases).toEqual([]);
    expect(result.diagnostics.map((d) => d.rule).sort()).toEqual(expect.arrayContaining(['nesting-depth', 'schema']));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('loadEvalCases: covers and file graders', () => {
  it('checks `covers` entries against the invariants; file graders resolve first, names unique', () => {
    const { folder, result } = load({
      'evals/c.yaml': `schemaVersion: eval-cases/v1
graders:
  - { name: strict-judge, providerId: openai, modelId: gpt-4o-mini, modelVersion: 2024-07-18, samplingParams: { temperature: 0 } }
  - { name: strict-judge, providerId: openai, modelId: gpt-4o, modelVersion: 2024-08-06 }
cases:
  - id: c
    input: { text: x }
    assertions:
      - { type: contains, value: x, covers: [1, "Pages that cannot be fetched are reported, never summarized from memory."] }
      - { type: regex, pattern: x, covers: [7, "no such invariant"] }
      - { type: rubric, rubric: short, grader: strict-judge }
`,
    });
    const file = `${folder}/evals/c.yaml`;
    expect(result.diagnostics.map(at)).toEqual([
      `${file}:4:13 /graders/1/name [eval-grader]`,
      `${file}:10:45 /cases/0/assertions/1/covers/0 [eval-invariant]`,
      `${file}:10:48 /cases/0/assertions/1/covers/1 [eval-invariant]`,
    ]);
    expect(result.cases[0]!.fileGraders?.map((g) => g.modelId)).toEqual(['gpt-4o-mini', 'gpt-4o']);
  });

  it('a tool-only definition can grade with a file grader; without one a model-graded assertion is refused', () => {
    const toolOnly = { ...definition, modelSet: [] } as unknown as AgentDefinition;
    ws.write(
      'agents/tool-only/evals/t.yaml',
      'schemaVersion: eval-cases/v1\ngraders: [{ name: judge, providerId: local-ollama, modelId: llama3.1, modelVersion: 8b-q4 }]\ngrader: judge\ncases:\n  - id: t\n    input: { text: x }\n    assertions: [{ type: invariant, invariant: 0 }]\n',
    );
    ws.write(
      'agents/tool-only/evals/u.jsonl',
      '{"id":"u","input":{"text":"x"},"assertions":[{"type":"invariant","invariant":0}]}\n',
    );
    const result = loadEvalCases({ definitionFile: 'agents/tool-only/agent.json', definition: toolOnly, cwd: ws.root });
    expect(result.diagnostics.map(at)).toEqual(['agents/tool-only/evals/u.jsonl:1:46 /assertions/0 [eval-grader]']);
  });
});
