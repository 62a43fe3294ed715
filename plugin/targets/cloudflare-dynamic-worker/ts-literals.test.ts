/**
 * User strings become TypeScript by construction: any string, printed as a literal and evaluated,
 * is the same string; any JSON value written as a literal evaluates to the same value (even with
 * `__proto__` keys); property names, imports and comments cannot be broken out of.
 */
import fc from 'fast-check';
import { Project } from 'ts-morph';
import { ts } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import {
  commentText,
  importDeclaration,
  isIdentifier,
  jsonValue,
  memberAccess,
  numberLiteral,
  propertyName,
  stringLiteral,
} from './ts-literals';

const evaluate = (expression: string): unknown => new Function(`return (${expression});`)();

function writeToText(value: unknown): string {
  const project = new Project({ useInMemoryFileSystem: true });
  const file = project.createSourceFile('x.ts', '');
  file.addStatements((writer) => {
    writer.write('export const value = ');
    jsonValue(value)(writer);
    writer.write(';');
  });
  return file.getFullText();
}

const NASTY = ['"', "'", '`', '*/', '</script>', '\n', '\r\n', '\u2028', '\u2029', '\\', '${x}', '\u0000', '😀', 'é'];

describe('string literals', () => {
  it('round-trip every string, including quotes, backticks, */, </script>, line breaks and U+2028', () => {
    for (const s of [...NASTY, NASTY.join(''), '']) expect(evaluate(stringLiteral(s))).toBe(s);
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => evaluate(stringLiteral(s)) === s));
  });

  it('never contain a raw line break, so no string can end a line comment or a statement', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => !/[\n\r\u2028\u2029]/.test(stringLiteral(s))));
  });
});

describe('the TypeScript printer as the oracle', () => {
  const printer = ts.createPrinter({ newLine: ts.NewLineKind.LineFeed, removeComments: true });
  const scratch = ts.createSourceFile('literal.ts', '', ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  const print = (node: ts.Node) => printer.printNode(ts.EmitHint.Unspecified, node, scratch);

  it('string literals are the text the printer gives a StringLiteral node, byte for byte', () => {
    for (const s of [...NASTY, '\u00001', 'a\u00009', '\u0085', '\u0001', '\v\f\b\t'])
      expect(stringLiteral(s)).toBe(print(ts.factory.createStringLiteral(s)));
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => stringLiteral(s) === print(ts.factory.createStringLiteral(s))),
      { numRuns: 2000 },
    );
  });

  it('numbers and imports are the text the printer gives their nodes', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        const literal = ts.factory.createNumericLiteral(Math.abs(n));
        const node =
          n < 0 || Object.is(n, -0)
            ? ts.factory.createPrefixUnaryExpression(ts.SyntaxKind.MinusToken, literal)
            : literal;
        return numberLiteral(n) === print(node);
      }),
    );
    const f = ts.factory;
    const printed = (specifier: string, name: string | undefined, named: [string, string?][], typeOnly: boolean) =>
      print(
        f.createImportDeclaration(
          undefined,
          f.createImportClause(
            typeOnly,
            name === undefined ? undefined : f.createIdentifier(name),
            named.length === 0
              ? undefined
              : f.createNamedImports(
                  named.map(([a, b]) =>
                    b === undefined
                      ? f.createImportSpecifier(false, undefined, f.createIdentifier(a))
                      : f.createImportSpecifier(false, f.createIdentifier(a), f.createIdentifier(b)),
                  ),
                ),
          ),
          f.createStringLiteral(specifier),
        ),
      );
    const identifier = fc.constantFrom('a', 'Env', '_x', '$', 'runTool');
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }),
        fc.option(identifier, { nil: undefined }),
        fc.array(fc.tuple(identifier, fc.option(identifier, { nil: undefined })), { maxLength: 4 }),
        fc.boolean(),
        (specifier, name, named, typeOnly) => {
          if (name === undefined && named.length === 0) return true;
          const clause = {
            ...(name !== undefined ? { default: name } : {}),
            named: named.map(([a, b]): string | [string, string] => (b === undefined ? a : [a, b])),
            typeOnly,
          };
          return importDeclaration(specifier, clause) === printed(specifier, name, named, typeOnly);
        },
      ),
    );
  });
});

describe('JSON values', () => {
  it('round-trip through the code writer, __proto__ keys included', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = writeToText(value);
        const expression = text.slice(text.indexOf('=') + 1, text.lastIndexOf(';'));
        return JSON.stringify(evaluate(expression)) === JSON.stringify(value);
      }),
      { numRuns: 200 },
    );
    const tricky = JSON.parse('{"__proto__": {"polluted": true}, "a-b": [1, -2.5, "x"], "": null}') as unknown;
    const text = writeToText(tricky);
    expect(text).toContain('["__proto__"]: {');
    const back = evaluate(text.slice(text.indexOf('=') + 1, text.lastIndexOf(';'))) as Record<string, unknown>;
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(Object.keys(back)).toEqual(['__proto__', 'a-b', '']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('prints negative numbers and -0 as expressions that evaluate to them', () => {
    expect(evaluate(numberLiteral(-3.5))).toBe(-3.5);
    expect(Object.is(evaluate(numberLiteral(-0)), -0)).toBe(true);
    expect(evaluate(numberLiteral(1e21))).toBe(1e21);
    expect(() => numberLiteral(Number.NaN)).toThrow(TypeError);
  });
});

describe('names, imports and comments', () => {
  it('keeps identifiers bare and quotes everything else', () => {
    expect(propertyName('OPENAI_API_KEY')).toBe('OPENAI_API_KEY');
    expect(propertyName('MY-KV')).toBe('"MY-KV"');
    expect(propertyName('__proto__')).toBe('["__proto__"]');
    expect(memberAccess('env', 'A$b')).toBe('env.A$b');
    expect(memberAccess('env', 'a-b')).toBe('env["a-b"]');
    expect(isIdentifier('1a')).toBe(false);
  });

  it('prints import specifiers as escaped literals (the TypeScript parser reads back the exact specifier)', () => {
    const specifier = 'agentdef:workspace/we\'ird "dir"\n/x.ts';
    const text = importDeclaration(specifier, { named: [['run', 'runTool']] });
    const parsed = ts.createSourceFile('x.ts', text, ts.ScriptTarget.ES2022, true);
    const declaration = parsed.statements[0] as ts.ImportDeclaration;
    expect((declaration.moduleSpecifier as ts.StringLiteral).text).toBe(specifier);
    expect(text).toBe('import { run as runTool } from "agentdef:workspace/we\'ird \\"dir\\"\\n/x.ts";');
    expect(importDeclaration('m', { default: 'source' })).toBe('import source from "m";');
    expect(importDeclaration('m', { named: ['A'], typeOnly: true })).toBe('import type { A } from "m";');
  });

  it('keeps comment text from closing the comment or breaking the line', () => {
    expect(commentText('a */ b\nc')).toBe('a *\\/ b c');
  });
});
