/**
 * Unpaired UTF-16 surrogates: a JSON `"\ud800"` escape (or a YAML one) decodes to a string no
 * UTF-8 encoder, and so no canonicaliser, digest or output file, can represent. The parsers'
 * values are checked here, every string and every property name, so such text is a located
 * diagnostic at validation and never reaches the compiler. Pure, never throws.
 */
import { ERROR_CODES, type Diagnostic } from './diagnostic';
import { joinPointer } from './json-pointer';
import type { PositionAt } from './read-source';

const UNPAIRED = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** At most this many are reported per file: one is enough to fix the pattern. */
const MAX_REPORTED = 20;

/** The index of the first unpaired surrogate in `text`, or -1. */
export function unpairedSurrogateIndex(text: string): number {
  const match = UNPAIRED.exec(text);
  return match ? match.index : -1;
}

/** True when `value` (any JSON value) holds an unpaired surrogate in a string or a property name. */
export function hasUnpairedSurrogate(value: unknown): boolean {
  let found = false;
  walkStrings(value, '', (text) => {
    if (unpairedSurrogateIndex(text) >= 0) found = true;
    return found;
  });
  return found;
}

/**
 * Diagnostics for every string and property name of `value` holding an unpaired surrogate,
 * located through the parser's offsets (`valueAt`, `keyAt`).
 */
export function unpairedSurrogateDiagnostics(
  value: unknown,
  file: string,
  offsets: { valueAt: ReadonlyMap<string, number>; keyAt: ReadonlyMap<string, number> },
  positions: PositionAt,
): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  walkStrings(value, '', (text, pointer, kind) => {
    const index = unpairedSurrogateIndex(text);
    if (index < 0) return false;
    const code = text.charCodeAt(index).toString(16).toUpperCase();
    const offset = (kind === 'key' ? offsets.keyAt.get(pointer) : undefined) ?? offsets.valueAt.get(pointer) ?? 0;
    const { line, column } = positions(offset);
    diagnostics.push({
      code: ERROR_CODES.invalid,
      rule: 'unpaired-surrogate',
      severity: 'error',
      path: pointer,
      file,
      line,
      column,
      message: `the ${kind === 'key' ? 'property name' : 'string'} holds an unpaired UTF-16 surrogate (\\u${code} at character ${index + 1}); it is not Unicode text and cannot be encoded as UTF-8`,
      suggestion: 'write the character itself, or both halves of its surrogate pair (e.g. "\\ud83d\\ude00")',
    });
    return diagnostics.length >= MAX_REPORTED;
  });
  return diagnostics;
}

/**
 * Calls `visit` with every string and property name inside `value`, depth first in document
 * order; stops as soon as `visit` returns true. Iterative: no depth can overflow the stack.
 */
function walkStrings(
  value: unknown,
  root: string,
  visit: (text: string, pointer: string, kind: 'key' | 'value') => boolean,
): void {
  const stack: [unknown, string][] = [[value, root]];
  while (stack.length > 0) {
    const [current, pointer] = stack.pop()!;
    if (typeof current === 'string') {
      if (visit(current, pointer, 'value')) return;
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push([current[i], joinPointer(pointer, i)]);
    } else if (current !== null && typeof current === 'object') {
      const keys = Object.keys(current);
      const children: [unknown, string][] = [];
      for (const key of keys) {
        const member = joinPointer(pointer, key);
        if (visit(key, member, 'key')) return;
        children.push([(current as Record<string, unknown>)[key], member]);
      }
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
    }
  }
}
