/**
 * The shortcuts that keep validation near the schema's speed (the control-characters rule proven
 * quiet from the JSON text, the secret detectors' plain pre-check of each pattern) must never skip
 * a finding: a control character or a secret placed at every string of a valid definition, and a
 * secret as a property name in every object, is reported by validateDefinitionSource exactly as
 * the strict pipeline and the rule itself report it, whether the character is written raw or
 * escaped, and the secret never appears in the rule's diagnostics.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateAgentDefinition } from '../schema/generated/agent-definition.validator';
import { loadExamples } from './__test-support__/definition-mutations';
import { controlCharactersRule } from './rules/control-characters';
import { DEFAULT_RULE_OPTIONS } from './rules/rule';
import { JWK_PRIVATE_MEMBERS, secretFindings, secretKinds, secretsRule } from './rules/secrets';
import { CONTROL_CHARACTER } from './terminal-text';
import { validateDefinitionSource, validateDefinitionTextStrictly } from './validate-definition';

type Path = (string | number)[];
type Json = Record<string, unknown>;

const EXAMPLES = loadExamples()
  .filter((e) => e.file.endsWith('.json'))
  .slice(0, 1);

/** Every C0 control JSON writes with a short escape or `\u`, DEL, C1, separators and bidi controls. */
const CONTROLS = ['\u0000', '\b', '\t', '\n', '\u001b', '\u007f', '\u009f', '\u2028', '\u202e', '\u2066'];

const GITHUB = 'ghp_' + '4f9Kq2Lm7Rx1Tz8Vb3Nc6Wd0Ys5Hj2Pa9Eg';
// Its first URL's password is a placeholder, so the pattern's first match is refused and only a later one counts.
const URL_PASSWORD = 'https://u:changeme@a.example/x https://u:' + 'Xy7pQ2rTz9@b.example/y';

function stringPaths(value: unknown, path: Path = [], out: Path[] = []): Path[] {
  if (typeof value === 'string') out.push(path);
  else if (Array.isArray(value)) value.forEach((v, i) => stringPaths(v, [...path, i], out));
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) stringPaths(v, [...path, k], out);
  return out;
}

function objectPaths(value: unknown, path: Path = [], out: Path[] = []): Path[] {
  if (Array.isArray(value)) value.forEach((v, i) => objectPaths(v, [...path, i], out));
  else if (value !== null && typeof value === 'object') {
    out.push(path);
    for (const [k, v] of Object.entries(value)) objectPaths(v, [...path, k], out);
  }
  return out;
}

function edited(value: unknown, path: Path, edit: (parent: Json, last: string | number) => void): unknown {
  const copy = structuredClone(value) as Json;
  let parent = copy;
  for (const segment of path.slice(0, -1)) parent = parent[segment as string] as Json;
  edit(parent, path[path.length - 1] as string | number);
  return copy;
}

/** JSON.stringify escapes C0 controls (`\n`, `\u0007`) and writes the rest raw; this writes every non-ASCII character as `\u`. */
const escapedNonAscii = (text: string): string =>
  text.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

function expectSameAsStrict(text: string, file: string) {
  const fast = validateDefinitionSource(text, file, 'json');
  const strict = validateDefinitionTextStrictly(text, file, 'json');
  expect(fast.valid).toBe(strict.valid);
  expect(fast.diagnostics).toEqual(strict.diagnostics);
  return fast;
}

describe.each(EXAMPLES.map((e) => [e.file, e] as const))('%s', (file, example) => {
  it('reports a control character at every string, raw or escaped', () => {
    let reported = 0;
    for (const path of stringPaths(example.value)) {
      for (const control of CONTROLS) {
        const value = edited(example.value, path, (parent, last) => {
          const before = parent[last as string] as string;
          parent[last as string] = before.slice(0, 1) + control + before.slice(1);
        });
        for (const text of [JSON.stringify(value, null, 2), escapedNonAscii(JSON.stringify(value))]) {
          expect(controlCharactersRule.quietOnJsonText?.(text)).toBe(false);
          const result = expectSameAsStrict(text, file);
          if (!validateAgentDefinition(JSON.parse(text))) continue;
          const expected = controlCharactersRule.check(JSON.parse(text), DEFAULT_RULE_OPTIONS).map((f) => f.path);
          const found = result.diagnostics.filter((d) => d.rule === 'control-characters').map((d) => d.path);
          expect(found).toEqual(expected);
          reported += found.length;
        }
      }
    }
    // Identifiers are most of a definition's strings: the check above is not vacuous.
    expect(reported).toBeGreaterThan(100);
  });

  it('reports a secret at every string and as a property name in every object, never printing it', () => {
    let reported = 0;
    const placed = [
      ...stringPaths(example.value).flatMap((path) =>
        [GITHUB, URL_PASSWORD].map((secret) => ({
          secret,
          value: edited(example.value, path, (parent, last) => {
            parent[last as string] = `${parent[last as string] as string} ${secret}`;
          }),
        })),
      ),
      ...objectPaths(example.value).map((path) => ({
        secret: GITHUB,
        value:
          path.length === 0
            ? { ...(example.value as Json), [GITHUB]: 'x' }
            : edited(example.value, [...path, ''], (parent) => {
                parent[GITHUB] = 'x';
              }),
      })),
    ];
    for (const { secret, value } of placed) {
      const text = JSON.stringify(value, null, 2);
      const result = expectSameAsStrict(text, file);
      const secretFindings = result.diagnostics.filter((d) => d.rule === 'secrets');
      expect(JSON.stringify(secretFindings)).not.toContain(secret.slice(-10));
      if (!validateAgentDefinition(JSON.parse(text))) continue;
      const expected = secretsRule.check(JSON.parse(text), DEFAULT_RULE_OPTIONS).map((f) => f.path);
      expect(expected.length).toBeGreaterThan(0);
      expect(secretFindings.map((d) => d.path)).toEqual(expected);
      reported++;
    }
    expect(reported).toBeGreaterThan(10);
  });
});

describe('the control-characters rule proven quiet from JSON text', () => {
  const unit = fc.constantFrom(
    ...CONTROLS,
    'a',
    'Z',
    '0',
    ' ',
    '"',
    '\\',
    '/',
    'é',
    '\u00a0',
    '\u2027',
    '😀',
    'u',
    'n',
  );
  const text = fc.string({ unit, maxLength: 6 });
  const value = fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      text,
      fc.array(tie('node'), { maxLength: 3 }),
      fc.dictionary(text, tie('node'), { maxKeys: 3 }),
    ),
  })).node;
  const allStrings = (v: unknown, out: string[] = []): string[] => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) for (const x of v) allStrings(x, out);
    else if (v !== null && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        out.push(k);
        allStrings(x, out);
      }
    return out;
  };

  it('is claimed only for text whose every string and name is free of them', () => {
    let quiet = 0;
    fc.assert(
      fc.property(value, fc.boolean(), (v, asciiOnly) => {
        const json = asciiOnly ? escapedNonAscii(JSON.stringify({ v })) : JSON.stringify({ v }, null, 1);
        if (!controlCharactersRule.quietOnJsonText?.(json)) return;
        quiet++;
        for (const s of allStrings(JSON.parse(json))) expect(CONTROL_CHARACTER.test(s)).toBe(false);
      }),
      { numRuns: 400 },
    );
    expect(quiet).toBeGreaterThan(20);
  });

  it('is not claimed for an escaped or raw control character; an escaped backslash before a letter is not one', () => {
    for (const control of CONTROLS) {
      expect(controlCharactersRule.quietOnJsonText?.(JSON.stringify({ a: control }))).toBe(false);
      expect(controlCharactersRule.quietOnJsonText?.(escapedNonAscii(JSON.stringify({ a: control })))).toBe(false);
    }
    expect(controlCharactersRule.quietOnJsonText?.(JSON.stringify({ a: '\\n', b: '\\\\t\\\\' }))).toBe(true);
    expect(controlCharactersRule.quietOnJsonText?.(JSON.stringify({ a: '\\\n' }))).toBe(false);
    expect(controlCharactersRule.quietOnJsonText?.(JSON.stringify({ a: 'plain "quoted" \\ text/é — 😀' }))).toBe(true);
  });
});

describe('the secrets rule looking for JSON Web Keys only in objects that name a private member', () => {
  it.each(JWK_PRIVATE_MEMBERS.map((m) => [m]))('reports a private JWK holding only %s, at any depth', (member) => {
    const jwk = { kty: 'oct', [member]: 'c2VjcmV0LWtleS1tYXRlcmlhbA' };
    for (const [root, path] of [
      [jwk, `/${member}`],
      [{ a: [{ b: jwk }] }, `/a/0/b/${member}`],
    ] as const)
      expect(secretFindings(root).map((f) => f.path)).toEqual([path]);
  });
});

describe('the secret detectors checked first without a match object', () => {
  it('still find an accepted match after a refused first one', () => {
    expect(secretKinds(URL_PASSWORD)).toEqual(['a password in a URL']);
    expect(secretKinds('https://u:changeme@a.example/x')).toEqual([]);
  });
});
