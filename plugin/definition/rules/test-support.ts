/**
 * Shared fixtures for the semantic-rule tests: a fresh, schema-valid definition to mutate, and a
 * runner that refuses to check a mutated definition that the schema would already reject (rules
 * only ever see schema-valid definitions).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { AgentDefinition } from '../../schema/generated/agent-definition.types';
import { validateAgentDefinition } from '../../schema/generated/agent-definition.validator';
import type { Finding } from '../diagnostic';
import { DEFAULT_RULE_OPTIONS, type RuleOptions, type SemanticRule } from './rule';

/** The repository root (this file lives in plugin/definition/rules/). */
export const REPO_ROOT = resolve(__dirname, '../../..');

/** The example slugs checked in under examples/, with the file each is written in. */
export const EXAMPLE_FILES: Readonly<Record<string, string>> = {
  'write-router': 'examples/write-router/agent.json',
  'code-search': 'examples/code-search/agent.json',
  'splice-resolver': 'examples/splice-resolver/agent.json',
  'fallback-writer': 'examples/fallback-writer/agent.json',
  'edit-assistant': 'examples/edit-assistant/agent.json',
  'local-notes': 'examples/local-notes/agent.json',
  'text-stats': 'examples/text-stats/agent.json',
  'web-summarizer': 'examples/web-summarizer/agent.json',
  'pdf-extractor': 'examples/pdf-extractor/agent.yaml',
  'text-classify': 'examples/text-classify/agent.json',
  'keyword-extract': 'examples/keyword-extract/agent.json',
  'text-digest': 'examples/text-digest/agent.json',
  'support-triage': 'examples/support-triage/agent.json',
};

function parseFile(relative: string): unknown {
  const text = readFileSync(join(REPO_ROOT, relative), 'utf8');
  return relative.endsWith('.yaml') || relative.endsWith('.yml') ? parseYaml(text) : JSON.parse(text);
}

/** A deep clone of one example, parsed afresh on every call so tests can mutate it freely. */
export function loadExample(slug: string): AgentDefinition {
  const file = EXAMPLE_FILES[slug];
  if (file === undefined) throw new Error(`no example named ${slug}`);
  return structuredClone(parseFile(file)) as AgentDefinition;
}

/** The base definition of the rule tests: examples/write-router/agent.json, deep-cloned. */
export function baseDefinition(): AgentDefinition {
  return loadExample('write-router');
}

/** Throws when the definition is not schema-valid, naming the schema errors. */
export function assertSchemaValid(definition: unknown): asserts definition is AgentDefinition {
  if (!validateAgentDefinition(definition)) {
    throw new Error(`fixture is not schema-valid: ${JSON.stringify(validateAgentDefinition.errors, null, 2)}`);
  }
}

/** Runs one rule on a schema-valid definition (asserted first) with the default options. */
export function runRule(
  rule: SemanticRule,
  definition: AgentDefinition,
  options: Partial<RuleOptions> = {},
): Finding[] {
  assertSchemaValid(definition);
  return rule.check(definition, { ...DEFAULT_RULE_OPTIONS, ...options });
}

/** The fields tests compare exactly, with the documented defaults filled in. */
export function summarize(
  findings: readonly Finding[],
): { path: string; code: string; severity: string; at?: 'key' | 'value' }[] {
  return findings.map((f) => ({
    path: f.path,
    code: f.code ?? 'agent_definition_invalid',
    severity: f.severity ?? 'error',
    ...(f.at === undefined ? {} : { at: f.at }),
  }));
}
