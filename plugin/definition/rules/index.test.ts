/**
 * The rule table as a whole: every example passes schema and every rule, the examples cover the
 * lifecycle, runtime classes and tiers, and every invalid fixture fails with the error that
 * e2e/fixtures/invalid.expected.json records.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LineCounter, isMap, isScalar, isSeq, parseDocument } from 'yaml';
import type { AgentDefinition } from '../../schema/generated/agent-definition.types';
import { validateAgentDefinition } from '../../schema/generated/agent-definition.validator';
import type { Finding } from '../diagnostic';
import { SEMANTIC_RULES } from './index';
import { DEFAULT_RULE_OPTIONS } from './rule';
import { EXAMPLE_FILES, REPO_ROOT, loadExample } from './test-support';

function runAll(definition: AgentDefinition): Finding[] {
  return SEMANTIC_RULES.flatMap((rule) => rule.check(definition, DEFAULT_RULE_OPTIONS));
}

const errorsOf = (findings: readonly Finding[]) => findings.filter((f) => (f.severity ?? 'error') === 'error');

describe('SEMANTIC_RULES', () => {
  it('lists every rule once, in order, each in the file of its name', () => {
    const names = SEMANTIC_RULES.map((r) => r.name);
    expect(names).toEqual([
      'agentic-gate',
      'lifecycle-gates',
      'kym-ref',
      'composition-shape',
      'pins',
      'model-roles',
      'model-task',
      'exact-models',
      'sampling-params',
      'tool-fields',
      'url-fields',
      'sandboxing',
      'budgets',
      'limits',
      'secrets',
      'unique-bindings',
      'control-characters',
      'card-exports',
      'agentfacts-export',
      'oasf-export',
      'key-custody',
      'telemetry-kinds',
      'memory-egress',
    ]);
    const files = readdirSync(__dirname).filter(
      (f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !['index.ts', 'rule.ts', 'test-support.ts'].includes(f),
    );
    expect(files.map((f) => f.replace(/\.ts$/, '')).sort()).toEqual([...names].sort());
    for (const rule of SEMANTIC_RULES) expect(rule.description.length).toBeGreaterThan(20);
  });
});

describe('examples', () => {
  it('registers every example folder in test-support', () => {
    // Folders that hold a definition (examples/tools holds the example tools' code).
    const folders = readdirSync(join(REPO_ROOT, 'examples'), { withFileTypes: true })
      .filter(
        (d) =>
          d.isDirectory() &&
          readdirSync(join(REPO_ROOT, 'examples', d.name)).some((f) => /^agent\.(json|ya?ml)$/.test(f)),
      )
      .map((d) => d.name);
    expect(folders.length).toBeGreaterThanOrEqual(Object.keys(EXAMPLE_FILES).length);
    for (const folder of folders)
      expect(Object.keys(EXAMPLE_FILES), `examples/${folder} is missing from EXAMPLE_FILES`).toContain(folder);
  });

  it.each(Object.entries(EXAMPLE_FILES))(
    '%s (%s) is schema-valid, has no error from any rule, and lives in the folder of its slug',
    (slug, file) => {
      const def = loadExample(slug);
      expect(validateAgentDefinition(def), JSON.stringify(validateAgentDefinition.errors)).toBe(true);
      expect(errorsOf(runAll(def))).toEqual([]);
      expect(def.identity.slug).toBe(slug);
      expect(file.startsWith(`examples/${slug}/`)).toBe(true);
    },
  );

  it('has no warnings (agentdef validate examples prints none)', () => {
    const warnings = Object.keys(EXAMPLE_FILES).flatMap((slug) =>
      runAll(loadExample(slug)).map((f) => `${slug}:${f.rule}:${f.path}`),
    );
    expect(warnings).toEqual([]);
  });

  it('uses unique ULIDs', () => {
    const ids = Object.keys(EXAMPLE_FILES).flatMap((slug) => {
      const { id, versionId } = loadExample(slug).identity;
      return [id, versionId];
    });
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('covers every lifecycle stage, runtime class and tier', () => {
    const defs = Object.keys(EXAMPLE_FILES).map(loadExample);
    expect(new Set(defs.map((d) => d.lifecycleState))).toEqual(
      new Set([
        'tool-prototype',
        'tool-shipped',
        'mcp-resident',
        'kym-registered',
        'composed',
        'marketplace-published',
      ]),
    );
    expect(new Set(defs.map((d) => d.runtimeRequirements.runtimeCapabilityClass))).toEqual(
      new Set(['workers-only', 'workers-preferred', 'container-required', 'local-host-required']),
    );
    expect(new Set(defs.flatMap((d) => d.modelSet.map((p) => p.tier)))).toEqual(
      new Set(['frontier', 'small', 'tuned', 'local']),
    );
  });

  it('composes three levels: edit-assistant -> write-router -> splice-resolver / fallback-writer, all pinned to existing versions', () => {
    const bySlug = new Map(Object.keys(EXAMPLE_FILES).map((slug) => [slug, loadExample(slug)]));
    const pinned = (slug: string) => (bySlug.get(slug)?.composition.nodes ?? []).map((n) => `${n.slug}@${n.version}`);
    expect(pinned('edit-assistant')).toEqual(['write-router@1.4.0']);
    expect(pinned('write-router')).toEqual(['splice-resolver@0.4.2', 'fallback-writer@1.1.0']);
    for (const def of bySlug.values()) {
      for (const node of def.composition.nodes ?? [])
        expect(bySlug.get(node.slug)?.identity.versionSemver).toBe(node.version);
    }
  });
});

// ---------------------------------------------------------------------------------------------

interface Expected {
  rule: string;
  code: string;
  path: string;
  line: number;
}

const FIXTURES = join(REPO_ROOT, 'e2e/fixtures/invalid');
const expected = JSON.parse(readFileSync(join(REPO_ROOT, 'e2e/fixtures/invalid.expected.json'), 'utf8')) as Record<
  string,
  Expected
>;

/** The line where the value (or key) at `pointer` starts, or its nearest existing ancestor. */
function lineOf(text: string, pointer: string, at: 'key' | 'value' = 'value'): number {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: false });
  let node: unknown = doc.contents;
  let key: unknown;
  for (const raw of pointer === '' ? [] : pointer.slice(1).split('/')) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === segment);
      if (!pair) break;
      key = pair.key;
      node = pair.value;
    } else if (isSeq(node)) {
      const item = node.items[Number(segment)];
      if (item === undefined) break;
      key = undefined;
      node = item;
    } else break;
  }
  const range = (n: unknown) => (n as { range?: [number, number, number] } | undefined)?.range?.[0] ?? 0;
  return lineCounter.linePos(at === 'key' && key !== undefined ? range(key) : range(node)).line;
}

describe('invalid fixtures', () => {
  it('has one expectation per fixture file', () => {
    expect(Object.keys(expected).sort()).toEqual(readdirSync(FIXTURES).sort());
  });

  it('has at least one fixture per semantic rule', () => {
    const rules = new Set(Object.values(expected).map((e) => e.rule));
    for (const rule of SEMANTIC_RULES) expect(rules.has(rule.name), rule.name).toBe(true);
  });

  it.each(Object.entries(expected))('%s fails first with %j', (file, want) => {
    const text = readFileSync(join(FIXTURES, file), 'utf8');
    const isYaml = file.endsWith('.yaml');
    if (want.rule === 'empty-file') {
      expect(text).toBe('');
      expect([want.path, want.line]).toEqual(['', 1]);
      return;
    }
    if (want.rule === 'syntax') {
      if (isYaml) {
        const doc = parseDocument(text);
        expect(doc.errors[0]?.linePos?.[0].line).toBe(want.line);
      } else {
        expect(() => JSON.parse(text)).toThrow();
        // The doubled comma sits on the expected line, inside the object the path names.
        expect(text.split('\n')[want.line - 1]).toMatch(/,,/);
        expect(want.path).toBe('/identity');
      }
      return;
    }
    const doc = parseDocument(text);
    if (want.rule === 'duplicate-key') {
      const duplicate = doc.errors.find((e) => e.code === 'DUPLICATE_KEY');
      expect(duplicate?.linePos?.[0].line).toBe(want.line);
      expect(lineOf(text, want.path)).toBeLessThan(want.line); // the first occurrence is earlier
      return;
    }
    expect(doc.errors).toEqual([]);
    const value: unknown = isYaml ? doc.toJS() : JSON.parse(text);
    if (want.rule === 'schema') {
      expect(validateAgentDefinition(value)).toBe(false);
      const errors = (validateAgentDefinition.errors ?? []).map((e) =>
        e.keyword === 'additionalProperties'
          ? { path: `${e.instancePath}/${String(e.params['additionalProperty'])}`, at: 'key' as const }
          : { path: e.instancePath, at: 'value' as const },
      );
      expect(errors.map((e) => e.path)).toEqual([want.path]);
      expect(lineOf(text, want.path, errors[0]?.at)).toBe(want.line);
      return;
    }
    expect(validateAgentDefinition(value), JSON.stringify(validateAgentDefinition.errors)).toBe(true);
    const findings = runAll(value as AgentDefinition);
    // One violation per fixture: exactly one finding, an error.
    expect(
      findings.map((f) => ({
        rule: f.rule,
        code: f.code ?? 'agent_definition_invalid',
        severity: f.severity ?? 'error',
        path: f.path,
      })),
    ).toEqual([{ rule: want.rule, code: want.code, severity: 'error', path: want.path }]);
    expect(lineOf(text, want.path, findings[0]?.at)).toBe(want.line);
  });
});
