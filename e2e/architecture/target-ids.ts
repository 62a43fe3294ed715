/**
 * Where production code spells a target id: every string literal, template part and JSON string
 * whose text holds one of the ids as a word of its own (`hb3`, not `hb3-job.json` or
 * `hb3.agentdef.dev`). Read by target-ids.test.ts: outside plugin/targets/ and generated files
 * there must be none, so a target is named in its own folder and everything else derives from
 * the table.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

export interface IdHit {
  file: string;
  line: number;
  id: string;
  text: string;
}

function wordPattern(ids: readonly string[]): RegExp {
  const escaped = ids.map((id) => id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`(?<![\\w.-])(${escaped.join('|')})(?![\\w-]|\\.[\\w])`, 'g');
}

/** The string tokens of a TypeScript file (literals and template parts), with their lines. */
function stringTokens(fileName: string, text: string): Array<{ line: number; text: string }> {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const out: Array<{ line: number; text: string }> = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      // An import's specifier names a file, not a target.
      if (
        !(
          ts.isImportDeclaration(node.parent) ||
          ts.isExportDeclaration(node.parent) ||
          ts.isExternalModuleReference(node.parent) ||
          (ts.isCallExpression(node.parent) &&
            (node.parent.expression.kind === ts.SyntaxKind.ImportKeyword ||
              (ts.isIdentifier(node.parent.expression) && node.parent.expression.text === 'require'))) ||
          (ts.isLiteralTypeNode(node.parent) && ts.isImportTypeNode(node.parent.parent))
        )
      ) {
        out.push({ line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, text: node.text });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** The JSON strings of a file, with their lines (keys and values). */
function jsonStrings(text: string): Array<{ line: number; text: string }> {
  const out: Array<{ line: number; text: string }> = [];
  const re = /"((?:[^"\\]|\\.)*)"/g;
  for (const match of text.matchAll(re)) {
    out.push({ line: text.slice(0, match.index).split('\n').length, text: JSON.parse(`"${match[1]}"`) as string });
  }
  return out;
}

/** Every target id the files spell as a word of a string. `files` are relative to `root`. */
export function targetIdHits(root: string, files: readonly string[], ids: readonly string[]): IdHit[] {
  const pattern = wordPattern(ids);
  const hits: IdHit[] = [];
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    const tokens = file.endsWith('.json') ? jsonStrings(text) : stringTokens(file, text);
    for (const token of tokens) {
      for (const match of token.text.matchAll(pattern))
        hits.push({ file, line: token.line, id: match[1]!, text: token.text });
    }
  }
  return hits;
}
