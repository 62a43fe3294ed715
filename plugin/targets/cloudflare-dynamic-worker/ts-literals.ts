/**
 * Every user string that lands in generated TypeScript goes through here, and every string
 * literal is escaped as the TypeScript printer escapes a `StringLiteral` node (the same text, with
 * neither TypeScript nor ts-morph loaded): quotes, backslashes, control characters, newlines,
 * U+2028/U+2029 and every non-ASCII character come out escaped, so backticks, `*\/` and
 * `</script>` stay inside the literal by construction, never by string concatenation. JSON values
 * become literals written through a code writer, and property names are identifiers only when they
 * are valid ones (`__proto__` is a computed key, so it stays an own property instead of setting the
 * prototype).
 */
import type CodeBlockWriter from 'code-block-writer';

/** What the TypeScript printer writes for the characters a double-quoted literal escapes by name. */
const NAMED_ESCAPES: Readonly<Record<string, string>> = {
  '\t': '\\t',
  '\v': '\\v',
  '\f': '\\f',
  '\b': '\\b',
  '\r': '\\r',
  '\n': '\\n',
  '\\': '\\\\',
  '"': '\\"',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
  '\u0085': '\\u0085',
};

/** `\uXXXX` (upper-case hex) for one UTF-16 code unit. */
function utf16Escape(code: number): string {
  return `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** What a double-quoted literal escapes (the TypeScript printer's set): control characters are the point. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is escaped
const ESCAPED = /[\\"\u0000-\u001f\u2028\u2029\u0085]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: every character outside ASCII is escaped
const NON_ASCII = /[^\u0000-\u007f]/g;

/** A TypeScript string literal whose value is exactly `value`, as the TypeScript printer prints it. */
export function stringLiteral(value: string): string {
  const escaped = value
    .replace(ESCAPED, (c, offset: number) => {
      if (c === '\u0000') {
        // NUL before a digit would read as an octal escape.
        const next = value.charCodeAt(offset + 1);
        return next >= 48 && next <= 57 ? '\\x00' : '\\0';
      }
      return NAMED_ESCAPES[c] ?? utf16Escape(c.charCodeAt(0));
    })
    .replace(NON_ASCII, (c) => utf16Escape(c.charCodeAt(0)));
  return `"${escaped}"`;
}

export function numberLiteral(value: number): string {
  if (!Number.isFinite(value)) throw new TypeError('numberLiteral: JSON numbers are finite');
  const literal = String(Math.abs(value));
  return value < 0 || Object.is(value, -0) ? `-${literal}` : literal;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function isIdentifier(name: string): boolean {
  return IDENTIFIER.test(name);
}

/** A property name for an object literal or a type literal: `name`, `"a-b"` or `["__proto__"]`. */
export function propertyName(name: string): string {
  if (name === '__proto__') return `[${stringLiteral(name)}]`;
  return isIdentifier(name) ? name : stringLiteral(name);
}

/** `env.NAME` or `env["not-an-identifier"]`. */
export function memberAccess(object: string, name: string): string {
  return isIdentifier(name) && name !== '__proto__' ? `${object}.${name}` : `${object}[${stringLiteral(name)}]`;
}

/** An `import … from "<specifier>"` declaration, as the TypeScript printer prints it (the specifier an escaped literal). */
export function importDeclaration(
  specifier: string,
  clause: { default?: string; named?: readonly (string | readonly [string, string])[]; typeOnly?: boolean },
): string {
  const names = clause.named?.length
    ? `{ ${clause.named.map((n) => (typeof n === 'string' ? n : `${n[0]} as ${n[1]}`)).join(', ')} }`
    : undefined;
  const bindings = [clause.default, names].filter((part) => part !== undefined).join(', ');
  return `import ${clause.typeOnly ? 'type ' : ''}${bindings} from ${stringLiteral(specifier)};`;
}

function isScalar(value: unknown): boolean {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** Writes a JSON value as a TypeScript expression (objects and arrays one entry per line). */
export function writeJsonValue(writer: CodeBlockWriter, value: unknown): void {
  if (value === null) writer.write('null');
  else if (typeof value === 'string') writer.write(stringLiteral(value));
  else if (typeof value === 'number') writer.write(numberLiteral(value));
  else if (typeof value === 'boolean') writer.write(value ? 'true' : 'false');
  else if (Array.isArray(value)) {
    if (value.length === 0) writer.write('[]');
    else if (value.every(isScalar) && value.length <= 8) {
      writer.write('[');
      value.forEach((item, i) => {
        if (i > 0) writer.write(', ');
        writeJsonValue(writer, item);
      });
      writer.write(']');
    } else {
      writer.write('[').newLine();
      writer.indent(() => {
        for (const item of value) {
          writeJsonValue(writer, item);
          writer.write(',').newLine();
        }
      });
      writer.write(']');
    }
  } else if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    if (entries.length === 0) {
      writer.write('{}');
      return;
    }
    writer.write('{').newLine();
    writer.indent(() => {
      for (const [key, child] of entries) {
        writer.write(`${propertyName(key)}: `);
        writeJsonValue(writer, child);
        writer.write(',').newLine();
      }
    });
    writer.write('}');
  } else {
    throw new TypeError(`writeJsonValue: ${typeof value} is not a JSON value`);
  }
}

export function jsonValue(value: unknown): (writer: CodeBlockWriter) => void {
  return (writer) => writeJsonValue(writer, value);
}

/** Text safe inside a `/* … *\/` comment: only the schema-restricted names and digests go in, and `*\/` cannot close it early. */
export function commentText(text: string): string {
  return text.replace(/\*\//g, '*\\/').replace(/[\r\n\u2028\u2029]+/g, ' ');
}
