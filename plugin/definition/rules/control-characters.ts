/**
 * Identifiers, versions, model ids, references, tags and names are printable text: no control
 * characters (C0, DEL, C1), no line or paragraph separators, no bidi embedding, override or
 * isolate controls. Such characters have no business there; in a terminal they can retitle it,
 * erase lines or reorder what is shown, and in generated names and files they can inject. Prose
 * (descriptions, invariants, examples) and data (embedded JSON Schemas, sampling parameters,
 * edge condition values, card exports) are not identifiers and are left to the printers, which
 * escape whatever they show (terminal-text.ts).
 */
import type { AgentDefinition } from '../../schema/generated/agent-definition.types';
import type { Finding } from '../diagnostic';
import { joinPointer } from '../json-pointer';
import { isAsciiText } from '../ascii-text';
import { BEYOND_C0, codePointName, controlCharacterIndex } from '../terminal-text';
import type { SemanticRule } from './rule';

const RULE = 'control-characters';

/** Members whose values are prose or data, not identifiers: not entered. */
const NOT_IDENTIFIERS: ReadonlySet<string> = new Set([
  'description',
  'invariants',
  'examples',
  'inputSchema',
  'outputSchema',
  'schema',
  'samplingParams',
  'equals',
  'cardExports',
]);

/**
 * Whether a string parsed from JSON text can hold a character this rule reports. A C0 control
 * reaches a string only through an escape (`\b \f \n \r \t \uXXXX`: JSON forbids them raw inside
 * a string, and those between tokens are whitespace, in no value); every other one (DEL, C1,
 * separators, bidi controls) raw or as `\u`, and all but DEL are beyond ASCII. In JSON text
 * every backslash starts a two-character escape (or `\uXXXX`), so the next backslash is searched
 * from the character after the escaped one.
 */
function jsonTextMayHoldControl(text: string): boolean {
  if (isAsciiText(text) ? text.includes('\u007f') : BEYOND_C0_CHARACTER.test(text)) return true;
  for (let at = text.indexOf('\\'); at >= 0; at = text.indexOf('\\', at + 2))
    if (SHORT_ESCAPES_OF_CONTROLS.includes(text[at + 1] ?? '')) return true;
  return false;
}

const BEYOND_C0_CHARACTER = new RegExp(`[${BEYOND_C0}]`);

/** The escapes that decode to a C0 control (`u` may: `\u0007`). */
const SHORT_ESCAPES_OF_CONTROLS = 'bfnrtu';

export const controlCharactersRule: SemanticRule = {
  name: RULE,
  description:
    'Identifiers, versions, model ids, references, names and tags hold no control characters (C0, DEL, C1), line separators or bidi controls.',
  check(definition: AgentDefinition) {
    const findings: Finding[] = [];
    // The path is kept as segments and joined into a pointer only for a finding.
    const segments: (string | number)[] = [];
    const visit = (value: unknown): void => {
      if (typeof value === 'string') {
        const index = controlCharacterIndex(value);
        if (index >= 0) {
          const pointer = segments.reduce<string>(joinPointer, '');
          findings.push({
            rule: RULE,
            path: pointer,
            message: `${pointer} holds the control character ${codePointName(value, index)} at character ${index + 1}: identifiers, versions, model ids and names must be printable text.`,
            suggestion:
              'Remove the character; terminals act on control characters instead of showing them, and generated names would carry them.',
          });
        }
        return;
      }
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          segments.push(i);
          visit(value[i]);
          segments.pop();
        }
        return;
      }
      if (value === null || typeof value !== 'object') return;
      for (const key of Object.keys(value)) {
        if (NOT_IDENTIFIERS.has(key)) continue;
        segments.push(key);
        visit((value as Record<string, unknown>)[key]);
        segments.pop();
      }
    };
    visit(definition);
    return findings;
  },
  quietOnJsonText(jsonText: string) {
    return !jsonTextMayHoldControl(jsonText);
  },
};
