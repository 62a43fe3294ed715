/**
 * Validates application manifest files as `agentdef validate` does for definitions: each file read
 * (a bounded regular file, read-source.ts) and checked by the manifest validation
 * (manifest-validate.ts: schema, control fields, secrets, source digest, identities, graph rules),
 * without a catalog (`agentdef application plan` checks a manifest against one). Returns the same
 * shape as validate-files.ts; prints nothing, never throws.
 */
import { hasErrors } from '../definition/diagnostic';
import { definitionFormat } from '../definition/parse-document';
import { readDefinitionSource } from '../definition/read-source';
import type { DefinitionFile, ValidateFilesResult } from '../definition/validate-files';
import { validateApplicationManifestText } from './manifest-validate';

export function validateManifestFiles(files: readonly DefinitionFile[]): ValidateFilesResult {
  const result: ValidateFilesResult = {
    files: [],
    diagnostics: [],
    sources: new Map(),
    ioErrors: [],
    checked: 0,
    invalid: 0,
    errors: 0,
    warnings: 0,
  };
  for (const { absolutePath, file } of files) {
    const format = definitionFormat(file);
    const source = format ? readDefinitionSource(absolutePath, file) : undefined;
    const ioError = format
      ? source?.ioError
      : `${file}: not an application manifest file (expected .json, .yaml or .yml)`;
    if (ioError !== undefined || source === undefined || format === undefined) {
      const message = ioError ?? `cannot read ${file}`;
      result.files.push({ file, valid: false, diagnostics: [], ioError: message });
      result.ioErrors.push(message);
      continue;
    }
    const checked =
      source.text === undefined
        ? { diagnostics: source.diagnostics, valid: false }
        : validateApplicationManifestText(source.text, file, format);
    if (source.text !== undefined) result.sources.set(file, source.text);
    const valid = checked.valid && !hasErrors(checked.diagnostics);
    result.files.push({ file, valid, diagnostics: checked.diagnostics });
    result.diagnostics.push(...checked.diagnostics);
    result.checked++;
    if (!valid) result.invalid++;
  }
  result.errors = result.diagnostics.filter((d) => d.severity === 'error').length;
  result.warnings = result.diagnostics.length - result.errors;
  return result;
}
