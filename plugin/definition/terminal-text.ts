/**
 * Text that reaches a terminal: every character that could drive the terminal instead of being
 * shown is written as a visible `\uXXXX` escape. That is the C0 controls (tab and newline kept
 * where a caller allows line breaks; carriage return never, it rewrites the line), DEL, the C1
 * controls, the Unicode line and paragraph separators, the bidi embedding, override and isolate
 * controls (U+202A-U+202E, U+2066-U+2069: "Trojan Source" text that reorders what is shown) and
 * unpaired UTF-16 surrogates. A value can then neither retitle the terminal, erase a line, hide
 * text nor reorder it. The escape is JSON's own, so JSON output stays valid JSON with the same
 * value after escaping. Pure, never throws.
 */

/** DEL, C1, line and paragraph separators, bidi embeddings, overrides and isolates (regex class body). */
export const BEYOND_C0 = '\\u007f-\\u009f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069';

/** Characters with no business in an identifier, a version or a model id (nor raw on a terminal). */
export const CONTROL_CHARACTER = new RegExp(`[\\u0000-\\u001f${BEYOND_C0}]`);

const SURROGATE = '[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]';
const UNSAFE = new RegExp(`[\\u0000-\\u0008\\u000b-\\u001f${BEYOND_C0}]|${SURROGATE}`, 'g');
const UNSAFE_ON_ONE_LINE = new RegExp(`[\\u0000-\\u001f${BEYOND_C0}]|${SURROGATE}`, 'g');

/** `\u001b` for ESC: the JSON and JavaScript spelling, readable and inert. */
function visible(character: string): string {
  return `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** `text` safe to print: dangerous characters escaped; newlines and tabs kept (output spans lines). */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, visible);
}

/** `text` safe to print on one line: as {@link terminalSafe}, with tabs and newlines escaped too. */
export function terminalSafeLine(text: string): string {
  return text.replace(UNSAFE_ON_ONE_LINE, visible);
}

/** The index of the first character {@link CONTROL_CHARACTER} matches, or -1. */
export function controlCharacterIndex(text: string): number {
  const match = CONTROL_CHARACTER.exec(text);
  return match ? match.index : -1;
}

/** How a character is named in messages, e.g. `U+001B`. */
export function codePointName(text: string, index: number): string {
  return `U+${text.charCodeAt(index).toString(16).toUpperCase().padStart(4, '0')}`;
}
