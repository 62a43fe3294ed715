/**
 * One generated TypeScript file as text: its path, its header comment and its statements (text,
 * code-writer functions, and the few class and module declarations the Worker's files hold),
 * printed in one pass through a code writer (`code-block-writer`). Neither TypeScript nor ts-morph
 * is loaded: the text is what ts-morph's structure printer gave for the same statements (the same
 * code writer and settings: two-space indentation, double quotes, `\n`; the same separation
 * between statements and between class members), which a compile loaded only for this.
 */
import CodeBlockWriter from 'code-block-writer';

export type WriterFunction = (writer: CodeBlockWriter) => void;

/** A parameter of a method: `name`, `name?` with its type. */
export interface ParameterText {
  readonly name: string;
  readonly type: string;
  readonly hasQuestionToken?: boolean;
}

/** A method of a class: one statement list, printed as a block. */
export interface MethodText {
  readonly name: string;
  readonly hasOverrideKeyword?: boolean;
  readonly isAsync?: boolean;
  readonly parameters?: readonly ParameterText[];
  readonly returnType: string;
  readonly statements: readonly string[];
}

/** A property of a class with an initializer (`private readonly name = …;`). */
export interface PropertyText {
  readonly name: string;
  readonly scope?: 'private' | 'protected' | 'public';
  readonly isReadonly?: boolean;
  readonly initializer: string;
}

/** An exported class with a one-line doc comment. */
export interface ClassText {
  readonly kind: 'class';
  readonly name: string;
  readonly extends: string;
  readonly docs: readonly string[];
  readonly properties?: readonly PropertyText[];
  readonly methods: readonly MethodText[];
}

/** `declare module "<name>" { … }` (the name already a string literal). */
export interface ModuleText {
  readonly kind: 'module';
  readonly name: string;
  readonly statements: readonly string[];
}

export type GeneratedStatement = string | WriterFunction | ClassText | ModuleText;

export interface GeneratedFile {
  /** Output path, relative (`src/env.ts`). */
  readonly path: string;
  /** The header comment, put in front of the printed statements. */
  readonly header: string;
  readonly statements: GeneratedStatement[];
}

export function generatedFile(path: string, header: string): GeneratedFile {
  return { path, header, statements: [] };
}

/** The file's text: its header, then its statements, one blank line at most between them. */
export function printGeneratedFile(file: GeneratedFile): string {
  const writer = new CodeBlockWriter({ indentNumberOfSpaces: 2, newLine: '\n', useSingleQuote: false });
  writeStatements(writer, file.statements);
  writer.conditionalNewLine(!writer.isAtStartOfFirstLineOfBlock() && !writer.isLastNewLine());
  // Statement writers and the statement printer both separate statements; keep one blank line between them.
  return `${file.header}${writer.toString().replace(/\n{3,}/g, '\n\n')}`;
}

/** Whether the last character written, spaces aside, closes a block. */
function afterBlock(writer: CodeBlockWriter): boolean {
  return (
    writer.iterateLastCharCodes((code) => {
      if (code === 0x7d) return true;
      return /\s/.test(String.fromCharCode(code)) ? undefined : false;
    }) ?? false
  );
}

/** Statements one per line, a blank line after a block; a declaration starts after a blank line. */
function writeStatements(writer: CodeBlockWriter, statements: readonly GeneratedStatement[]): void {
  for (const statement of statements) {
    if (afterBlock(writer)) writer.blankLineIfLastNot();
    else if (!writer.isAtStartOfFirstLineOfBlock()) writer.newLineIfLastNot();
    if (typeof statement === 'string') writer.write(statement);
    else if (typeof statement === 'function') statement(writer);
    else {
      if (!writer.isAtStartOfFirstLineOfBlock()) writer.blankLineIfLastNot();
      writer.closeComment();
      if (statement.kind === 'class') writeClass(writer, statement);
      else writeModule(writer, statement);
    }
  }
}

function writeDocs(writer: CodeBlockWriter, docs: readonly string[]): void {
  for (const doc of docs) writer.write('/**').space().write(doc).spaceIfLastNot().write('*/').newLine();
}

function writeClass(writer: CodeBlockWriter, structure: ClassText): void {
  writeDocs(writer, structure.docs);
  writer.write('export ').write('class').space().write(structure.name).space();
  writer.write(`extends ${structure.extends} `);
  writer.inlineBlock(() => {
    structure.properties?.forEach((property, i) => {
      writer.conditionalNewLine(i > 0);
      writer.closeComment();
      if (property.scope !== undefined) writer.write(`${property.scope} `);
      if (property.isReadonly) writer.write('readonly ');
      writer.write(property.name).spaceIfLastNot().write(`= ${property.initializer}`).write(';');
    });
    if (structure.methods.length > 0 && !writer.isAtStartOfFirstLineOfBlock()) writer.blankLine();
    structure.methods.forEach((method, i) => {
      if (i > 0) writer.blankLine();
      writer.closeComment();
      if (method.hasOverrideKeyword) writer.write('override ');
      if (method.isAsync) writer.write('async ');
      writer.write(method.name).write('(');
      writer.write(
        (method.parameters ?? [])
          .map((parameter) => `${parameter.name}${parameter.hasQuestionToken ? '?' : ''}: ${parameter.type}`)
          .join(', '),
      );
      writer.write(')').write(`: ${method.returnType}`);
      writer.spaceIfLastNot().inlineBlock(() => writeStatements(writer, method.statements));
    });
  });
}

function writeModule(writer: CodeBlockWriter, structure: ModuleText): void {
  writer.write('declare ').write(`module ${structure.name}`).write(' ');
  writer.inlineBlock(() => writeStatements(writer, structure.statements));
}
