/**
 * A small strict JSON (RFC 8259) parser for texts whose meaning must be unambiguous, such as
 * receipts read back from files and responses: a duplicated property name, which `JSON.parse`
 * silently resolves to the last value (and other parsers to the first), is an error here, as is
 * any nesting deeper than the limit. Members are defined, never assigned, so `__proto__` is an
 * ordinary own key and never sets a prototype. The portable runtime cannot use the definition layer's positional parser, hence this one.
 * A failure says where: offset, line and column, and the JSON Pointer of what was being read.
 * Signed documents are read with {@link parseSignedJson}, which also refuses the member names
 * `__proto__`, `constructor` and `prototype` anywhere (escaped forms too: names are compared decoded).
 */
export type StrictJsonResult = { ok: true; value: unknown } | ({ ok: false; reason: string } & StrictJsonLocation);

/** Where a strict parse failed: offset (UTF-16 units), 1-based line and column, and the JSON Pointer of the member or item being read. */
export interface StrictJsonLocation {
  offset: number;
  line: number;
  column: number;
  pointer: string;
}

export interface StrictJsonOptions {
  /**
   * Refuse the member names `__proto__`, `constructor` and `prototype` anywhere in the document.
   * A signed document must mean one thing to every reader; those names set or shadow an object's
   * prototype in many of them (an assignment `out[name] = value` drops `__proto__` from what is
   * signed), so a verifier refuses them rather than guess what the signer meant.
   */
  refuseReservedNames?: boolean;
}

/** The member names {@link StrictJsonOptions.refuseReservedNames} refuses. */
export const RESERVED_MEMBER_NAMES: readonly string[] = ['__proto__', 'constructor', 'prototype'];

/** RFC 6901: `~` and `/` escaped in one reference token. */
function pointerToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** 1-based line and column (UTF-16 units) of `offset` in `text`. */
function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) {
    line++;
    start = at + 1;
  }
  return { line, column: offset - start + 1 };
}

/** Receipts nest four levels; anything far deeper is not a receipt. */
export const STRICT_JSON_MAX_DEPTH = 64;

class Fail {
  constructor(
    readonly reason: string,
    readonly offset: number,
    readonly pointer: string,
  ) {}
}

/**
 * The strict parse, as signed documents are read (cards, credentials, receipts, registry files):
 * duplicate members and the reserved member names refused anywhere ({@link StrictJsonOptions}).
 */
export function parseSignedJson(text: string): StrictJsonResult {
  return parseStrictJson(text, STRICT_JSON_MAX_DEPTH, { refuseReservedNames: true });
}

export function parseStrictJson(
  text: string,
  maxDepth = STRICT_JSON_MAX_DEPTH,
  options: StrictJsonOptions = {},
): StrictJsonResult {
  let i = 0;
  /** The reference tokens of the value being read (for the failure's JSON Pointer). */
  const path: (string | number)[] = [];
  const fail = (what: string, at = i): never => {
    throw new Fail(`${what} at offset ${at}`, at, path.map((t) => `/${pointerToken(t)}`).join(''));
  };
  const ws = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const string = (): string => {
    // Opening quote already checked by the caller.
    i++;
    let out = '';
    for (;;) {
      if (i >= text.length) fail('unterminated string');
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return out;
      }
      if (c < 0x20) fail('control character in string');
      if (c !== 0x5c) {
        // A run of plain characters is taken in one slice (one character at a time cost seconds on a long string).
        let end = i + 1;
        for (; end < text.length; end++) {
          const d = text.charCodeAt(end);
          if (d === 0x22 || d === 0x5c || d < 0x20) break;
        }
        out += text.slice(i, end);
        i = end;
        continue;
      }
      const e = text[i + 1];
      i += 2;
      if (e === '"' || e === '\\' || e === '/') out += e;
      else if (e === 'b') out += '\b';
      else if (e === 'f') out += '\f';
      else if (e === 'n') out += '\n';
      else if (e === 'r') out += '\r';
      else if (e === 't') out += '\t';
      else if (e === 'u') {
        const hex = text.slice(i, i + 4);
        if (!/^[0-9A-Fa-f]{4}$/.test(hex)) fail('bad \\u escape');
        out += String.fromCharCode(Number.parseInt(hex, 16));
        i += 4;
      } else fail('bad escape');
    }
  };
  const number = (): number => {
    const m = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/.exec(text.slice(i, i + 400));
    if (!m) fail('bad number');
    i += m![0].length;
    const n = Number(m![0]);
    if (!Number.isFinite(n)) fail('number out of range');
    return n;
  };
  const value = (depth: number): unknown => {
    ws();
    const c = text[i];
    if (c === '"') return string();
    if (c === '{' || c === '[') {
      if (depth >= maxDepth) fail('nesting too deep');
      i++;
      ws();
      if (c === '[') {
        const arr: unknown[] = [];
        if (text[i] === ']') {
          i++;
          return arr;
        }
        for (;;) {
          path.push(arr.length);
          arr.push(value(depth + 1));
          path.pop();
          ws();
          if (text[i] === ',') i++;
          else if (text[i] === ']') {
            i++;
            return arr;
          } else fail('expected , or ]');
        }
      }
      const obj: Record<string, unknown> = {};
      if (text[i] === '}') {
        i++;
        return obj;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected a property name');
        const keyAt = i;
        const key = string();
        path.push(key);
        if (Object.hasOwn(obj, key)) fail(`duplicate property name ${JSON.stringify(key.slice(0, 40))}`, keyAt);
        if (options.refuseReservedNames === true && RESERVED_MEMBER_NAMES.includes(key))
          fail(`reserved member name ${JSON.stringify(key)} (it can set or shadow a prototype)`, keyAt);
        ws();
        if (text[i] !== ':') fail('expected :');
        i++;
        Object.defineProperty(obj, key, {
          value: value(depth + 1),
          enumerable: true,
          writable: true,
          configurable: true,
        });
        path.pop();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') {
          i++;
          return obj;
        } else fail('expected , or }');
      }
    }
    if (text.startsWith('true', i)) {
      i += 4;
      return true;
    }
    if (text.startsWith('false', i)) {
      i += 5;
      return false;
    }
    if (text.startsWith('null', i)) {
      i += 4;
      return null;
    }
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return number();
    return fail('unexpected character');
  };
  try {
    const result = value(0);
    ws();
    if (i !== text.length) fail('trailing text');
    return { ok: true, value: result };
  } catch (error) {
    if (error instanceof Fail)
      return {
        ok: false,
        reason: error.reason,
        offset: error.offset,
        ...lineAndColumn(text, error.offset),
        pointer: error.pointer,
      };
    return { ok: false, reason: 'unparseable', offset: i, ...lineAndColumn(text, i), pointer: '' };
  }
}
