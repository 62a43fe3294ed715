/**
 * A TypeScript file's text with every comment taken out (JSDoc included) and everything else kept
 * byte for byte, so a test that looks for a token in code is not satisfied by a comment that
 * merely mentions it. Parsed with the TypeScript compiler, so `//` and `/*` inside strings,
 * templates and regular expressions stay code.
 */
import ts from 'typescript';

export function codeWithoutComments(fileName: string, text: string): string {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  let out = '';
  let at = 0;
  const keep = (end: number) => {
    // Between tokens there is only whitespace and comments: drop the comments.
    let cursor = at;
    // Comments on the previous token's line are its trailing ones; those after a newline, leading.
    const ranges = [...(ts.getTrailingCommentRanges(text, at) ?? []), ...(ts.getLeadingCommentRanges(text, at) ?? [])];
    for (const range of ranges.sort((a, b) => a.pos - b.pos)) {
      if (range.pos < cursor) continue;
      out += text.slice(cursor, range.pos);
      cursor = range.end;
    }
    out += text.slice(cursor, end);
    at = end;
  };
  const visit = (node: ts.Node) => {
    if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) return;
    const children = node.getChildren(source);
    if (children.length === 0) {
      keep(node.getStart(source, false));
      keep(node.end);
      return;
    }
    for (const child of children) visit(child);
  };
  visit(source);
  keep(text.length);
  return out;
}
