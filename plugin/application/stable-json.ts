/**
 * The canonical JSON of application documents (manifests, packs, plans): RFC 8785 text from the
 * compiler's canonicaliser, with the composition seed's stricter admission rules checked first.
 *
 * A value is admitted only when it is plain JSON data and nothing else: `null`, booleans, finite
 * numbers, well-formed strings, real arrays (`Array.prototype`, no holes, no properties beyond the
 * indices and `length`) and objects whose prototype is `Object.prototype` or `null` with
 * enumerable, string-keyed data properties only. Everything else is refused with the JSON Pointer
 * of the first offending place (members are visited in code-unit key order, so the place does not
 * depend on insertion order): `undefined`, functions, bigints, symbols, non-finite numbers, lone
 * surrogates, cycles, Proxies, class instances and built-ins (Date, Map, Set, RegExp, typed arrays,
 * boxed primitives…), objects from another realm, symbol keys, getters and setters, hidden
 * (non-enumerable) properties, sparse and decorated arrays.
 *
 * Inspection reads property descriptors only: no getter, `toJSON`, Proxy trap or other code of the
 * value runs, and the input is never modified. What gets serialised is a detached copy built during
 * that inspection, so the text is exactly the data that was checked. The walk uses an explicit stack
 * (any nesting depth) and a bound on the number of values (shared sub-trees count each time they are
 * reached, so a small graph that expands to a huge tree is refused instead of exhausting memory).
 * Nothing here throws: every outcome is a typed result.
 */
import { types } from 'node:util';
import { CanonicalJsonError, canonicalJson, sha256Hex } from '../compiler/canonical-json';

/** Plain JSON data, as admitted by {@link readApplicationJson}. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Why a value has no canonical application JSON form, and where: never quotes the value itself. */
export interface ApplicationJsonFailure {
  readonly ok: false;
  /** JSON Pointer (RFC 6901) of the offending place; `""` is the whole value. */
  readonly pointer: string;
  readonly reason: string;
}

export type StableApplicationJson = { readonly ok: true; readonly text: string } | ApplicationJsonFailure;
export type ApplicationJsonDigest = { readonly ok: true; readonly sha256: string } | ApplicationJsonFailure;
export type PlainApplicationJson = { readonly ok: true; readonly value: JsonValue } | ApplicationJsonFailure;

/** At most this many values (every scalar, array and object, counted each time it is reached). */
export const MAX_APPLICATION_JSON_VALUES = 1_000_000;

export interface ReadApplicationJsonOptions {
  /**
   * JSON Pointers of object members to leave out of the copy without inspecting them at all
   * (whatever their value, even one that is not JSON): how digests exclude `/source/sha256`.
   */
  readonly omit?: readonly string[];
}

/** The RFC 8785 canonical text of `value`, or where and why it is not plain JSON data. */
export function stableApplicationJson(value: unknown): StableApplicationJson {
  const read = readApplicationJson(value);
  return read.ok ? canonicalText(read.value) : read;
}

/** Lowercase hex SHA-256 of the UTF-8 bytes of {@link stableApplicationJson}. */
export function digestApplicationJson(value: unknown): ApplicationJsonDigest {
  const read = readApplicationJson(value);
  return read.ok ? digestPlainJson(read.value) : read;
}

/** Canonical text of data that {@link readApplicationJson} produced (still never throws). */
export function canonicalText(value: JsonValue): StableApplicationJson {
  try {
    return { ok: true, text: canonicalJson(value) };
  } catch (error) {
    return error instanceof CanonicalJsonError
      ? failure(error.pointer, error.reason)
      : failure('', 'the value has no canonical JSON text');
  }
}

/** Digest of data that {@link readApplicationJson} produced. */
export function digestPlainJson(value: JsonValue): ApplicationJsonDigest {
  const text = canonicalText(value);
  return text.ok ? { ok: true, sha256: sha256Hex(text.text) } : text;
}

/** Escapes one reference token of a JSON Pointer (RFC 6901). */
export function pointerToken(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Checks that `value` is plain JSON data (the rules in the header) and returns a detached copy of
 * it: arrays are fresh arrays, objects have a `null` prototype (so a `__proto__` member stays data)
 * and their keys in code-unit order.
 */
export function readApplicationJson(value: unknown, options: ReadApplicationJsonOptions = {}): PlainApplicationJson {
  const omit = omittedPaths(options.omit ?? []);
  const open = new Set<object>();
  const stack: Frame[] = [];
  let count = 0;
  let place: { frame: Frame | undefined; key: string | undefined } = { frame: undefined, key: undefined };
  try {
    /** The copy of one member, a frame to descend into, or why it is refused. */
    const admit = (
      member: unknown,
      parent: Frame | undefined,
      key: string | undefined,
    ): JsonValue | Frame | ApplicationJsonFailure => {
      place = { frame: parent, key };
      if (++count > MAX_APPLICATION_JSON_VALUES)
        return failure(pointerOf(parent, key), `more than ${MAX_APPLICATION_JSON_VALUES} values`);
      const scalarProblem = scalarReason(member);
      if (scalarProblem !== undefined) return failure(pointerOf(parent, key), scalarProblem);
      if (member === null || typeof member !== 'object') return member as JsonValue;
      return openContainer(member, parent, key, open);
    };

    const root = admit(value, undefined, undefined);
    if (!isFrame(root)) return isFailure(root) ? root : { ok: true, value: root };
    stack.push(root);
    while (stack.length > 0) {
      const frame = stack[stack.length - 1] as Frame;
      if (frame.index >= frame.keys.length) {
        open.delete(frame.source);
        stack.pop();
        continue;
      }
      const key = frame.keys[frame.index++] as string;
      place = { frame, key };
      if (!frame.isArray && omit.has(frame.depth + 1) && omit.get(frame.depth + 1)?.has(pointerOf(frame, key)))
        continue;
      const descriptor = Reflect.getOwnPropertyDescriptor(frame.source, key);
      if (descriptor === undefined)
        return failure(pointerOf(frame, key), 'a property that disappeared while it was read');
      if (!('value' in descriptor))
        return failure(pointerOf(frame, key), 'an accessor property (getter or setter), not data');
      if (descriptor.enumerable !== true) return failure(pointerOf(frame, key), 'a hidden (non-enumerable) property');
      const child = admit(descriptor.value, frame, key);
      if (isFailure(child)) return child;
      const copy = isFrame(child) ? child.target : child;
      if (Array.isArray(frame.target)) frame.target.push(copy);
      else frame.target[key] = copy;
      if (isFrame(child)) stack.push(child);
    }
    return { ok: true, value: root.target };
  } catch {
    // Only an exotic object the checks above did not foresee can get here; report where it was.
    return failure(pointerOf(place.frame, place.key), 'a value that could not be inspected as plain data');
  }
}

/** The pointers to omit, grouped by their depth (number of reference tokens). */
function omittedPaths(pointers: readonly string[]): Map<number, Set<string>> {
  const byDepth = new Map<number, Set<string>>();
  for (const pointer of pointers) {
    const depth = pointer === '' ? 0 : pointer.split('/').length - 1;
    if (!byDepth.has(depth)) byDepth.set(depth, new Set());
    byDepth.get(depth)?.add(pointer);
  }
  return byDepth;
}

/** One array or object being copied: its members are visited in `keys` order. */
interface Frame {
  readonly source: object;
  readonly target: JsonValue[] | { [key: string]: JsonValue };
  readonly parent: Frame | undefined;
  /** This container's own reference token in its parent (unescaped); undefined for the root. */
  readonly segment: string | undefined;
  readonly keys: readonly string[];
  readonly isArray: boolean;
  /** Number of reference tokens in this container's own pointer (0 for the root). */
  readonly depth: number;
  index: number;
}

const FRAME = Symbol('frame');

function isFrame(value: unknown): value is Frame {
  return typeof value === 'object' && value !== null && FRAME in value;
}

/** `admit` returns copies of scalars only, so any non-frame object it returns is a failure. */
function isFailure(value: unknown): value is ApplicationJsonFailure {
  return typeof value === 'object' && value !== null && !(FRAME in value);
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function failure(pointer: string, reason: string): ApplicationJsonFailure {
  return { ok: false, pointer, reason };
}

/** Why a non-container value is refused; undefined when it is JSON (or a container, checked elsewhere). */
function scalarReason(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return LONE_SURROGATE.test(value) ? 'an unpaired UTF-16 surrogate' : undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : `${String(value)} is not a JSON number`;
    case 'boolean':
      return undefined;
    case 'undefined':
      return 'undefined is not a JSON value';
    case 'function':
      return 'a function is not a JSON value';
    case 'bigint':
      return 'a bigint is not a JSON value';
    case 'symbol':
      return 'a symbol is not a JSON value';
    default:
      return undefined; // null and objects
  }
}

/** Checks the container itself (not its members yet) and prepares its frame. */
function openContainer(
  source: object,
  parent: Frame | undefined,
  segment: string | undefined,
  open: Set<object>,
): Frame | ApplicationJsonFailure {
  const here = (): string => pointerOf(parent, segment); // built only for a failure: O(depth)
  // A Proxy is refused before anything touches it: its traps would be the value's own code.
  if (types.isProxy(source)) return failure(here(), 'a Proxy object, not plain data');
  if (open.has(source)) return failure(here(), 'a circular reference');
  const prototype = Object.getPrototypeOf(source) as unknown;
  const ownKeys = Reflect.ownKeys(source);
  if (Array.isArray(source)) {
    if (prototype !== Array.prototype) return failure(here(), 'an array with a custom prototype or from another realm');
    return openArray(source, ownKeys, parent, segment, open);
  }
  if (prototype !== Object.prototype && prototype !== null) return failure(here(), customObjectReason(source));
  if (ownKeys.some((key) => typeof key === 'symbol')) return failure(here(), 'a symbol-keyed property');
  const keys = (ownKeys as string[]).slice().sort(compareCodeUnits);
  for (const key of keys)
    if (LONE_SURROGATE.test(key))
      return failure(pointerOf({ parent, segment } as Frame, key), 'an unpaired UTF-16 surrogate in a property name');
  open.add(source);
  return frameOf(source, Object.create(null) as { [key: string]: JsonValue }, parent, segment, keys, false);
}

function openArray(
  source: unknown[],
  ownKeys: (string | symbol)[],
  parent: Frame | undefined,
  segment: string | undefined,
  open: Set<object>,
): Frame | ApplicationJsonFailure {
  const here = (): string => pointerOf(parent, segment);
  if (ownKeys.some((key) => typeof key === 'symbol')) return failure(here(), 'a symbol-keyed property on an array');
  const length = source.length;
  const indices: string[] = [];
  const extra: string[] = [];
  for (const key of ownKeys as string[]) {
    if (key === 'length') continue;
    if (isArrayIndex(key, length)) indices.push(key);
    else extra.push(key);
  }
  if (extra.length > 0)
    return failure(
      pointerOf({ parent, segment } as Frame, extra.sort(compareCodeUnits)[0] as string),
      'a property on an array beyond its elements',
    );
  if (indices.length !== length) {
    indices.sort((a, b) => Number(a) - Number(b));
    let hole = indices.findIndex((key, i) => key !== String(i));
    if (hole === -1) hole = indices.length;
    return failure(pointerOf({ parent, segment } as Frame, String(hole)), 'a hole in a sparse array');
  }
  // Reflect.ownKeys lists integer keys in ascending order, so `indices` is 0..length-1.
  open.add(source);
  return frameOf(source, [], parent, segment, indices, true);
}

function frameOf(
  source: object,
  target: Frame['target'],
  parent: Frame | undefined,
  segment: string | undefined,
  keys: readonly string[],
  isArray: boolean,
): Frame {
  const depth = parent === undefined ? 0 : parent.depth + 1;
  return { [FRAME]: true, source, target, parent, segment, keys, isArray, depth, index: 0 } as Frame;
}

/** A canonical array index below `length` (`"0"`, `"17"`; not `"01"` or `"-1"`). */
function isArrayIndex(key: string, length: number): boolean {
  if (!/^(?:0|[1-9][0-9]*)$/.test(key)) return false;
  const index = Number(key);
  return index < length;
}

/** A precise reason for a refused prototype, read from internal slots only (no getter runs). */
function customObjectReason(source: object): string {
  const kind = types.isDate(source)
    ? 'a Date'
    : types.isMap(source) || types.isWeakMap(source)
      ? 'a Map'
      : types.isSet(source) || types.isWeakSet(source)
        ? 'a Set'
        : types.isRegExp(source)
          ? 'a RegExp'
          : types.isAnyArrayBuffer(source) || types.isArrayBufferView(source)
            ? 'binary data (a typed array, DataView or ArrayBuffer)'
            : types.isBoxedPrimitive(source)
              ? 'a boxed primitive'
              : types.isPromise(source)
                ? 'a Promise'
                : types.isNativeError(source)
                  ? 'an Error'
                  : 'an object with a custom prototype (a class instance, a built-in or an object from another realm)';
  return `${kind}, not plain data`;
}

/** The JSON Pointer of `key` inside `frame` (or of the frame itself when `key` is undefined). */
function pointerOf(frame: Pick<Frame, 'parent' | 'segment'> | undefined, key?: string): string {
  const tokens: string[] = [];
  if (key !== undefined) tokens.push(key);
  for (let at = frame; at !== undefined && at.segment !== undefined; at = at.parent) tokens.push(at.segment);
  return tokens
    .reverse()
    .map((token) => `/${pointerToken(token)}`)
    .join('');
}

/** JavaScript code-unit order (RFC 8785's key order), spelled out. */
function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
