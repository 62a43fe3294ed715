/**
 * The help line of the parse-stage diagnostics (syntax, duplicate keys, nesting, number range,
 * several YAML documents): every other diagnostic says what to do, and these do too. Added where
 * a parser left none; messages stay the parsers' own. Pure.
 */
import type { Diagnostic } from './diagnostic';
import type { DefinitionFormat } from './parse-document';

const SYNTAX_HELP: Record<DefinitionFormat, string> = {
  json: 'fix the JSON at the caret: names and strings in double quotes, a comma between members, no trailing comma, no comments; then run `agentdef validate` again',
  yaml: 'fix the YAML at the caret: indent this line like its siblings, one `key: value` per line, and quote a value that contains `: ` or ` #` or starts with `{`, `[`, `*`, `&`, `!`, `%` or `@`; then run `agentdef validate` again',
};

const RULE_HELP: Record<string, string> = {
  'duplicate-key': 'keep one of the two keys and delete the other (a definition must say each field once)',
  'nesting-depth': 'flatten the nesting: move deep values into their own fields',
  'number-range': 'write a number a double can hold, or a string if the value is an identifier',
  'multiple-documents': 'delete the `---` line and what follows it, or move the second document into its own file',
};

/** The help for a parse diagnostic of `rule` in a `format` file, or undefined when there is none. */
export function parseHelp(rule: string, format: DefinitionFormat): string | undefined {
  return rule === 'syntax' ? SYNTAX_HELP[format] : RULE_HELP[rule];
}

/** `diagnostics` with a help line on each that has none and whose rule has one. */
export function withParseHelp(diagnostics: readonly Diagnostic[], format: DefinitionFormat): Diagnostic[] {
  return diagnostics.map((d) => {
    if (d.suggestion !== undefined) return d;
    const help = parseHelp(d.rule, format);
    return help === undefined ? d : { ...d, suggestion: help };
  });
}
