/**
 * A strict JSON (RFC 8259) parser that keeps positions: for every JSON Pointer it records where
 * the value starts and, for object members, where the property name starts. It is iterative with
 * an explicit depth limit, so no input can overflow the stack, and it builds objects with a null
 * prototype, so `__proto__` and `constructor` are ordinary keys. It stops at the first syntax error.
 */
import { ERROR_CODES, type Diagnostic } from './diagnostic';
import { joinPointer } from './json-pointer';
import { lineIndex, type PositionAt } from './read-source';
import {
  SPACE,
  TAB,
  LF,
  CR,
  QUOTE,
  BACKSLASH,
  SLASH,
  STAR,
  COMMA,
  COLON,
  MINUS,
  PLUS,
  DOT,
  ZERO,
  OPEN_BRACE,
  CLOSE_BRACE,
  OPEN_BRACKET,
  CLOSE_BRACKET,
  APOSTROPHE,
} from './json-char-codes';

/** Containers may nest this deep by default (the root object is level 1). */
export const MAX_DEPTH = 256;

/** What both the JSON and the YAML parser produce. */
export interface ParsedText {
  /** The value, or `undefined` when the text could not be parsed. */
  value: unknown;
  /** Offset where the value at each JSON Pointer starts. */
  valueAt: Map<string, number>;
  /** Offset where the property name of each object member starts. */
  keyAt: Map<string, number>;
  diagnostics: Diagnostic[];
}

export interface ParseOptions {
  maxDepth?: number;
}

export function parseJson(text: string, file: string, options: ParseOptions = {}): ParsedText {
  const parser = new JsonParser(text, file, options.maxDepth ?? MAX_DEPTH);
  const value = parser.parse();
  return { value, valueAt: parser.valueAt, keyAt: parser.keyAt, diagnostics: parser.diagnostics };
}

/** Thrown (and caught) to end parsing once a syntax error is reported. */
class Stop {}

type JsonObject = Record<string, unknown>;

interface Frame {
  container: JsonObject | unknown[];
  pointer: string;
  /** Offset of the opening bracket. */
  start: number;
  /** For objects: the member being read, and where each key was first seen. */
  key?: string;
  keys?: Map<string, number>;
}

const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
/** Letters, digits, `_` and `$`: enough to quote back a bare word such as `True` or `name`. */
const isWordChar = (c: number): boolean =>
  (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || isDigit(c) || c === 0x5f || c === 0x24;

class JsonParser {
  readonly valueAt = new Map<string, number>();
  readonly keyAt = new Map<string, number>();
  readonly diagnostics: Diagnostic[] = [];
  private pos = 0;
  /** The pointer of the value being read, for the `path` of a syntax error. */
  private pointer = '';
  private readonly stack: Frame[] = [];
  private positions?: PositionAt;

  constructor(
    private readonly text: string,
    private readonly file: string,
    private readonly maxDepth: number,
  ) {}

  parse(): unknown {
    try {
      return this.document();
    } catch (error) {
      if (error instanceof Stop) return undefined;
      throw error;
    }
  }

  private document(): unknown {
    let root: unknown;
    let keyStart: number | undefined;
    values: for (;;) {
      // Read the value at this.pointer; keyStart is its property name's offset, if any.
      this.skipSpace();
      const start = this.pos;
      const c = this.code(start);
      this.valueAt.set(this.pointer, start);
      if (keyStart !== undefined) this.keyAt.set(this.pointer, keyStart);
      let opened: Frame | undefined;
      let value: unknown;
      if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        if (this.stack.length >= this.maxDepth)
          this.fail(start, `nesting deeper than ${this.maxDepth} levels`, 'nesting-depth');
        value = c === OPEN_BRACKET ? [] : (Object.create(null) as JsonObject);
        opened = { container: value as Frame['container'], pointer: this.pointer, start };
        if (c === OPEN_BRACE) opened.keys = new Map();
        this.pos++;
      } else {
        value = this.scalar();
      }

      const parent = this.stack.at(-1);
      if (parent === undefined) root = value;
      else if (Array.isArray(parent.container)) parent.container.push(value);
      else parent.container[parent.key ?? ''] = value; // a null-prototype object: plain data

      if (opened !== undefined) {
        this.stack.push(opened);
        this.skipSpace();
        const isArray = Array.isArray(opened.container);
        if (this.code(this.pos) !== (isArray ? CLOSE_BRACKET : CLOSE_BRACE)) {
          keyStart = isArray ? this.element(opened) : this.member(opened);
          continue;
        }
        this.pos++;
        this.stack.pop();
      }

      // After a value: a comma, a closing bracket, or (at the top) the end of the text.
      for (;;) {
        const frame = this.stack.at(-1);
        this.skipSpace();
        if (frame === undefined) {
          if (this.pos < this.text.length) this.fail(this.pos, 'unexpected content after the JSON value');
          return root;
        }
        this.pointer = frame.pointer;
        const isArray = Array.isArray(frame.container);
        const close = isArray ? CLOSE_BRACKET : CLOSE_BRACE;
        const next = this.code(this.pos);
        if (next === COMMA) {
          const comma = this.pos++;
          this.skipSpace();
          if (this.code(this.pos) === close) this.fail(comma, 'trailing comma is not allowed in JSON');
          keyStart = isArray ? this.element(frame) : this.member(frame);
          continue values;
        }
        if (next === close) {
          this.pos++;
          this.stack.pop();
          continue;
        }
        const expected = isArray
          ? "expected ',' or ']' after array element"
          : "expected ',' or '}' after property value";
        if (this.pos >= this.text.length) {
          const kind = isArray ? 'array' : 'object';
          this.fail(
            this.pos,
            `unexpected end of file: ${expected} (the ${kind} opened on line ${this.line(frame.start)} is not closed)`,
          );
        }
        this.fail(this.pos, expected);
      }
    }
  }

  /** Starts the next array element: sets its pointer; an element has no key. */
  private element(frame: Frame): undefined {
    this.pointer = joinPointer(frame.pointer, (frame.container as unknown[]).length);
    return undefined;
  }

  /** Reads `"name":` and sets the member's pointer; returns the name's offset. */
  private member(frame: Frame): number {
    const start = this.pos;
    const c = this.code(start);
    if (c !== QUOTE) {
      if (start >= this.text.length) this.fail(start, 'unexpected end of file; expected a property name');
      if (c === APOSTROPHE) this.fail(start, 'property names must use double quotes, not single quotes');
      if (isWordChar(c)) this.fail(start, `property names must be in double quotes: "${this.word(start)}"`);
      this.fail(start, `expected a property name in double quotes, found ${this.describe(start)}`);
    }
    const key = this.string();
    this.skipSpace();
    if (this.code(this.pos) !== COLON) {
      this.fail(
        this.pos,
        this.pos >= this.text.length
          ? "unexpected end of file; expected ':' after property name"
          : "expected ':' after property name",
      );
    }
    this.pos++;
    const pointer = joinPointer(frame.pointer, key);
    const first = frame.keys?.get(key);
    if (first === undefined) frame.keys?.set(key, start);
    else
      this.report(
        'duplicate-key',
        start,
        pointer,
        `duplicate key ${JSON.stringify(key)} (first defined on line ${this.line(first)})`,
      );
    frame.key = key;
    this.pointer = pointer;
    return start;
  }

  private scalar(): unknown {
    const start = this.pos;
    const c = this.code(start);
    if (c === QUOTE) return this.string();
    if (c === MINUS || isDigit(c)) return this.number();
    if (start >= this.text.length) this.fail(start, 'unexpected end of file; expected a value');
    if (isWordChar(c)) {
      const word = this.word(start);
      this.pos += word.length;
      if (word === 'true') return true;
      if (word === 'false') return false;
      if (word === 'null') return null;
      const lower = word.toLowerCase();
      if (lower === 'true' || lower === 'false' || lower === 'null')
        this.fail(start, `JSON literals are lower case: write ${lower}, not ${word}`);
      if (word === 'NaN' || word === 'Infinity') this.fail(start, `${word} is not a JSON number`);
      if (word === 'undefined') this.fail(start, 'undefined is not a JSON value; use null');
      this.fail(start, `unexpected ${JSON.stringify(word)}; strings must be in double quotes`);
    }
    if (c === APOSTROPHE) this.fail(start, 'strings must use double quotes, not single quotes');
    if (c === PLUS) this.fail(start, "a number cannot start with '+'");
    if (c === DOT) this.fail(start, 'a number needs a digit before the decimal point');
    this.fail(start, `expected a value, found ${this.describe(start)}`);
  }

  private string(): string {
    const open = this.pos;
    let out = '';
    let chunk = open + 1;
    for (let i = chunk; ; ) {
      if (i >= this.text.length) this.fail(open, 'unterminated string: no closing quote before the end of the file');
      const c = this.text.charCodeAt(i);
      if (c === QUOTE) {
        this.pos = i + 1;
        return out + this.text.slice(chunk, i);
      }
      if (c === BACKSLASH) {
        out += this.text.slice(chunk, i);
        const escaped = this.text[i + 1];
        if (escaped === undefined) this.fail(open, 'unterminated string: no closing quote before the end of the file');
        if (escaped === 'u') {
          const hex = this.text.slice(i + 2, i + 6);
          if (!/^[0-9A-Fa-f]{4}$/.test(hex))
            this.fail(i, 'invalid unicode escape: \\u must be followed by four hex digits');
          out += String.fromCharCode(parseInt(hex, 16));
          i += 6;
        } else {
          const decoded = ESCAPES[escaped];
          if (decoded === undefined) {
            this.fail(
              i,
              `invalid escape '\\${escaped}' in string; JSON allows \\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX`,
            );
          }
          out += decoded;
          i += 2;
        }
        chunk = i;
        continue;
      }
      if (c < 0x20) {
        if (c === LF || c === CR)
          this.fail(i, 'unterminated string: a line break cannot appear inside a JSON string (write \\n)');
        this.fail(
          i,
          `control character ${codePoint(c)} must be escaped in a JSON string${c === TAB ? ' (write \\t)' : ''}`,
        );
      }
      i++;
    }
  }

  private number(): number {
    const start = this.pos;
    let i = start;
    if (this.code(i) === MINUS) i++;
    if (this.code(i) === ZERO) {
      if (isDigit(this.code(i + 1))) this.fail(i, 'leading zeros are not allowed in numbers');
      i++;
    } else if (isDigit(this.code(i))) {
      while (isDigit(this.code(i))) i++;
    } else {
      this.fail(
        i,
        i >= this.text.length ? "unexpected end of file; expected a digit after '-'" : "expected a digit after '-'",
      );
    }
    if (this.code(i) === DOT) {
      i++;
      if (!isDigit(this.code(i))) this.fail(i, 'expected a digit after the decimal point');
      while (isDigit(this.code(i))) i++;
    }
    if (this.code(i) === 0x65 || this.code(i) === 0x45) {
      i++;
      if (this.code(i) === PLUS || this.code(i) === MINUS) i++;
      if (!isDigit(this.code(i))) this.fail(i, 'expected a digit in the exponent');
      while (isDigit(this.code(i))) i++;
    }
    this.pos = i;
    const value = Number(this.text.slice(start, i));
    // 1e400 parses to Infinity, which no JSON consumer (nor the canonicaliser) can represent.
    if (!Number.isFinite(value)) {
      const shown = i - start > 40 ? `${this.text.slice(start, start + 40)}...` : this.text.slice(start, i);
      this.fail(
        start,
        `${shown} is beyond the range of a double-precision number (it would be ${String(value)})`,
        'number-range',
      );
    }
    return value;
  }

  private skipSpace(): void {
    for (;;) {
      const c = this.code(this.pos);
      if (c === SPACE || c === LF || c === CR || c === TAB) this.pos++;
      else {
        if (c === SLASH && (this.code(this.pos + 1) === SLASH || this.code(this.pos + 1) === STAR)) {
          this.fail(this.pos, 'comments are not allowed in JSON');
        }
        return;
      }
    }
  }

  /** The character code at `offset`, or NaN past the end. */
  private code(offset: number): number {
    return this.text.charCodeAt(offset);
  }

  private word(start: number): string {
    let end = start;
    while (end < this.text.length && isWordChar(this.code(end))) end++;
    return this.text.slice(start, end);
  }

  private describe(offset: number): string {
    const c = this.text.codePointAt(offset) ?? 0;
    if (c > 0x20 && c < 0x7f) return `'${String.fromCharCode(c)}'`;
    const note = /\s/u.test(String.fromCodePoint(c))
      ? ' (only spaces, tabs and line breaks may separate JSON tokens)'
      : '';
    return `the character ${codePoint(c)}${note}`;
  }

  private line(offset: number): number {
    this.positions ??= lineIndex(this.text);
    return this.positions(offset).line;
  }

  private report(rule: string, offset: number, path: string, message: string): void {
    this.positions ??= lineIndex(this.text);
    const { line, column } = this.positions(offset);
    this.diagnostics.push({
      code: ERROR_CODES.invalid,
      rule,
      severity: 'error',
      path,
      file: this.file,
      line,
      column,
      message,
    });
  }

  private fail(offset: number, message: string, rule = 'syntax'): never {
    this.report(rule, offset, this.pointer, message);
    throw new Stop();
  }
}

function codePoint(c: number): string {
  return `U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
}
