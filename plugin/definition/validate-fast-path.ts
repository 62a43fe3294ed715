/**
 * Validation at the speed of the schema: a JSON definition that parses with `JSON.parse` (and
 * passes parse-json-fast.ts's proof that the strict parser agrees), passes the standalone JSON
 * Schema validator and draws no finding from any semantic rule is valid, and nothing needs a
 * position. Everything else returns `undefined`, and validate-definition.ts's position-keeping
 * pipeline decides, with its located diagnostics, exactly as if this file did not exist.
 * Pure, never throws.
 */
import type { AgentDefinition } from '../schema/generated/agent-definition.types';
import { validateAgentDefinition } from '../schema/generated/agent-definition.validator';
import { documentWithLazyPositions } from './parse-document';
import { parseJsonWithoutPositions } from './parse-json-fast';
import type { RuleOptions } from './rules/rule';
import { SEMANTIC_RULES } from './rules/index';
import type { DefinitionResult } from './validate-definition';

export function validateOnFastPath(text: string, file: string, options: RuleOptions): DefinitionResult | undefined {
  const parsed = parseJsonWithoutPositions(text);
  if (parsed === undefined || !validateAgentDefinition(parsed.value)) return undefined;
  const definition = parsed.value as unknown as AgentDefinition;
  for (const rule of SEMANTIC_RULES)
    if (!rule.quietOnJsonText?.(text) && rule.check(definition, options).length > 0) return undefined;
  const document = documentWithLazyPositions(text, file, 'json', parsed.value);
  return { definition, document, diagnostics: [], valid: true, text };
}
