/**
 * Where a parsed document holds something a signature cannot be trusted to cover: a member named
 * `__proto__`, `constructor` or `prototype` (as an own key: JSON.parse and strict parsers keep
 * `__proto__` as one, and a normaliser that assigns `out[name] = value` then sets a prototype
 * instead of copying it, so it drops out of the signed payload while readers still see it), or an
 * object whose prototype is not a plain object's (a parser that assigned `__proto__` made its
 * members inherited: readers see them, the canonical form does not). Walks with an explicit stack
 * and a depth limit; never throws.
 */
import { RESERVED_MEMBER_NAMES } from './strict-json';

const MAX_DEPTH = 256;

function pointerToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The JSON Pointer and what is wrong there, or undefined when the value holds none of it. */
export function findReservedMember(value: unknown): { pointer: string; problem: string } | undefined {
  const stack: { value: unknown; pointer: string; depth: number }[] = [{ value, pointer: '', depth: 0 }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { value: current, pointer, depth } = next;
    if (current === null || typeof current !== 'object') continue;
    if (depth > MAX_DEPTH) return { pointer, problem: 'nested too deep to check' };
    const prototype = Object.getPrototypeOf(current) as unknown;
    if (Array.isArray(current)) {
      if (prototype !== Array.prototype) return { pointer, problem: 'an array with another prototype' };
      for (let i = current.length - 1; i >= 0; i--)
        stack.push({ value: current[i] as unknown, pointer: `${pointer}/${i}`, depth: depth + 1 });
      continue;
    }
    if (prototype !== Object.prototype && prototype !== null)
      return {
        pointer,
        problem: 'an object with inherited members (a "__proto__" member was assigned, not copied, by its parser)',
      };
    const names = Object.getOwnPropertyNames(current);
    for (let i = names.length - 1; i >= 0; i--) {
      const name = names[i]!;
      const at = `${pointer}/${pointerToken(name)}`;
      if (RESERVED_MEMBER_NAMES.includes(name))
        return {
          pointer: at,
          problem: `reserved member name ${JSON.stringify(name)} (it can set or shadow a prototype)`,
        };
      stack.push({ value: (current as Record<string, unknown>)[name], pointer: at, depth: depth + 1 });
    }
  }
  return undefined;
}
