/**
 * `agentdef diff <old> <new> [--format text|json]`: every change between two AgentDefinition
 * files, classified by the semver policy (plugin/trust/definition-diff.ts), and whether the new
 * file's versionSemver is a big enough bump. Exit 0 when it is, 1 when it is not, 2 when a file
 * cannot be read or parsed, or has no exact versionSemver.
 */
import { resolve } from 'node:path';
import { formatDiagnostics } from '../../definition/format-diagnostics';
import { definitionFormat, parseDefinitionText } from '../../definition/parse-document';
import { readDefinitionSource } from '../../definition/read-source';
import { workspacePath } from '../../definition/workspace-path';
import { checkBump, type DefinitionChange, diffDefinitions } from '../../trust/definition-diff';
import { EXIT, type CliIo } from '../io';
import { DIFF } from '../specs/diff';
import { parseCommand, usageError } from '../usage';

type Loaded = { name: string; value: Record<string, unknown>; version: unknown } | { problem: string };

/** Reads and parses one definition file; a problem is a printable message. */
function loadDefinitionValue(cwd: string, given: string): Loaded {
  const absolute = resolve(cwd, given);
  const name = workspacePath(cwd, absolute);
  const format = definitionFormat(name);
  if (!format) return { problem: `${name}: not a definition file (expected .json, .yaml or .yml)` };
  const source = readDefinitionSource(absolute, name);
  if (source.ioError !== undefined) return { problem: source.ioError };
  if (source.text === undefined)
    return { problem: formatDiagnostics(source.diagnostics, { format: 'text', sources: new Map() }).trimEnd() };
  const parsed = parseDefinitionText(source.text, name, format);
  if (!parsed.document)
    return {
      problem: formatDiagnostics(parsed.diagnostics, {
        format: 'text',
        sources: new Map([[name, source.text]]),
      }).trimEnd(),
    };
  const value = parsed.document.value as Record<string, unknown>;
  const identity = value.identity;
  const version =
    typeof identity === 'object' && identity !== null ? (identity as Record<string, unknown>).versionSemver : undefined;
  return { name, value, version };
}

function changeLine(change: DefinitionChange): string {
  const where = change.in === 'old' ? `${change.pointer || '/'} (old)` : change.pointer || '/';
  return `  ${change.bump.padEnd(5)}  ${change.kind.padEnd(7)}  ${where}: ${change.reason}\n`;
}

export async function runDiffCommand(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(io, DIFF, argv);
  if (typeof parsed === 'number') return parsed;
  const { format } = parsed.values;
  if (parsed.positionals.length !== 2)
    return usageError(io, `name two definition files (old, then new), not ${parsed.positionals.length}`, DIFF);

  const before = loadDefinitionValue(io.cwd, parsed.positionals[0]!);
  const after = loadDefinitionValue(io.cwd, parsed.positionals[1]!);
  let unreadable = false;
  for (const loaded of [before, after]) {
    if ('problem' in loaded) {
      io.stderr(`error: ${loaded.problem}\n`);
      unreadable = true;
    }
  }
  if ('problem' in before || 'problem' in after || unreadable) return EXIT.usage;

  const changes = diffDefinitions(before.value, after.value);
  const check = checkBump(before.version, after.version, changes);
  if (!check.ok && check.cause === 'version') {
    io.stderr(`error: cannot check the bump: ${check.problem}\n`);
    return EXIT.usage;
  }

  if (format === 'json') {
    const report = {
      old: { file: before.name, version: before.version },
      new: { file: after.name, version: after.version },
      changes,
      required: check.required,
      actual: check.actual,
      ok: check.ok,
      ...(check.ok ? {} : { problem: check.problem, insufficient: check.insufficient }),
    };
    io.stdout(`${JSON.stringify(report, null, 2)}\n`);
    return check.ok ? EXIT.ok : EXIT.invalid;
  }

  const lines = [
    `${before.name} (${String(before.version)}) → ${after.name} (${String(after.version)}): ${changes.length} change${changes.length === 1 ? '' : 's'}\n`,
  ];
  for (const change of changes) lines.push(changeLine(change));
  lines.push(`required bump: ${check.required}; actual bump: ${check.actual}\n`);
  if (check.ok) {
    lines.push('ok: the new version is a big enough bump\n');
  } else {
    lines.push(`not enough: ${check.problem}; these changes require more:\n`);
    for (const change of check.insufficient) lines.push(changeLine(change));
  }
  io.stdout(lines.join(''));
  return check.ok ? EXIT.ok : EXIT.invalid;
}
