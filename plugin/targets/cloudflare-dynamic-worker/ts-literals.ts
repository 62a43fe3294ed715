/**
 * Every user string that lands in generated TypeScript goes through here, and every string
 * literal is printed by the TypeScript printer from a `StringLiteral` node: quotes, backslashes,
 * backticks, newlines, U+2028/U+2029, `*\/` and `</script>` come out escaped by construction, never
 * by string concatenation. JSON values become literals written through ts-morph's code writer, and
 * property names are identifiers only when they are valid ones (`__proto__` is a computed key, so
 * it stays an own property instead of setting the prototype).
 */
import type { CodeBlockWriter, ts, WriterFunction } from 'ts-morph';
import { tsMorph } from './ts-morph-module';

/** The compiler API, a printer and an empty file to print nodes against, made on first use. */
let printing: { api: typeof ts; printer: ts.Printer; scratch: ts.SourceFile } | undefined;
function api(): typeof ts {
  if (!printing) {
    const typescript = tsMorph().ts;
    printing = {
      api: typescript,
      printer: typescript.createPrinter({ newLine: typescript.NewLineKind.LineFeed, removeComments: true }),
      scratch: typescript.createSourceFile(
        'literal.ts',
        '',
        typescript.ScriptTarget.ES2022,
        false,
        typescript.ScriptKind.TS,
      ),
    };
  }
  return printing.api;
}

function print(node: ts.Node): string {
  const typescript = api();
  return printing!.printer.printNode(typescript.EmitHint.Unspecified, node, printing!.scratch);
}

/** A TypeScript string literal whose value is exactly `value`. */
export function stringLiteral(value: string): string {
  return print(api().factory.createStringLiteral(value));
}

export function numberLiteral(value: number): string {
  if (!Number.isFinite(value)) throw new TypeError('numberLiteral: JSON numbers are finite');
  const literal = api().factory.createNumericLiteral(Math.abs(value));
  return print(
    value < 0 || Object.is(value, -0)
      ? api().factory.createPrefixUnaryExpression(api().SyntaxKind.MinusToken, literal)
      : literal,
  );
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

/** An `import … from "<specifier>"` declaration, printed from nodes (so the specifier is escaped). */
export function importDeclaration(
  specifier: string,
  clause: { default?: string; named?: readonly (string | readonly [string, string])[]; typeOnly?: boolean },
): string {
  const f = api().factory;
  const named = clause.named?.length
    ? f.createNamedImports(
        clause.named.map((n) =>
          typeof n === 'string'
            ? f.createImportSpecifier(false, undefined, f.createIdentifier(n))
            : f.createImportSpecifier(false, f.createIdentifier(n[0]), f.createIdentifier(n[1])),
        ),
      )
    : undefined;
  const importClause = f.createImportClause(
    clause.typeOnly ?? false,
    clause.default !== undefined ? f.createIdentifier(clause.default) : undefined,
    named,
  );
  return print(f.createImportDeclaration(undefined, importClause, f.createStringLiteral(specifier)));
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

export function jsonValue(value: unknown): WriterFunction {
  return (writer) => writeJsonValue(writer, value);
}

/** Text safe inside a `/* … *\/` comment: only the schema-restricted names and digests go in, and `*\/` cannot close it early. */
export function commentText(text: string): string {
  return text.replace(/\*\//g, '*\\/').replace(/[\r\n\u2028\u2029]+/g, ' ');
}
