/**
 * One generated TypeScript file as text: its path, its header comment and its statements (text,
 * code-writer functions and ts-morph class or module structures), printed in one pass by ts-morph's
 * structure printer (`printStructure`). No `SourceFile` is made: inserting statements into one
 * re-parses the file with the TypeScript compiler, which cost most of a Worker's source generation.
 * The text is what inserting the same statements into an empty `SourceFile` gives (the same
 * statement printer, code writer and settings: two-space indentation, double quotes, `\n`).
 */
import type {
  ClassDeclarationStructure,
  ModuleDeclarationStructure,
  StatementStructures,
  WriterFunction,
} from 'ts-morph';
import { tsMorph } from './ts-morph-module';

export type GeneratedStatement = string | WriterFunction | ClassDeclarationStructure | ModuleDeclarationStructure;

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
  const { printStructure, StructureKind } = tsMorph();
  const body = printStructure(
    {
      kind: StructureKind.SourceFile,
      statements: file.statements as (string | WriterFunction | StatementStructures)[],
    },
    { indentNumberOfSpaces: 2, newLine: '\n', useSingleQuote: false },
  );
  // Statement writers and the statement printer both separate statements; keep one blank line between them.
  return `${file.header}${body.replace(/\n{3,}/g, '\n\n')}`;
}
