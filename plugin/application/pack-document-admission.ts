/**
 * Admission of one component pack document: everything that can be said about a pack on its own,
 * before packs are compared with each other and with the host's adapters.
 *
 *   plain JSON (readApplicationJson: no getter, Proxy or toJSON runs) → a JSON object
 *     → limits: at most 16 components, at most 256 KiB of canonical JSON (checked first, so an
 *       oversized pack is not inspected further)
 *     → the JSON Schema (plugin/schema/component-pack.v1.schema.json, Ajv 2020, compiled once on
 *       first use): exactly `schemaVersion`, `id`, `revision`, `source`, `components`, and each
 *       component a full definition in the shape of a built-in one
 *     → control fields at any depth outside each `configSchema` (the schema's own members exempt
 *       at their declared places only: `source.uri` is the source, a port named `uri` is not)
 *     → literal secrets anywhere
 *     → `source.uri` (source-uri.ts) and `source.sha256` (= digestComponentPackSource, the right
 *       value is told when it is stale)
 *     → each `configSchema`: checkPackConfigSchema, and only when it conforms, an Ajv compile.
 *
 * Findings are located under the pack's pointer in the registry options (`/packs/<i>/…`). It also
 * reports what the pack claims (component identities, valid or not) so bindings for a refused pack
 * are not reported a second time as unknown. Pure; never throws.
 */
import type { Finding } from '../definition/diagnostic';
import { parsePointer } from '../definition/json-pointer';
import { highEntropyBlob, secretFindings, secretKinds } from '../definition/rules/secrets';
import { type SchemaSubject, schemaErrorToFinding } from '../definition/schema-diagnostics';
import { schemaValidator } from './schema-validator';
import schema from '../schema/component-pack.v1.schema.json';
import type { BuiltinComponentDefinition } from './builtin-components';
import { controlFieldFindings } from './manifest-validate';
import { packBytesFinding, packComponentCountFinding } from './pack-admission-limits';
import { checkPackConfigSchema, compilePackConfigSchema } from './pack-schema-dialect';
import { digestComponentPackSource } from './source-digest';
import { checkSourceUri } from './source-uri';
import { canonicalText, type JsonValue, readApplicationJson } from './stable-json';

export const COMPONENT_PACK_SCHEMA_VERSION = 'agentdef.component-pack/v1';

/** Findings about a pack's envelope, its JSON form and its identity. */
export const COMPONENT_PACK_RULE = 'component-pack';
/** Findings of the pack's JSON Schema. */
export const COMPONENT_PACK_SCHEMA_RULE = 'component-pack-schema';
/** Findings about `source.uri` and `source.sha256`. */
export const COMPONENT_PACK_SOURCE_RULE = 'component-pack-source';

/** The grammars of ids and revisions (the schema's), for quoting only values that passed them. */
export const COMPONENT_ID_PATTERN = new RegExp(schema.$defs.ComponentId.pattern);
export const SEMVER_PATTERN = new RegExp(schema.$defs.Semver.pattern, 'u');

/** Whether `id` and `revision` follow the component-id and exact-semver grammars of the schema. */
export function isWellFormedIdentity(id: string, revision: string): boolean {
  return COMPONENT_ID_PATTERN.test(id) && id.length <= 128 && SEMVER_PATTERN.test(revision) && revision.length <= 128;
}

/**
 * Whether `id@revision` may be quoted in a message: well-formed, and neither looks like a
 * credential (the id grammar admits `ghp_…`-shaped tokens and long hex strings).
 */
export function isQuotableIdentity(id: string, revision: string): boolean {
  return (
    isWellFormedIdentity(id, revision) &&
    [id, revision].every((text) => secretKinds(text).length === 0 && highEntropyBlob(text) === undefined)
  );
}

/** One component a pack claims: its identity, where it is, and its definition when that is well-formed. */
export interface PackComponentClaim {
  readonly id: string;
  readonly revision: string;
  readonly pointer: string;
  /** The normalised definition, when the component passed the JSON Schema. */
  readonly definition?: BuiltinComponentDefinition;
}

export interface AdmittedPackDocument {
  readonly id: string;
  readonly revision: string;
  readonly sourceDigest: string;
  /** The components, normalised (plain JSON, keys in code-unit order), in pack order. */
  readonly components: readonly { readonly definition: BuiltinComponentDefinition; readonly pointer: string }[];
}

export interface PackDocumentAdmission {
  readonly findings: Finding[];
  /** Present when the pack has no finding at all. */
  readonly pack?: AdmittedPackDocument;
  /** The pack's id and revision, when both follow their grammars (for one-revision-per-id); only quoted when isQuotableIdentity. */
  readonly identity?: { readonly id: string; readonly revision: string };
  /** Every component with a string id and revision, valid or not. */
  readonly claims: readonly PackComponentClaim[];
  /** How many components the pack lists (0 when `components` is not an array). */
  readonly componentCount: number;
}

const SUBJECT: SchemaSubject = { schema, documentName: 'the component pack' };
const WHERE = 'a component pack';

type JsonObject = { [key: string]: JsonValue };

function isObject(value: JsonValue | undefined): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function member(value: JsonValue | undefined, key: string): JsonValue | undefined {
  return isObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
}

// ---------------------------------------------------------------------------------------------
// JSON Schema

const PORT_MAP = /\/ports\/(?:inputs|outputs)$/;

/** JSON Schema findings, located under `pointer`, one per place and message. */
function schemaFindings(pack: JsonValue, pointer: string): Finding[] {
  const validate = schemaValidator(schema);
  if (validate(pack)) return [];
  const findings: Finding[] = [];
  const seen = new Set<string>();
  for (const error of validate.errors ?? []) {
    let finding = schemaErrorToFinding(error, pack, SUBJECT);
    if (finding === undefined) continue;
    if (
      error.keyword === 'additionalProperties' &&
      PORT_MAP.test(error.instancePath) &&
      finding.redactSource !== true
    ) {
      finding = {
        ...finding,
        message: `${JSON.stringify(String(error.params['additionalProperty']))} is not a port name: ${schema.$defs.PortName['x-message']}`,
        suggestion: 'rename the port (for example `text`, `summary`, `word-count`)',
      };
    }
    const located = { ...finding, rule: COMPONENT_PACK_SCHEMA_RULE, path: `${pointer}${finding.path}` };
    const key = `${located.path}\u0000${located.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    findings.push(located);
  }
  return findings;
}

// ---------------------------------------------------------------------------------------------
// Control fields

type SchemaNode = { readonly [key: string]: unknown };
const DEFINITIONS = schema.$defs as unknown as Readonly<Record<string, SchemaNode>>;

function resolve(node: unknown): SchemaNode | undefined {
  if (node === null || typeof node !== 'object') return undefined;
  const ref = (node as SchemaNode)['$ref'];
  if (typeof ref === 'string' && ref.startsWith('#/$defs/')) return DEFINITIONS[ref.slice('#/$defs/'.length)];
  return node as SchemaNode;
}

function declaredProperty(node: SchemaNode | undefined, key: string): SchemaNode | undefined {
  const properties = node?.['properties'];
  if (properties === null || typeof properties !== 'object' || !Object.hasOwn(properties, key)) return undefined;
  return resolve((properties as Record<string, unknown>)[key]);
}

/** The schema of a member of a `patternProperties` map (a port), when `key` matches one of its patterns. */
function patternMember(node: SchemaNode | undefined, key: string): SchemaNode | undefined {
  const patterns = node?.['patternProperties'];
  if (patterns === null || typeof patterns !== 'object') return undefined;
  for (const [pattern, child] of Object.entries(patterns as Record<string, unknown>))
    if (new RegExp(pattern, 'u').test(key)) return resolve(child);
  return undefined;
}

/** Whether `tokens` (relative to the pack) name a member the pack schema declares, at its declared place. */
function isDeclaredPlace(tokens: readonly string[]): boolean {
  let node: SchemaNode | undefined = schema as unknown as SchemaNode;
  for (const [index, token] of tokens.entries()) {
    const last = index === tokens.length - 1;
    if (last) return declaredProperty(node, token) !== undefined;
    node =
      declaredProperty(node, token) ??
      (/^(?:0|[1-9][0-9]*)$/.test(token) ? resolve(node?.['items']) : undefined) ??
      patternMember(node, token);
    if (node === undefined) return false;
  }
  return false;
}

const CONTROL_SUGGESTION =
  'remove it: a pack is data only; behaviour and authority (code, packages, callbacks, commands, transports, providers, endpoints, headers, environments, credentials, approvals, MCP objects, adapters) stay with the host and the adapters it reviewed';

/** Control fields at any depth outside each component's `configSchema` (the dialect checks that part). */
function packControlFieldFindings(pack: JsonObject, pointer: string): Finding[] {
  const components = member(pack, 'components');
  const envelope: JsonObject = Object.assign(Object.create(null), pack);
  if (Array.isArray(components)) {
    envelope['components'] = components.map((component) => {
      if (!isObject(component)) return component;
      const copy: JsonObject = Object.assign(Object.create(null), component);
      delete copy['configSchema'];
      return copy;
    });
  }
  return controlFieldFindings(envelope, '', WHERE)
    .filter((finding) => !(finding.at === 'key' && isDeclaredPlace(parsePointer(finding.path))))
    .map(({ code: _manifestCode, ...finding }) => ({
      ...finding,
      path: `${pointer}${finding.path}`,
      suggestion: CONTROL_SUGGESTION,
    }));
}

// ---------------------------------------------------------------------------------------------
// Source

const SOURCE_URI_SUGGESTION =
  'use an inert local identity: workspace:/SEG(/SEG)*, kgdoc:SEG(/SEG)* or urn:agentdef:SEG(:SEG)*, with SEG = [a-z0-9]+(?:[._-][a-z0-9]+)*';

function sourceUriFinding(uri: JsonValue | undefined, pointer: string): Finding | undefined {
  if (typeof uri !== 'string') return undefined; // the schema reports it
  const check = checkSourceUri(uri);
  if (check.ok) return undefined;
  if (secretKinds(uri).length > 0 || highEntropyBlob(uri) !== undefined) {
    // The reason would quote an excerpt of the URI: not even that of a credential-shaped one.
    return {
      rule: COMPONENT_PACK_SOURCE_RULE,
      path: `${pointer}/source/uri`,
      redactSource: true,
      message: '`source.uri` is not a source URI, and it looks like it holds a credential (the value is not shown)',
      suggestion: `${SOURCE_URI_SUGGESTION}; and rotate the credential`,
    };
  }
  return {
    rule: COMPONENT_PACK_SOURCE_RULE,
    path: `${pointer}/source/uri`,
    message: `\`source.uri\` is not a source URI: ${check.reason}`,
    suggestion: SOURCE_URI_SUGGESTION,
  };
}

function sourceDigestFinding(pack: JsonObject, pointer: string): Finding | undefined {
  const written = member(member(pack, 'source'), 'sha256');
  const digest = digestComponentPackSource(pack);
  if (!digest.ok)
    return {
      rule: COMPONENT_PACK_SOURCE_RULE,
      path: `${pointer}${digest.pointer}`,
      message: `the pack has no source digest: ${digest.reason}`,
    };
  if (digest.sha256 === written) return undefined;
  return {
    rule: COMPONENT_PACK_SOURCE_RULE,
    path: `${pointer}/source/sha256`,
    message:
      written === '0'.repeat(64)
        ? `\`source.sha256\` is still the placeholder; the digest of this pack is ${digest.sha256}`
        : `\`source.sha256\` is not the digest of this pack (stale or edited): the SHA-256 of its canonical JSON without \`source.sha256\`, components ordered by id and revision, is ${digest.sha256}`,
    suggestion: `write ${digest.sha256} into \`source.sha256\` (digestComponentPackSource), after reviewing the change it records`,
  };
}

// ---------------------------------------------------------------------------------------------
// Configuration schemas

/** Canonical texts of configuration schemas Ajv already compiled (bounded): a restart re-admits the same packs cheaply. */
const COMPILED_SCHEMAS = new Set<string>();
const MAX_COMPILED_SCHEMAS = 512;

/** The dialect first; only a conforming schema is compiled, so Ajv never sees anything else. */
function configSchemaFindings(configSchema: JsonValue | undefined, pointer: string): Finding[] {
  if (!isObject(configSchema)) return []; // the schema reports a missing or non-object configSchema
  const dialect = checkPackConfigSchema(configSchema, pointer);
  if (dialect.length > 0) return dialect;
  const text = canonicalText(configSchema);
  if (text.ok && COMPILED_SCHEMAS.has(text.text)) return [];
  const compiledSchema = compilePackConfigSchema(configSchema, pointer);
  if (!compiledSchema.ok) return compiledSchema.findings;
  if (text.ok) {
    if (COMPILED_SCHEMAS.size >= MAX_COMPILED_SCHEMAS) COMPILED_SCHEMAS.clear();
    COMPILED_SCHEMAS.add(text.text);
  }
  return [];
}

// ---------------------------------------------------------------------------------------------
// The pipeline

/** A plain copy with `Object.prototype` objects and keys in code-unit order. */
function normalised(value: JsonValue): JsonValue {
  const text = canonicalText(value);
  return text.ok ? (JSON.parse(text.text) as JsonValue) : value;
}

/** Every component with a string id and revision, with its definition when `isValid` says it passed the schema. */
function claimsOf(
  components: JsonValue | undefined,
  pointer: string,
  isValid: (index: number) => boolean,
): PackComponentClaim[] {
  if (!Array.isArray(components)) return [];
  const claims: PackComponentClaim[] = [];
  components.forEach((component, index) => {
    const id = member(component, 'id');
    const revision = member(component, 'revision');
    if (typeof id !== 'string' || typeof revision !== 'string') return;
    const place = `${pointer}/components/${index}`;
    claims.push(
      isValid(index)
        ? { id, revision, pointer: place, definition: normalised(component) as unknown as BuiltinComponentDefinition }
        : { id, revision, pointer: place },
    );
  });
  return claims;
}

const NONE_VALID = (): boolean => false;

/** Whether no schema finding points into component `index` (or at the pack or its `components` as a whole). */
function passedSchema(findings: readonly Finding[], pointer: string): (index: number) => boolean {
  const prefix = `${pointer}/components/`;
  if (findings.some((finding) => finding.path === pointer || finding.path === `${pointer}/components`))
    return NONE_VALID;
  const invalid = new Set<string>();
  for (const finding of findings)
    if (finding.path.startsWith(prefix)) invalid.add(finding.path.slice(prefix.length).split('/')[0] as string);
  return (index) => !invalid.has(String(index));
}

/** Admits one pack, given as untrusted data, at `pointer` (`/packs/<i>`). */
export function admitPackDocument(value: unknown, pointer: string): PackDocumentAdmission {
  const read = readApplicationJson(value);
  if (!read.ok) {
    return {
      findings: [
        {
          rule: COMPONENT_PACK_RULE,
          path: `${pointer}${read.pointer}`,
          message: `the pack is not plain JSON data: ${read.reason}`,
          suggestion:
            'pass the pack as parsed JSON: plain objects, arrays, strings, finite numbers, booleans and null only',
        },
      ],
      claims: [],
      componentCount: 0,
    };
  }
  const pack = read.value;
  if (!isObject(pack))
    return {
      findings: [
        {
          rule: COMPONENT_PACK_RULE,
          path: pointer,
          message: 'a component pack must be a JSON object',
          suggestion: `start from {"schemaVersion": "${COMPONENT_PACK_SCHEMA_VERSION}", "id", "revision", "source", "components"}`,
        },
      ],
      claims: [],
      componentCount: 0,
    };

  const components = member(pack, 'components');
  const componentCount = Array.isArray(components) ? components.length : 0;
  const tooMany = packComponentCountFinding(componentCount, pointer);
  if (tooMany !== undefined)
    return { findings: [tooMany], claims: claimsOf(components, pointer, NONE_VALID), componentCount };
  const tooLarge = packBytesFinding(pack, pointer);
  if (tooLarge !== undefined)
    return { findings: [tooLarge], claims: claimsOf(components, pointer, NONE_VALID), componentCount };

  const controls = packControlFieldFindings(pack, pointer);
  const controlled = new Set(controls.map((finding) => finding.path));
  // A control field the schema also calls unknown is reported once, as a control field.
  const schemaProblems = schemaFindings(pack, pointer).filter(
    (finding) => !(finding.at === 'key' && controlled.has(finding.path)),
  );
  const secrets = secretFindings(pack, WHERE).map((finding) => ({ ...finding, path: `${pointer}${finding.path}` }));
  const findings: Finding[] = [...schemaProblems, ...controls, ...secrets];

  const uri = sourceUriFinding(member(member(pack, 'source'), 'uri'), pointer);
  if (uri !== undefined) findings.push(uri);
  if (schemaProblems.length === 0) {
    const digest = sourceDigestFinding(pack, pointer);
    if (digest !== undefined) findings.push(digest);
  }
  if (Array.isArray(components))
    components.forEach((component, index) =>
      findings.push(
        ...configSchemaFindings(member(component, 'configSchema'), `${pointer}/components/${index}/configSchema`),
      ),
    );

  const id = member(pack, 'id');
  const revision = member(pack, 'revision');
  const identity =
    typeof id === 'string' && typeof revision === 'string' && isWellFormedIdentity(id, revision)
      ? { id, revision }
      : undefined;
  const claims = claimsOf(components, pointer, passedSchema(schemaProblems, pointer));
  if (findings.length > 0 || identity === undefined || !Array.isArray(components))
    return { findings, ...(identity ? { identity } : {}), claims, componentCount };

  return {
    findings,
    identity,
    claims,
    componentCount,
    pack: {
      id: identity.id,
      revision: identity.revision,
      sourceDigest: member(member(pack, 'source'), 'sha256') as string,
      components: claims.map((claim) => ({
        definition: claim.definition as BuiltinComponentDefinition,
        pointer: claim.pointer,
      })),
    },
  };
}
