/**
 * The placeholder flow of `source.sha256`: a manifest is written with 64 zeros (or a stale digest)
 * there, and `sealManifestText` computes `digestApplicationManifestSource` and puts it in place of
 * exactly those 64 characters, so every other byte of the file (comments, order, spacing, YAML
 * style) stays as the author wrote it (a plain YAML scalar is written quoted: 64 zeros unquoted
 * read as a number, and so could a digest of digits and one `e`). Anything it cannot do safely is a located diagnostic: a text
 * that does not parse, a manifest that cannot be digested, a `source.sha256` that is missing or is
 * not 64 lowercase hex characters (the file is then left to its author).
 */
import type { Diagnostic } from '../definition/diagnostic';
import { ERROR_CODES } from '../definition/diagnostic';
import { parseDefinitionText } from '../definition/parse-document';
import type { DefinitionFormat } from '../definition/parse-document';
import { digestApplicationManifestSource, SHA256_HEX, SOURCE_DIGEST_POINTER } from './source-digest';
import { offsetOfPosition } from '../definition/read-source';

export type SealResult =
  | { ok: true; text: string; sha256: string; changed: boolean }
  | { ok: false; diagnostics: Diagnostic[] };

/** The placeholder a new manifest carries in `source.sha256`. */
export const SOURCE_DIGEST_PLACEHOLDER = '0'.repeat(64);

export function sealManifestText(text: string, file: string, format: DefinitionFormat): SealResult {
  const parsed = parseDefinitionText(text, file, format);
  const document = parsed.document;
  if (!document || parsed.diagnostics.some((d) => d.severity === 'error'))
    return { ok: false, diagnostics: parsed.diagnostics };
  const problem = (message: string, pointer = SOURCE_DIGEST_POINTER): SealResult => {
    const at = document.locate(pointer);
    return {
      ok: false,
      diagnostics: [
        {
          code: ERROR_CODES.applicationInvalid,
          rule: 'source-digest',
          severity: 'error',
          file,
          path: pointer,
          line: at.line,
          column: at.column,
          message,
          suggestion: `set source.sha256 to the placeholder "${SOURCE_DIGEST_PLACEHOLDER}" (64 zeros), then run agentdef application digest ${file} again`,
        },
      ],
    };
  };
  // The stored value is read from the text: in YAML a plain 64-digit placeholder parses as a number.
  const at = document.locate(SOURCE_DIGEST_POINTER);
  const start = offsetOfPosition(text, at.line, at.column);
  const quote = text[start] === '"' || text[start] === "'" ? text[start] : '';
  const begin = start + quote.length;
  const current = text.slice(begin, begin + 64);
  const after = text[begin + 64];
  const closed = quote !== '' ? after === quote : after === undefined || /[\s#,}\]]/.test(after);
  const source = (document.value as { source?: { sha256?: unknown } } | null)?.source;
  const present = source !== null && typeof source === 'object' && Object.hasOwn(source, 'sha256');
  if (!present || start < 0 || !SHA256_HEX.test(current) || !closed)
    return problem(
      'source.sha256 must hold 64 lowercase hex characters (the placeholder or a previous digest) to be replaced',
    );
  const digest = digestApplicationManifestSource(document.value);
  if (!digest.ok) return problem(`the manifest has no canonical form: ${digest.reason}`, digest.pointer);
  // Up to date only when the digest is also read back as a string (not a plain YAML number).
  if (digest.sha256 === current && typeof (source as { sha256?: unknown }).sha256 === 'string')
    return { ok: true, text, sha256: current, changed: false };
  // A plain YAML scalar is written quoted, so the digest is always read back as a string.
  const written = quote === '' && format === 'yaml' ? `"${digest.sha256}"` : digest.sha256;
  return {
    ok: true,
    text: `${text.slice(0, begin)}${written}${text.slice(begin + 64)}`,
    sha256: digest.sha256,
    changed: true,
  };
}
