/**
 * `text-classify` (tool `classify_text` of the text-classify example): tells source code from
 * prose by how many non-empty lines look like code (statement endings, braces, declarations,
 * arrows, comments). Returns the kind with the text, so the next agent of a pipeline gets both.
 */
import { stringArg, type ToolArgs } from './tool-context';

export interface Classification {
  kind: 'code' | 'prose';
  /** The share of non-empty lines that look like code, 0..1, two decimals. */
  codeLineShare: number;
  lines: number;
  text: string;
}

const CODE_LINE = [
  /[;{}]\s*$/,
  /^\s*(?:import|export|const|let|var|function|class|interface|type|def|return|if|for|while|switch|case|package|public|private|fn|use|#include)\b/,
  /=>|::|->/,
  /^\s*(?:\/\/|#(?!#)|\/\*|\*)/,
  /^\s*[A-Za-z_$][\w$.]*\s*\(.*\)\s*;?\s*$/,
];

export function classify(text: string): Classification {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  const codeLines = lines.filter((l) => CODE_LINE.some((re) => re.test(l))).length;
  const share = lines.length === 0 ? 0 : codeLines / lines.length;
  return { kind: share >= 0.5 ? 'code' : 'prose', codeLineShare: Math.round(share * 100) / 100, lines: lines.length, text };
}

export function classifyText(args: ToolArgs): Classification {
  return classify(stringArg(args, 'text', { maxLength: 1_000_000 }));
}
