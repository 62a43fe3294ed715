/**
 * `agentdef application digest <file> [--check]`: the placeholder flow of an application
 * manifest's `source.sha256`. It computes the source digest and writes it in place of the 64
 * characters there (every other byte of the file unchanged, written atomically with the file's
 * mode kept, never through a link); `--check` writes nothing and exits 1 when the stored digest is stale. A thin shell
 * around `sealManifestText`.
 */
import { resolve } from 'node:path';
import { sealManifestText } from '../../application/seal-manifest';
import { formatDiagnostics } from '../../definition/format-diagnostics';
import { definitionFormat } from '../../definition/parse-document';
import { readDefinitionSource } from '../../definition/read-source';
import { rewriteInPlace } from '../../definition/rewrite-source';
import { EXIT, type CliIo } from '../io';
import { APPLICATION } from '../specs/application';
import { parseCommand, usageError } from '../usage';

const DIGEST = APPLICATION.subcommands.digest;

export async function runApplicationDigestCommand(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(io, DIGEST, argv);
  if (typeof parsed === 'number') return parsed;
  const [file, ...rest] = parsed.positionals;
  if (file === undefined || rest.length > 0) return usageError(io, 'name exactly one manifest file', DIGEST);
  const format = definitionFormat(file);
  if (!format) return usageError(io, `${file} is not a .json, .yaml or .yml file`, DIGEST);

  const absolute = resolve(io.cwd, file);
  const source = readDefinitionSource(absolute, file);
  if (source.ioError !== undefined) {
    io.stderr(`error: ${source.ioError}\n`);
    return EXIT.usage;
  }
  if (source.text === undefined) {
    io.stdout(formatDiagnostics(source.diagnostics, { format: 'text', sources: new Map() }));
    return EXIT.invalid;
  }
  const sealed = sealManifestText(source.text, file, format);
  if (!sealed.ok) {
    io.stdout(formatDiagnostics(sealed.diagnostics, { format: 'text', sources: new Map([[file, source.text]]) }));
    return EXIT.invalid;
  }
  if (!sealed.changed) {
    io.stdout(`${file}: source.sha256 ${sealed.sha256} is up to date\n`);
    return EXIT.ok;
  }
  if (parsed.values.check) {
    io.stdout(
      `${file}: source.sha256 is stale; the digest is ${sealed.sha256} (run agentdef application digest ${file} to write it)\n`,
    );
    return EXIT.invalid;
  }
  // Only the regular file itself, only while it holds what was read, through a temp file this
  // call creates (rewrite-source.ts): never through a link, never removing a file it did not create.
  const written = rewriteInPlace(absolute, file, source.text, sealed.text);
  if (!written.ok) {
    io.stderr(`error: ${written.error}; the file is unchanged\n`);
    return EXIT.usage;
  }
  io.stdout(`${file}: wrote source.sha256 ${sealed.sha256}\n`);
  return EXIT.ok;
}
