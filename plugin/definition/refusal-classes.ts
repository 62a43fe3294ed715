/**
 * The two classes of a compile refusal (docs/decisions/0008-compile-error-classes.md). Every
 * error diagnostic that validate, plan, compile or a lifecycle promotion reports for an
 * AgentDefinition carries one of them in `code`:
 * - `agent_definition_invalid`: the definition is wrong on its own, whatever the target (syntax,
 *   schema, a semantic rule, an unresolvable pin). Fix the definition.
 * - `runtime_capability_mismatch`: the definition is well-formed, but the runtime class or target
 *   cannot host what it needs (a tuned checkpoint on a Worker, a critical tool in an isolate, a
 *   budget over a Worker's, a model task the runtime cannot call). Pick another target or runtime
 *   class, or change what the agent needs.
 * A refusal is not a run: it writes no output and emits no run receipt. The run receipt's
 * `outcome.errorCode` takes the runtime's codes (plugin/runtime/errors.ts), never these.
 */
import { ERROR_CODES } from './diagnostic';

export const REFUSAL_CLASSES = [ERROR_CODES.invalid, ERROR_CODES.runtimeMismatch] as const;

export type RefusalClass = (typeof REFUSAL_CLASSES)[number];

/** What each class means and what fixes it (docs/reference/error-codes.md states the same). */
export const REFUSAL_CLASS_MEANINGS: Readonly<Record<RefusalClass, string>> = {
  agent_definition_invalid: 'The definition is wrong on its own, on every target. Fix the definition.',
  runtime_capability_mismatch:
    'The definition is well-formed, but the chosen runtime class or target cannot host what it needs. Pick another target or runtime class, or change what the agent needs.',
};

export function isRefusalClass(code: string): code is RefusalClass {
  return (REFUSAL_CLASSES as readonly string[]).includes(code);
}
