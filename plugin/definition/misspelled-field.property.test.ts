/**
 * A misspelled required field is one mistake, reported once: every required field of the schema,
 * at every place of every example definition where it appears (plus the binding kinds no example
 * declares), misspelled by swapping two neighbouring letters, gives exactly one diagnostic more
 * than the example had: the unknown field, located at the misspelled key (line and column of the
 * key, not 1:1 or the object), naming the field it stands for and that it is required. The same
 * holds for the application manifest schema (its own validation, manifest-validate.ts).
 * Before, each also reported `… is missing the required field …` at the object (1:1 at the root).
 */
import { describe, expect, it } from 'vitest';
import { validateApplicationManifestText } from '../application/manifest-validate';
import applicationSchema from '../schema/application-manifest.v1.schema.json';
import agentSchema from '../schema/agent-definition.v1.schema.json';
import type { Diagnostic } from './diagnostic';
import { escapePointerSegment } from './json-pointer';
import { nearestName } from './nearest-name';
import { parseDefinitionText } from './parse-document';
import { schemaNodeForInstance } from './schema-location';
import { validateDefinitionSource } from './validate-definition';
import { loadExamples } from './__test-support__/definition-mutations';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

type Node = Record<string, unknown>;
const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Every schema node that requires fields, with the fields: what the test must cover. */
function requiredLists(schema: unknown): Map<Node, string[]> {
  const lists = new Map<Node, string[]>();
  const walk = (node: unknown) => {
    if (node === null || typeof node !== 'object') return;
    if (isObject(node) && Array.isArray(node['required']) && node['required'].length > 0)
      lists.set(node, node['required'] as string[]);
    for (const child of Object.values(node)) walk(child);
  };
  walk(schema);
  return lists;
}

/** `name` with two neighbouring letters swapped, such that it is no allowed field and reads as `name` again. */
function misspell(name: string, allowed: readonly string[]): string | undefined {
  for (let i = 0; i + 1 < name.length; i++) {
    const typo = name.slice(0, i) + name[i + 1] + name[i] + name.slice(i + 2);
    if (typo !== name && !allowed.includes(typo) && nearestName(typo, allowed) === name) return typo;
  }
  return undefined;
}

/** `value` with the key at `objectPointer`/`field` renamed to `typo`, the members' order kept. */
function renamed(value: unknown, objectPointer: string, field: string, typo: string): unknown {
  const copy = structuredClone(value) as Record<string, unknown>;
  let object: Record<string, unknown> = copy;
  for (const segment of objectPointer.split('/').slice(1))
    object = object[segment.replaceAll('~1', '/').replaceAll('~0', '~')] as Record<string, unknown>;
  const entries = Object.entries(object);
  for (const key of Object.keys(object)) delete object[key];
  for (const [key, member] of entries) object[key === field ? typo : key] = member;
  return copy;
}

interface Case {
  text: string;
  pointer: string;
  field: string;
  typo: string;
  node: Node;
}

/** Every (object, required field) of `value`: one misspelling each. */
function casesOf(schema: unknown, value: unknown, lists: Map<Node, string[]>): Case[] {
  const cases: Case[] = [];
  const visit = (current: unknown, pointer: string) => {
    if (current === null || typeof current !== 'object') return;
    if (isObject(current)) {
      const node = schemaNodeForInstance(schema, value, pointer);
      const properties = node && isObject(node['properties']) ? Object.keys(node['properties']) : [];
      for (const field of (node && lists.get(node)) ?? []) {
        if (!Object.hasOwn(current, field)) continue;
        const typo = misspell(field, properties);
        if (typo === undefined) throw new Error(`no unambiguous misspelling of ${field} at ${pointer}`);
        cases.push({
          text: JSON.stringify(renamed(value, pointer, field, typo), null, 2),
          pointer,
          field,
          typo,
          node: node!,
        });
      }
    }
    for (const [key, child] of Object.entries(current)) visit(child, `${pointer}/${escapePointerSegment(key)}`);
  };
  visit(value, '');
  return cases;
}

/** A discriminated node's branches cover its own required list (the tag) too. */
function covered(lists: Map<Node, string[]>, seen: Set<string>, id: (node: Node) => string): string[] {
  const missing: string[] = [];
  for (const [node, fields] of lists) {
    const branches = Array.isArray(node['oneOf']) ? (node['oneOf'] as Node[]) : [];
    for (const field of fields) {
      if (seen.has(`${id(node)}\u0000${field}`) || branches.some((branch) => seen.has(`${id(branch)}\u0000${field}`)))
        continue;
      missing.push(`${id(node)}: ${field}`);
    }
  }
  return missing;
}

function expectOneDiagnosticAtTheKey(
  name: string,
  c: Case,
  before: readonly Diagnostic[],
  after: readonly Diagnostic[],
  file: string,
): void {
  const key = (d: Diagnostic) => `${d.rule}\u0000${d.path}\u0000${d.message}`;
  const known = new Set(before.map(key));
  const added = after.filter((d) => !known.has(key(d)));
  const where = `${name}: ${c.typo} for ${c.field} at ${c.pointer || '/'}`;
  expect(added.length, `${where}\n${added.map((d) => `${d.line}:${d.column} ${d.message}`).join('\n')}`).toBe(1);
  expect(after.length, where).toBe(before.length + 1);
  const [diagnostic] = added as [Diagnostic];
  const at = parseDefinitionText(c.text, file, 'json').document!.locate(
    `${c.pointer}/${escapePointerSegment(c.typo)}`,
    'key',
  );
  expect({ path: diagnostic.path, line: diagnostic.line, column: diagnostic.column }, where).toEqual({
    path: `${c.pointer}/${escapePointerSegment(c.typo)}`,
    ...at,
  });
  expect(diagnostic.message, where).toContain(`unknown field \`${c.typo}\``);
  expect(diagnostic.message, where).toContain(`did you mean \`${c.field}\`? (\`${c.field}\` is required and missing)`);
  expect(diagnostic.severity, where).toBe('error');
}

describe('a misspelled required field is one diagnostic, at the key', () => {
  it('for every required field of the AgentDefinition schema, in every example', () => {
    const lists = requiredLists(agentSchema);
    const ids = new Map([...lists.keys()].map((node, i) => [node, String(i)]));
    const examples = loadExamples()
      .filter((e) => e.file.endsWith('.json'))
      .map((e) => ({ name: e.file, value: e.value }));
    // The binding kinds no example declares.
    const base = examples.find((e) => e.name === 'examples/text-digest/agent.json')!;
    const withBindings = structuredClone(base.value) as { runtimeRequirements: { bindings: unknown[] } };
    withBindings.runtimeRequirements.bindings.push(
      { kind: 'd1', name: 'NOTES_DB' },
      { kind: 'queue', name: 'JOBS' },
      { kind: 'custom', name: 'SPECIAL', type: 'vectorize' },
    );
    examples.push({ name: 'text-digest with d1, queue and custom bindings', value: withBindings });

    const seen = new Set<string>();
    let count = 0;
    for (const example of examples) {
      const file = 'agent.json';
      const before = validateDefinitionSource(JSON.stringify(example.value, null, 2), file, 'json');
      expect(before.valid, `${example.name}: ${before.diagnostics.map((d) => d.message).join('; ')}`).toBe(true);
      for (const c of casesOf(agentSchema, example.value, lists)) {
        const after = validateDefinitionSource(c.text, file, 'json');
        expectOneDiagnosticAtTheKey(example.name, c, before.diagnostics, after.diagnostics, file);
        seen.add(`${ids.get(c.node)}\u0000${c.field}`);
        count++;
      }
    }
    expect(count).toBeGreaterThan(500);
    // Every required field of the schema was misspelled somewhere.
    expect(covered(lists, seen, (node) => ids.get(node) ?? '?')).toEqual([]);
  });

  it('for every required field of the application manifest schema, in the example application', () => {
    const lists = requiredLists(applicationSchema);
    const ids = new Map([...lists.keys()].map((node, i) => [node, String(i)]));
    const file = 'application.json';
    const value = JSON.parse(
      readFileSync(
        join(__dirname, '..', '..', 'examples', 'applications', 'release-brief', 'application.json'),
        'utf8',
      ),
    ) as unknown;
    const before = validateApplicationManifestText(JSON.stringify(value, null, 2), file, 'json');
    const seen = new Set<string>();
    for (const c of casesOf(applicationSchema, value, lists)) {
      const after = validateApplicationManifestText(c.text, file, 'json');
      // The source digest covers the text's content, so it changes too: compared without it.
      const digest = (d: Diagnostic) => d.rule === 'source-digest';
      expectOneDiagnosticAtTheKey(
        'release-brief',
        c,
        before.diagnostics.filter((d) => !digest(d)),
        after.diagnostics.filter((d) => !digest(d)),
        file,
      );
      seen.add(`${ids.get(c.node)}\u0000${c.field}`);
    }
    expect(seen.size).toBeGreaterThan(20);
    expect(covered(lists, seen, (node) => ids.get(node) ?? '?')).toEqual([]);
  });
});
