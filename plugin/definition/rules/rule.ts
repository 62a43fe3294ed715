/**
 * The shape of a semantic rule: a named, pure check over a schema-valid definition. Rules never
 * throw and never see the file system; they return findings that the pipeline locates.
 */
import type { AgentDefinition } from '../../schema/generated/agent-definition.types';
import type { Finding } from '../diagnostic';

export interface RuleOptions {
  /** Working sets above this many tokens are Workers-hostile (default 128k). */
  workingSetThreshold: number;
}

export const DEFAULT_RULE_OPTIONS: RuleOptions = { workingSetThreshold: 128_000 };

export interface SemanticRule {
  /** Kebab-case rule name; it appears in every diagnostic the rule reports. */
  name: string;
  /** One sentence: what the rule enforces (printed by the docs). */
  description: string;
  check(definition: AgentDefinition, options: RuleOptions): Finding[];
  /**
   * Optional proof from the JSON text alone: true only when `check` finds nothing in any value
   * `JSON.parse` makes of `jsonText`, whatever the options. The fast path then skips `check`
   * (validate-fast-path.ts); false proves nothing, and `check` runs.
   */
  quietOnJsonText?(jsonText: string): boolean;
}
