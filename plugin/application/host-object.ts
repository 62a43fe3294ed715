/**
 * Reading host-supplied objects (the options of pack admission, adapters, owner resolvers) without
 * running any of their code.
 *
 * Host objects carry functions, so they are not plain JSON and `readApplicationJson` does not apply;
 * they are read here by property descriptor instead: own data properties only, never a getter, a
 * setter, a Proxy trap, a `toJSON` or anything on the prototype chain. A Proxy is refused before it
 * is touched (its traps would be the value's own code). Every problem is a finding located by JSON
 * Pointer under the caller's `pointer`; nothing here throws.
 */
import { types } from 'node:util';
import type { Finding } from '../definition/diagnostic';
import { joinPointer } from '../definition/json-pointer';

/** One member read from a host object: its value, or absent. */
export type HostMember = { readonly present: true; readonly value: unknown } | { readonly present: false };

export type HostMembers =
  | { readonly ok: true; readonly members: ReadonlyMap<string, HostMember> }
  | { readonly ok: false; readonly findings: Finding[] };

export type HostArray =
  | { readonly ok: true; readonly items: readonly unknown[] }
  | { readonly ok: false; readonly findings: Finding[] };

/** What a value is, from `typeof` and internal slots alone (nothing of the value runs). */
export function describeHostValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (types.isProxy(value)) return 'a Proxy';
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  return type === 'object' ? 'an object' : type === 'function' ? 'a function' : `a ${type}`;
}

/**
 * The own data properties `keys` of the host object `value` (an object, not an array, not a
 * function, not a Proxy). A key that is an accessor gives a finding at its place; a missing key is
 * `{ present: false }`.
 */
export function readHostMembers(
  value: unknown,
  pointer: string,
  what: string,
  keys: readonly string[],
  rule: string,
): HostMembers {
  // A Proxy first: even Array.isArray runs into a revoked Proxy.
  if (types.isProxy(value)) {
    return {
      ok: false,
      findings: [
        {
          rule,
          path: pointer,
          message: `${what} is a Proxy: host objects are read as own data properties only, so pass a plain object`,
        },
      ],
    };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return {
      ok: false,
      findings: [{ rule, path: pointer, message: `${what} must be an object, not ${describeHostValue(value)}` }],
    };
  }
  const members = new Map<string, HostMember>();
  const findings: Finding[] = [];
  for (const key of keys) {
    let descriptor: PropertyDescriptor | undefined;
    try {
      descriptor = Reflect.getOwnPropertyDescriptor(value, key);
    } catch {
      findings.push({
        rule,
        path: joinPointer(pointer, key),
        message: `\`${key}\` of ${what} could not be read as an own data property`,
      });
      continue;
    }
    if (descriptor === undefined) {
      members.set(key, { present: false });
    } else if (!('value' in descriptor)) {
      findings.push({
        rule,
        path: joinPointer(pointer, key),
        message: `\`${key}\` of ${what} is an accessor (getter or setter): it is never called; host objects are read as own data properties only`,
      });
    } else {
      members.set(key, { present: true, value: descriptor.value });
    }
  }
  return findings.length > 0 ? { ok: false, findings } : { ok: true, members };
}

/**
 * The elements of the host array `value`: a real, dense array (not a Proxy, not from another
 * realm) of at most `max` elements (checked before any element is read; `overLimit` words that
 * finding), each an own data property. Anything else is one finding.
 */
export function readHostArray(
  value: unknown,
  pointer: string,
  what: string,
  max: number,
  rule: string,
  overLimit?: (length: number) => Finding,
): HostArray {
  if (types.isProxy(value))
    return { ok: false, findings: [{ rule, path: pointer, message: `${what} is a Proxy: pass a plain array` }] };
  if (!Array.isArray(value))
    return {
      ok: false,
      findings: [{ rule, path: pointer, message: `${what} must be an array, not ${describeHostValue(value)}` }],
    };
  if (Object.getPrototypeOf(value) !== Array.prototype)
    return {
      ok: false,
      findings: [
        {
          rule,
          path: pointer,
          message: `${what} is an array with a custom prototype or from another realm: pass a plain array`,
        },
      ],
    };
  const length = value.length;
  if (length > max)
    return {
      ok: false,
      findings: [
        overLimit?.(length) ?? {
          rule,
          path: pointer,
          message: `${what} has ${length} entries; at most ${max} are admitted`,
        },
      ],
    };
  const items: unknown[] = [];
  for (let index = 0; index < length; index++) {
    const descriptor = Reflect.getOwnPropertyDescriptor(value, String(index));
    if (descriptor === undefined)
      return {
        ok: false,
        findings: [
          { rule, path: joinPointer(pointer, index), message: `${what} has a hole at index ${index} (a sparse array)` },
        ],
      };
    if (!('value' in descriptor))
      return {
        ok: false,
        findings: [
          {
            rule,
            path: joinPointer(pointer, index),
            message: `entry ${index} of ${what} is an accessor (getter or setter): it is never called`,
          },
        ],
      };
    items.push(descriptor.value);
  }
  return { ok: true, items };
}
