/**
 * What only the workspace can show, checked over many definitions at once: two definitions with
 * the same `identity.slug` (Nx names each project by its slug), two with the same `identity.id`,
 * and composition pins that resolve to no definition and no registry snapshot. Each diagnostic is
 * located in its own file and names the other file by file:line:column. Pure: the caller reads
 * the files and lists what pins may resolve to (graph inference and `agentdef validate` share it).
 */
import { ERROR_CODES, sortDiagnostics, type Diagnostic, type Severity } from './diagnostic';
import { getAtPointer } from './json-pointer';
import type { SourceDocument } from './source-document';
import { pinKey, sortVersions } from './workspace-definitions';

/** One parsed definition: its document (for positions) and the file name diagnostics use. */
export interface CheckedDefinition {
  file: string;
  document: SourceDocument;
}

/** Where a version of a slug exists, besides the checked definitions: e.g. `registry registry/agents`. */
export interface KnownVersion {
  version: string;
  where: string;
}

export interface WorkspaceCheckOptions {
  /**
   * slug → versions that exist outside `definitions` (other workspace files, registry snapshots).
   * Absent: pins are not checked.
   */
  knownVersions?: ReadonlyMap<string, readonly KnownVersion[]>;
  /** How an unresolved pin is reported: a warning in `validate` (default), an error where it must resolve. */
  unresolvedPinSeverity?: Severity;
}

const stringAt = (document: SourceDocument, pointer: string): string | undefined => {
  const value = getAtPointer(document.value, pointer);
  return typeof value === 'string' ? value : undefined;
};

function located(definition: CheckedDefinition, pointer: string): string {
  const { line, column } = definition.document.locate(pointer);
  return `${definition.file}:${line}:${column}`;
}

function diagnostic(
  definition: CheckedDefinition,
  rule: string,
  severity: Severity,
  path: string,
  message: string,
  suggestion: string,
): Diagnostic {
  const { line, column } = definition.document.locate(path);
  return { code: ERROR_CODES.invalid, rule, severity, path, file: definition.file, line, column, message, suggestion };
}

/**
 * Every definition after the first with the same value at `pointer` gets an error naming the first
 * (and the first gets one naming the second), so both files show the problem.
 */
function duplicates(
  definitions: readonly CheckedDefinition[],
  pointer: string,
  rule: string,
  what: string,
  why: string,
): Diagnostic[] {
  const byValue = new Map<string, CheckedDefinition[]>();
  for (const definition of definitions) {
    const value = stringAt(definition.document, pointer);
    if (value === undefined) continue;
    byValue.set(value, [...(byValue.get(value) ?? []), definition]);
  }
  const out: Diagnostic[] = [];
  for (const [value, holders] of byValue) {
    if (holders.length < 2) continue;
    holders.forEach((holder, index) => {
      const others = holders.filter((_, i) => i !== index).map((other) => located(other, pointer));
      out.push(
        diagnostic(
          holder,
          rule,
          'error',
          pointer,
          `${what} ${JSON.stringify(value)} is also declared by ${others.join(', ')}; ${why}`,
          `change \`${pointer}\` in ${[located(holder, pointer), ...others].join(' or ')}`,
        ),
      );
    });
  }
  return out;
}

interface Pin {
  slug: string;
  version: string;
}

function pinsOf(document: SourceDocument): Pin[] {
  const nodes = getAtPointer(document.value, '/composition/nodes');
  if (!Array.isArray(nodes)) return [];
  return nodes
    .map((node) => ({ slug: getAtPointer(node, '/slug'), version: getAtPointer(node, '/version') }))
    .map((p) => (typeof p.slug === 'string' && typeof p.version === 'string' ? (p as Pin) : { slug: '', version: '' }));
}

function unresolvedPins(
  definitions: readonly CheckedDefinition[],
  known: ReadonlyMap<string, readonly KnownVersion[]>,
  severity: Severity,
): Diagnostic[] {
  const where = new Map<string, Map<string, string[]>>();
  const add = (slug: string, version: string, place: string) => {
    const versions = where.get(slug) ?? new Map<string, string[]>();
    versions.set(version, [...(versions.get(version) ?? []), place]);
    where.set(slug, versions);
  };
  for (const definition of definitions) {
    const slug = stringAt(definition.document, '/identity/slug');
    const version = stringAt(definition.document, '/identity/versionSemver');
    if (slug !== undefined && version !== undefined) add(slug, version, `workspace ${definition.file}`);
  }
  for (const [slug, versions] of known) for (const { version, where: place } of versions) add(slug, version, place);

  const out: Diagnostic[] = [];
  for (const definition of definitions) {
    pinsOf(definition.document).forEach((pin, index) => {
      if (pin.slug === '' || where.get(pin.slug)?.has(pin.version)) return;
      const versions = where.get(pin.slug) ?? new Map<string, string[]>();
      const existing = sortVersions(versions.keys());
      const listed = existing.map((v) => `${v} (${[...new Set(versions.get(v))].join(', ')})`).join('; ');
      const latest = existing[existing.length - 1];
      out.push(
        diagnostic(
          definition,
          'unresolved-pin',
          severity,
          `/composition/nodes/${index}/version`,
          `pin "${pinKey(pin.slug, pin.version)}" resolves to nothing: neither the workspace nor the registry has ${pin.slug} at exactly ${pin.version}${listed ? `; versions that exist: ${listed}` : `; no version of ${pin.slug} exists`}`,
          latest !== undefined
            ? `pin a version that exists (e.g. "${pinKey(pin.slug, latest)}"), or add ${pinKey(pin.slug, pin.version)} to the workspace or the registry; \`plan\` and \`compile\` fail until it resolves`
            : `create ${pin.slug} (\`nx g agentdef:agent ${pin.slug}\`) or publish it to the registry; \`plan\` and \`compile\` fail until it resolves`,
        ),
      );
    });
  }
  return out;
}

/** The workspace-wide diagnostics of `definitions`, sorted. */
export function checkWorkspaceDefinitions(
  definitions: readonly CheckedDefinition[],
  options: WorkspaceCheckOptions = {},
): Diagnostic[] {
  const found = [
    ...duplicates(
      definitions,
      '/identity/slug',
      'duplicate-slug',
      'identity.slug',
      'each definition becomes an Nx project named by its slug, so two definitions cannot share one',
    ),
    ...duplicates(
      definitions,
      '/identity/id',
      'duplicate-id',
      'identity.id',
      'an agent id names exactly one agent (receipts, cards and registrations carry it)',
    ),
    ...(options.knownVersions
      ? unresolvedPins(definitions, options.knownVersions, options.unresolvedPinSeverity ?? 'warning')
      : []),
  ];
  return sortDiagnostics(found);
}
