/**
 * Validation of an `agentdef.application-manifest/v1`, with diagnostics located like an agent
 * definition's (file:line:column, JSON Pointer, a suggestion), in JSON and YAML:
 *
 *   decode → parse (with positions) → JSON Schema + control fields (any depth) + literal secrets
 *          → source URI, source digest, unique identities → graph rules (graph-rules.ts).
 *
 * - The JSON Schema is plugin/schema/application-manifest.v1.schema.json, compiled by Ajv 2020
 *   once, on first use.
 * - Control fields (control-fields.ts) are refused by name at any depth of the envelope, in
 *   members the schema does not declare and everything below them; the schema's own members
 *   (`source.uri`, say) are exempt at their declared place only. A node's `config` is not entered:
 *   its fields belong to the component's closed schema, and the catalog checks a built-in
 *   component's config with `controlFieldFindings` (exported here).
 * - `source.sha256` must equal `digestApplicationManifestSource` of the manifest; a manifest
 *   assembled with a placeholder (64 zeros) is told the digest to write, and the command that
 *   writes it (`agentdef application digest <file>`).
 * - Given the active catalog and adapter-policy digests, a manifest authored against other ones is
 *   stale (`stale-digest`): the caller accepts a new catalog explicitly, never by default.
 * - Nodes (by id), edges (by both ends), entrypoints (by node and port) and outputs (by name, and by
 *   node and port) are unordered identity collections: a repeated identity is an error.
 *
 * Pure: no file system, no console, and it never throws on bad input.
 */
import { ERROR_CODES, hasErrors, sortDiagnostics, type Diagnostic, type Finding } from '../definition/diagnostic';
import { getAtPointer, joinPointer } from '../definition/json-pointer';
import { parseDefinitionText, type DefinitionFormat } from '../definition/parse-document';
import { decodeSource } from '../definition/read-source';
import { secretFindings, secretKinds } from '../definition/rules/secrets';
import { misspelledRequiredFields, schemaErrorToFinding, type SchemaSubject } from '../definition/schema-diagnostics';
import type { SourceDocument } from '../definition/source-document';
import { locateFinding } from '../definition/validate-definition';
import { schemaValidator } from './schema-validator';
import schema from '../schema/application-manifest.v1.schema.json';
import type { ApplicationManifest, PortRef } from '../schema/generated/application-manifest.types';
import { controlFieldKind } from './control-fields';
import { type ComponentCatalogView, graphFindings } from './graph-rules';
import { digestApplicationManifestSource } from './source-digest';
import { checkSourceUri } from './source-uri';
import { stableApplicationJson } from './stable-json';

export { APPLICATION_MANIFEST_SCHEMA_VERSION } from '../definition/workspace-definitions';

/** The invocation tuple every manifest carries, spelled exactly so. */
export const APPLICATION_INVOCATION =
  '/application.compose #application-composition @application-manifest @component-catalog @integration-profile @runtime-proof';

/** The placeholder a manifest is assembled with before its digest is written in. */
export const SOURCE_DIGEST_PLACEHOLDER = '0'.repeat(64);

export interface ApplicationManifestResult {
  /** Present when the document passed the JSON Schema (later checks may still report errors). */
  manifest?: ApplicationManifest;
  document?: SourceDocument;
  diagnostics: Diagnostic[];
  valid: boolean;
}

export interface ApplicationManifestOptions {
  /** With a catalog view, the port-level graph rules run too (components, ports, kinds, producers). */
  catalog?: ComponentCatalogView;
  /** The active catalog and adapter-policy digests: a manifest authored against other ones is stale. */
  activeDigests?: { catalogDigest: string; adapterPolicyDigest: string };
}

const SUBJECT: SchemaSubject = { schema, documentName: 'the application manifest' };
const DOCUMENT_NAME = 'an application manifest';

function withCode(finding: Finding): Finding {
  return { ...finding, code: ERROR_CODES.applicationInvalid };
}

/**
 * JSON Schema findings, one per place and message, and the misspelled keys that stand for missing
 * required members (pointer of the key → the member's name): a misspelling is one mistake, one
 * finding at the key.
 */
function schemaFindings(value: unknown): { findings: Finding[]; misspelled: ReadonlyMap<string, string> } {
  const validate = schemaValidator(schema);
  if (validate(value)) return { findings: [], misspelled: new Map() };
  const findings: Finding[] = [];
  const seen = new Set<string>();
  const errors = validate.errors ?? [];
  const misspelled = misspelledRequiredFields(errors, value, SUBJECT);
  for (const error of errors) {
    let finding = schemaErrorToFinding(error, value, SUBJECT, misspelled);
    if (finding === undefined) continue;
    if (error.keyword === 'const' && error.instancePath === '/invocation')
      finding = {
        ...finding,
        message: '`/invocation` must be the exact invocation tuple of application composition',
        suggestion: `set it to ${JSON.stringify(APPLICATION_INVOCATION)}`,
      };
    const key = `${finding.path}\u0000${finding.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    findings.push(withCode(finding));
  }
  const keys = new Map<string, string>();
  for (const [at, key] of misspelled) {
    const [objectPath, member] = at.split('\u0000') as [string, string];
    keys.set(joinPointer(objectPath, key), member);
  }
  return { findings, misspelled: keys };
}

// ---------------------------------------------------------------------------------------------
// Control fields

type SchemaNode = { [key: string]: unknown };

const DEFINITIONS = (schema as { $defs: Record<string, SchemaNode> }).$defs;
const CONFIG_SCHEMA = DEFINITIONS['ComponentConfig'];

function resolve(node: unknown): SchemaNode | undefined {
  if (node === null || typeof node !== 'object') return undefined;
  const ref = (node as SchemaNode)['$ref'];
  if (typeof ref === 'string' && ref.startsWith('#/$defs/')) return DEFINITIONS[ref.slice('#/$defs/'.length)];
  return node as SchemaNode;
}

/** The schema of a declared member `key` of an object whose schema is `node`, or undefined. */
function declaredMember(node: SchemaNode | undefined, key: string): SchemaNode | undefined {
  const properties = node?.['properties'];
  if (properties === null || typeof properties !== 'object' || !Object.hasOwn(properties, key)) return undefined;
  return resolve((properties as Record<string, unknown>)[key]);
}

function ownData(container: object, key: string): unknown {
  const descriptor = Object.getOwnPropertyDescriptor(container, key);
  return descriptor !== undefined && 'value' in descriptor ? descriptor.value : undefined;
}

function quoteName(name: string): string {
  const text = JSON.stringify(name);
  return text.length > 62 ? `${text.slice(0, 58)}..."` : text;
}

const CONTROL_SUGGESTION =
  'remove it: behaviour and authority (code, packages, callbacks, commands, transports, providers, endpoints, headers, environments, credentials, approvals, MCP objects, adapters) stay with the host and its reviewed adapters, never in manifest data';

/**
 * Control-field findings for every property name in `value`, at any depth. `schemaNode` exempts the
 * members a closed schema declares at their declared places; `undefined` exempts nothing (what the
 * catalog uses for a built-in component's `config`). A name that looks like a credential itself is
 * reported at its parent, without the name. Iterative (any depth), visits each object once, reads
 * own data properties only, never throws.
 */
function walkControlFields(
  value: unknown,
  pointer: string,
  schemaNode: SchemaNode | undefined,
  where: string,
  misspelled: ReadonlyMap<string, string> = new Map(),
): Finding[] {
  const findings: Finding[] = [];
  const seen = new WeakSet<object>();
  const stack: { value: unknown; pointer: string; schema: SchemaNode | undefined }[] = [
    { value, pointer, schema: schemaNode },
  ];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const current = frame.value;
    if (current === null || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    if (frame.schema !== undefined && frame.schema === CONFIG_SCHEMA) continue;
    let keys: string[];
    try {
      keys = Object.keys(current);
    } catch {
      continue;
    }
    if (Array.isArray(current)) {
      const items = resolve(frame.schema?.['items']);
      for (const key of keys)
        if (/^(?:0|[1-9][0-9]*)$/.test(key))
          stack.push({ value: ownData(current, key), pointer: joinPointer(frame.pointer, Number(key)), schema: items });
      continue;
    }
    for (const key of keys.reverse()) {
      const member = joinPointer(frame.pointer, key);
      // A misspelled member (reported as such by the schema) is walked as the member it stands for.
      const standsFor = misspelled.get(member);
      const declared = declaredMember(frame.schema, standsFor ?? key);
      if (declared === undefined) {
        const kind = controlFieldKind(key);
        if (kind !== undefined) {
          const secret = secretKinds(key).length > 0;
          findings.push({
            code: ERROR_CODES.applicationInvalid,
            rule: 'control-field',
            path: secret ? frame.pointer : member,
            ...(secret ? { redactSource: true } : { at: 'key' as const }),
            message: secret
              ? `a property name inside ${frame.pointer === '' ? DOCUMENT_NAME : `\`${frame.pointer}\``} is a control field (${kind}) and looks like a credential (the name is not shown): ${where} carries no control fields`
              : `${quoteName(key)} is a control field (${kind}): ${where} carries no control fields, at any depth`,
            suggestion: CONTROL_SUGGESTION,
          });
        }
      }
      stack.push({ value: ownData(current, key), pointer: member, schema: declared });
    }
  }
  return findings;
}

/**
 * Every control field in `value` at any depth, located under `pointer`: what a built-in
 * component's schema refuses in its `config` (the catalog calls this with `/nodes/<i>/config`).
 */
export function controlFieldFindings(
  value: unknown,
  pointer = '',
  where = 'a built-in component configuration',
): Finding[] {
  return walkControlFields(value, pointer, undefined, where);
}

/**
 * Control fields of the envelope: everywhere but inside a node's `config` and the schema's own
 * members (`misspelled`: keys that stand for a member, walked as that member).
 */
export function envelopeControlFieldFindings(document: unknown, misspelled?: ReadonlyMap<string, string>): Finding[] {
  return walkControlFields(document, '', schema as SchemaNode, DOCUMENT_NAME, misspelled);
}

// ---------------------------------------------------------------------------------------------
// Source, digest and identities

function sourceFindings(manifest: ApplicationManifest): Finding[] {
  const findings: Finding[] = [];
  const uri = checkSourceUri(manifest.source.uri);
  if (!uri.ok) {
    findings.push({
      code: ERROR_CODES.applicationInvalid,
      rule: 'source-uri',
      path: '/source/uri',
      message: `\`/source/uri\` is not a source URI: ${uri.reason}`,
      suggestion:
        'use an inert local identity: workspace:/SEG(/SEG)*, kgdoc:SEG(/SEG)* or urn:agentdef:SEG(:SEG)*, with SEG = [a-z0-9]+(?:[._-][a-z0-9]+)*',
    });
  }
  const digest = digestApplicationManifestSource(manifest);
  if (!digest.ok) {
    findings.push({
      code: ERROR_CODES.applicationInvalid,
      rule: 'source-digest',
      path: digest.pointer,
      message: `the manifest has no canonical JSON form, so no source digest: ${digest.reason}`,
    });
  } else if (digest.sha256 !== manifest.source.sha256) {
    findings.push({
      code: ERROR_CODES.applicationInvalid,
      rule: 'source-digest',
      path: '/source/sha256',
      message:
        manifest.source.sha256 === SOURCE_DIGEST_PLACEHOLDER
          ? `\`/source/sha256\` is still the placeholder; the digest of this manifest is ${digest.sha256}`
          : `\`/source/sha256\` is not the digest of this manifest (stale or edited): the SHA-256 of its canonical JSON without \`source.sha256\` is ${digest.sha256}`,
      suggestion:
        'run `agentdef application digest <file>` to write it in (assemble a new manifest with 64 zeros as a placeholder, then digest it)',
    });
  }
  return findings;
}

/** A manifest authored against another catalog or adapter policy than the active one is stale: never silently re-bound. */
function activeDigestFindings(
  manifest: ApplicationManifest,
  active: NonNullable<ApplicationManifestOptions['activeDigests']>,
): Finding[] {
  const findings: Finding[] = [];
  for (const [member, what] of [
    ['catalogDigest', 'component catalog'],
    ['adapterPolicyDigest', 'adapter policy'],
  ] as const) {
    if (manifest[member] === active[member]) continue;
    findings.push({
      code: ERROR_CODES.applicationInvalid,
      rule: 'stale-digest',
      path: `/${member}`,
      message: `\`/${member}\` names another ${what} than the active one (${active[member]}); a manifest is never re-bound to a new ${what} implicitly`,
      suggestion: `review the changes reported by \`agentdef.application.catalog\`, then set \`${member}\` to the active digest, re-digest the manifest and plan again`,
    });
  }
  return findings;
}

const ref = (r: PortRef): string => `${r.node}.${r.port}`;

/** A finding for every member whose identity an earlier member of the same collection already has. */
function repeated<T>(
  items: readonly T[],
  identity: (item: T) => string,
  finding: (item: T, index: number, first: number) => Finding,
): Finding[] {
  const first = new Map<string, number>();
  const findings: Finding[] = [];
  items.forEach((item, index) => {
    const key = identity(item);
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, index);
    else findings.push(finding(item, index, earlier));
  });
  return findings;
}

function uniqueIdentityFindings(manifest: ApplicationManifest): Finding[] {
  const f = (rule: string, path: string, message: string, suggestion: string): Finding => ({
    code: ERROR_CODES.applicationInvalid,
    rule,
    path,
    message,
    suggestion,
  });
  return [
    ...repeated(
      manifest.nodes,
      (node) => node.id,
      (node, i, j) =>
        f(
          'duplicate-node',
          `/nodes/${i}/id`,
          `node id \`${node.id}\` is already declared at /nodes/${j}; node ids are unique`,
          'rename one of the nodes, or remove the repeat',
        ),
    ),
    ...repeated(
      manifest.edges,
      (edge) => JSON.stringify([edge.from.node, edge.from.port, edge.to.node, edge.to.port]),
      (edge, i, j) =>
        f(
          'duplicate-edge',
          `/edges/${i}`,
          `the edge ${ref(edge.from)} → ${ref(edge.to)} is already declared at /edges/${j}; edges are a set`,
          'remove the repeat',
        ),
    ),
    ...repeated(
      manifest.entrypoints,
      (entry) => JSON.stringify([entry.node, entry.port]),
      (entry, i, j) =>
        f(
          'duplicate-entrypoint',
          `/entrypoints/${i}`,
          `the entrypoint ${ref(entry)} is already declared at /entrypoints/${j}; entrypoints are a set`,
          'remove the repeat',
        ),
    ),
    ...repeated(
      manifest.outputs,
      (output) => output.name,
      (output, i, j) =>
        f(
          'duplicate-output',
          `/outputs/${i}/name`,
          `the output name \`${output.name}\` is already used at /outputs/${j}; output names are unique`,
          'rename one of the outputs, or remove the repeat',
        ),
    ),
    ...repeated(
      manifest.outputs,
      (output) => JSON.stringify([output.node, output.port]),
      (output, i, j) =>
        f(
          'duplicate-output',
          `/outputs/${i}`,
          `the port ${ref(output)} is already returned at /outputs/${j}; each port is returned once`,
          'remove one of the two outputs',
        ),
    ),
  ];
}

// ---------------------------------------------------------------------------------------------
// Keeping secrets out of the other rules' messages

const SECRET_NOT_SHOWN = '(a value that looks like a secret, not shown)';

/**
 * The strings of `value` (values and property names) that look like secrets, plus every value the
 * secrets rule reported: the texts no diagnostic may quote.
 */
function secretTexts(value: unknown, secretReports: readonly Finding[]): string[] {
  const found = new Set<string>();
  for (const report of secretReports) {
    const at = getAtPointer(value, report.path);
    if (typeof at === 'string' && at.length > 0) found.add(at);
  }
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      if (secretKinds(next).length > 0) found.add(next);
    } else if (next !== null && typeof next === 'object') {
      for (const [key, member] of Object.entries(next)) {
        if (secretKinds(key).length > 0) found.add(key);
        pending.push(member);
      }
    }
  }
  // Longest first, so a secret that holds another is replaced whole.
  return [...found].sort((a, b) => b.length - a.length);
}

/**
 * A manifest holding a literal secret is refused by the secrets rule, which never shows the value;
 * the other rules quote names (a port, a node id, an output name) and must not show it either.
 * Their messages and suggestions get a placeholder in its place, and every diagnostic on a line
 * that a secret report hides hides that line too (printers echo source lines).
 */
function withoutSecrets(findings: Finding[], value: unknown, secretReports: readonly Finding[]): Finding[] {
  if (secretReports.length === 0) return findings;
  const secrets = secretTexts(value, secretReports);
  const scrub = (text: string): string =>
    secrets.reduce((out, secret) => (out.includes(secret) ? out.split(secret).join(SECRET_NOT_SHOWN) : out), text);
  return findings.map((finding) => {
    if (secretReports.includes(finding)) return finding;
    const message = scrub(finding.message);
    const suggestion = finding.suggestion === undefined ? undefined : scrub(finding.suggestion);
    if (message === finding.message && suggestion === finding.suggestion) return finding;
    return { ...finding, message, ...(suggestion !== undefined ? { suggestion } : {}), redactSource: true };
  });
}

/** Every diagnostic on a line whose source a diagnostic hides hides it too. */
function hideSecretLines(diagnostics: Diagnostic[]): Diagnostic[] {
  const hidden = new Set(diagnostics.filter((d) => d.redactSource).map((d) => `${d.file}\u0000${d.line}`));
  if (hidden.size === 0) return diagnostics;
  return diagnostics.map((d) =>
    d.redactSource || !hidden.has(`${d.file}\u0000${d.line}`) ? d : { ...d, redactSource: true },
  );
}

// ---------------------------------------------------------------------------------------------
// The pipeline

/** Validates an already parsed manifest document. */
export function validateApplicationManifest(
  document: SourceDocument,
  options: ApplicationManifestOptions = {},
): ApplicationManifestResult {
  const value = document.value;
  const schemaResult = schemaFindings(value);
  const controls = envelopeControlFieldFindings(value, schemaResult.misspelled);
  const controlled = new Set(controls.map((finding) => finding.path));
  // A control field the schema also calls unknown is reported once, as a control field.
  const schemaProblems = schemaResult.findings.filter(
    (finding) => !(finding.at === 'key' && controlled.has(finding.path)),
  );
  const secretReports = secretFindings(value, DOCUMENT_NAME).map(withCode);
  const early = [...schemaProblems, ...controls, ...secretReports];
  if (schemaProblems.length > 0) {
    const located = withoutSecrets(early, value, secretReports).map((finding) => locateFinding(document, finding));
    return { document, diagnostics: sortDiagnostics(hideSecretLines(located)), valid: false };
  }
  const manifest = value as ApplicationManifest;
  const findings = withoutSecrets(
    [
      ...early,
      ...sourceFindings(manifest),
      ...(options.activeDigests ? activeDigestFindings(manifest, options.activeDigests) : []),
      ...uniqueIdentityFindings(manifest),
      ...graphFindings(manifest, options.catalog),
    ],
    value,
    secretReports,
  );
  const diagnostics = sortDiagnostics(hideSecretLines(findings.map((finding) => locateFinding(document, finding))));
  return { manifest, document, diagnostics, valid: !hasErrors(diagnostics) };
}

/** Parse-layer diagnostics, named for a manifest rather than an agent definition. */
function asManifestDiagnostic(diagnostic: Diagnostic): Diagnostic {
  const message =
    diagnostic.rule === 'not-an-object'
      ? diagnostic.message.replace(/^an AgentDefinition must be an object/, 'an application manifest must be an object')
      : diagnostic.message;
  return { ...diagnostic, code: ERROR_CODES.applicationInvalid, message };
}

/** Validates the text (or UTF-8 bytes) of one manifest file named `file`. */
export function validateApplicationManifestText(
  source: string | Uint8Array,
  file: string,
  format: DefinitionFormat,
  options: ApplicationManifestOptions = {},
): ApplicationManifestResult {
  let text: string;
  if (typeof source === 'string') {
    text = source;
  } else {
    const decoded = decodeSource(source, file);
    if (decoded.text === undefined) return { diagnostics: decoded.diagnostics.map(asManifestDiagnostic), valid: false };
    text = decoded.text;
  }
  const parsed = parseDefinitionText(text, file, format);
  if (!parsed.document || hasErrors(parsed.diagnostics))
    return { diagnostics: parsed.diagnostics.map(asManifestDiagnostic), valid: false };
  return validateApplicationManifest(parsed.document, options);
}

/**
 * Validates a manifest given as a value (an MCP argument, say). It must be plain JSON data
 * (stable-json.ts; nothing of it runs, no getter, no `toJSON`); it is then validated as its
 * canonical JSON, pretty-printed with two spaces, so lines and columns point into that text.
 */
export function validateApplicationManifestValue(
  value: unknown,
  file = 'manifest.json',
  options: ApplicationManifestOptions = {},
): ApplicationManifestResult {
  const canonical = stableApplicationJson(value);
  if (!canonical.ok) {
    return {
      diagnostics: [
        {
          code: ERROR_CODES.applicationInvalid,
          rule: 'not-json',
          severity: 'error',
          path: canonical.pointer,
          file,
          line: 1,
          column: 1,
          message: `the manifest is not plain JSON data: ${canonical.reason}`,
          suggestion: 'pass JSON values only',
        },
      ],
      valid: false,
    };
  }
  return validateApplicationManifestText(JSON.stringify(JSON.parse(canonical.text), null, 2), file, 'json', options);
}
