/**
 * What graph inference's summary readers share (read-agent-summary.ts, read-application-summary.ts):
 * parsing a file's text leniently (a BOM dropped, a parser failure is "not parsed", never a throw)
 * and reading one own data field or one well-formed word out of an untrusted value, so that
 * inference never runs a getter and never trusts a shape it did not check.
 */
import { type DefinitionFormat, parseDefinitionText } from '../definition/parse-document';
import type { SourceDocument } from '../definition/source-document';

/** Loose on purpose: enough to be a tag or a version key; the validator judges the rest. */
export const WORD = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,127}$/;

/** An own data property of a plain object; undefined for anything else (no getter runs). */
export function field(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const descriptor = Object.getOwnPropertyDescriptor(value, key);
  return descriptor && 'value' in descriptor ? descriptor.value : undefined;
}

/** `value` when it is a string matching `pattern`. */
export function word(value: unknown, pattern: RegExp = WORD): string | undefined {
  return typeof value === 'string' && pattern.test(value) ? value : undefined;
}

/** The parsed document of `text`, or undefined when it does not parse. */
export function parseForSummary(text: string, file: string, format: DefinitionFormat): SourceDocument | undefined {
  try {
    return parseDefinitionText(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, file, format).document;
  } catch {
    return undefined;
  }
}
