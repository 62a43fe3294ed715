/**
 * fast-check arbitraries for hostile definitions, shared by the validator's property tests and
 * the CLI's: every example definition of the repository, mutated (a value deleted, replaced by a
 * value of another type or by hostile text, a member inserted, a subtree nested deep), written as
 * JSON or YAML, and sometimes damaged as text (a duplicated key, a huge number, a truncation).
 * And the oracle: a plain Ajv compile of the published JSON Schema.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import fc from 'fast-check';
import { stringify as toYaml, parse as yamlParse } from 'yaml';

export const REPO_ROOT = join(__dirname, '..', '..', '..');

export interface Example {
  /** `examples/<slug>/agent.json` (or .yaml). */
  file: string;
  value: unknown;
}

/** Every example definition under examples/, parsed. */
export function loadExamples(): Example[] {
  const examples: Example[] = [];
  for (const folder of readdirSync(join(REPO_ROOT, 'examples')).sort()) {
    let names: string[];
    try {
      names = readdirSync(join(REPO_ROOT, 'examples', folder));
    } catch {
      continue;
    }
    for (const name of names.filter((n) => /^agent\.(json|ya?ml)$/.test(n))) {
      const file = `examples/${folder}/${name}`;
      const text = readFileSync(join(REPO_ROOT, file), 'utf8');
      examples.push({ file, value: name.endsWith('.json') ? JSON.parse(text) : yamlParse(text) });
    }
  }
  return examples;
}

/** The published schema compiled by a plain Ajv: what "the schema forbids" means. */
export function schemaOracle(): (value: unknown) => boolean {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    discriminator: true,
    unicodeRegExp: true,
    allowUnionTypes: true,
  });
  ajv.addKeyword({ keyword: 'x-message', schemaType: 'string' });
  const validate = ajv.compile(
    JSON.parse(readFileSync(join(REPO_ROOT, 'plugin/schema/agent-definition.v1.schema.json'), 'utf8')) as object,
  );
  return (value) => validate(value) as boolean;
}

/** Strings an attacker would try: lone surrogates, terminal controls, bidi overrides, huge and odd text. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom(
    '\ud800',
    'x\udc00y',
    '\ude00\ud83d',
    '\u001b]0;owned\u0007',
    '\u001b[2K\r',
    '\u009b31m',
    '\u202eevil',
    '\u2066\u2069',
    'a\u0000b',
    '\u007f',
    '\u2028',
    '__proto__',
    'constructor',
    '../../etc/passwd',
    '%h%u$HOME',
    '1.2.0+build.7',
    'kym://agents/x@1.0.0',
    '',
    ' ',
    'x'.repeat(5000),
  ),
);

/** Any JSON value, with hostile strings and numbers at the edges of what JSON can say. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    hostileString,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom(0, -0, 1e308, -1e308, 2 ** 53 + 1, Number.MAX_SAFE_INTEGER, 5e-324),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(hostileString, tie('value'), { maxKeys: 4 }),
  ),
})).value;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every JSON Pointer path (as segment lists) inside `value`, the root included. */
function paths(
  value: unknown,
  prefix: (string | number)[] = [],
  out: (string | number)[][] = [],
): (string | number)[][] {
  out.push(prefix);
  if (Array.isArray(value)) value.forEach((item, i) => paths(item, [...prefix, i], out));
  else if (value !== null && typeof value === 'object')
    for (const key of Object.keys(value)) paths((value as Record<string, unknown>)[key], [...prefix, key], out);
  return out;
}

function nested(value: unknown, depth: number): unknown {
  let out = value;
  for (let i = 0; i < depth; i++) out = i % 2 === 0 ? [out] : { n: out };
  return out;
}

export type Mutation =
  | { kind: 'delete' | 'replace' | 'insert' | 'nest'; at: number; value: unknown; key: string; depth: number }
  | { kind: 'none' };

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    kind: fc.constantFrom('delete', 'replace', 'insert', 'nest'),
    at: fc.nat(),
    value: hostileValue,
    key: hostileString,
    depth: fc.integer({ min: 1, max: 300 }),
  }),
  fc.constant({ kind: 'none' as const }),
);

/** `value` with the mutations applied (to a deep copy); `at` picks a path modulo their number. */
export function mutate(value: unknown, mutations: readonly Mutation[]): unknown {
  let root = structuredClone(value) as Json;
  for (const m of mutations) {
    if (m.kind === 'none') continue;
    const all = paths(root);
    const path = all[m.at % all.length]!;
    if (path.length === 0) {
      if (m.kind === 'replace') root = m.value as Json;
      if (m.kind === 'nest') root = nested(root, m.depth) as Json;
      if (m.kind === 'insert' && root !== null && typeof root === 'object' && !Array.isArray(root))
        root[m.key] = m.value as Json;
      continue;
    }
    let parent: any = root;
    for (const segment of path.slice(0, -1)) parent = parent[segment];
    const last = path.at(-1)!;
    switch (m.kind) {
      case 'delete':
        if (Array.isArray(parent)) parent.splice(Number(last), 1);
        else delete parent[last];
        break;
      case 'replace':
        parent[last] = m.value;
        break;
      case 'nest':
        parent[last] = nested(parent[last], m.depth);
        break;
      case 'insert': {
        const target = parent[last];
        if (Array.isArray(target)) target.push(m.value);
        else if (target !== null && typeof target === 'object') target[m.key] = m.value;
        else parent[last] = { [m.key]: m.value };
      }
    }
  }
  return root;
}

/** `value` with its `at`-th string leaf (modulo their number) replaced by `text`. */
export function replaceStringLeaf(value: unknown, at: number, text: string): unknown {
  const root = structuredClone(value) as Json;
  const leaves = paths(root).filter(
    (path) => typeof path.reduce<any>((node, segment) => node[segment], root) === 'string',
  );
  if (leaves.length === 0) return root;
  const path = leaves[at % leaves.length]!;
  let parent: any = root;
  for (const segment of path.slice(0, -1)) parent = parent[segment];
  parent[path.at(-1)!] = text;
  return root;
}

export type TextDamage =
  | { kind: 'none' }
  | { kind: 'duplicate-key' | 'huge-number' | 'truncate' | 'insert-text'; at: number; text: string };

export const textDamage: fc.Arbitrary<TextDamage> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ kind: 'none' as const }) },
  fc.record({
    kind: fc.constantFrom('duplicate-key', 'huge-number', 'truncate', 'insert-text'),
    at: fc.nat(),
    text: fc.oneof(hostileString, fc.constantFrom('&a', '*a', '!!binary', '<<: *a', '---\n', '{', ']', '"', '\\u')),
  }),
);

/** Text-level damage that no value can express: duplicate keys, numbers beyond doubles, cut or spliced text. */
export function damage(text: string, format: 'json' | 'yaml', d: TextDamage): string {
  if (d.kind === 'none') return text;
  const at = d.at % (text.length + 1);
  switch (d.kind) {
    case 'truncate':
      return text.slice(0, at);
    case 'insert-text':
      return text.slice(0, at) + d.text + text.slice(at);
    case 'huge-number':
      return format === 'json'
        ? text.replace(/(:\s*)(-?\d+(?:\.\d+)?)/, '$11e99999')
        : text.replace(/(:\s*)(-?\d+(?:\.\d+)?)\s*$/m, '$11e99999');
    case 'duplicate-key': {
      // Repeat the first member of the top-level object.
      if (format === 'json')
        return text.replace(/^\{(\s*"[^"]+":\s*("[^"]*"|-?\d[\d.eE+-]*|true|false|null)),/, '{$1,$1,');
      const first = text.split('\n')[0] ?? '';
      return /^[A-Za-z]/.test(first) && !first.endsWith(':') ? `${first}\n${text}` : text;
    }
  }
}

/** The text of a (mutated) definition in `format`. */
export function serialize(value: unknown, format: 'json' | 'yaml'): string {
  return format === 'json'
    ? (JSON.stringify(value, null, 2) ?? 'null')
    : toYaml(value, { aliasDuplicateObjects: false });
}
