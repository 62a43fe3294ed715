/**
 * The component catalog and its digests.
 *
 * - Per component: `definitionDigest`, the digest (stable-json.ts) of that component's normalised
 *   definition only, so adding, changing or reordering a sibling never moves it.
 * - `catalogDigest`: binds the catalog's whole membership — every component's id, revision and
 *   definition digest, and every admitted pack with its source digest (`packs`, empty until pack
 *   admission exists). Any member's change moves it.
 * - `adapterPolicyDigest`: binds the `catalogDigest` plus every adapter descriptor (component
 *   id/revision, modes, side effect, replay class, owner) and every owner selection (built-in or
 *   host-injected).
 *
 * Members are sorted (code-unit order of id, then revision) before anything is digested, so input
 * order never matters. `catalogView` gives the graph rules exact id/revision lookup, and
 * `catalogToolResult` is the public, read-only projection `agentdef.application.catalog` returns:
 * plain JSON (authoring schemas, interface/capability/owner/execution evidence, digests), nothing
 * private. `componentConfigFindings` checks one node's `config` against its component's closed
 * schema and for control fields. Pure; bad definitions give findings, never a throw.
 */
import type { Finding } from '../definition/diagnostic';
import { type BuiltinComponentDefinition, builtinComponents } from './builtin-components';
import type { ComponentCatalogView, ComponentPorts } from './graph-rules';
import { controlFieldFindings } from './manifest-validate';
import { type CompiledPackConfigSchema, checkPackConfigSchema, compilePackConfigSchema } from './pack-schema-dialect';
import { digestApplicationJson, type JsonValue, readApplicationJson } from './stable-json';

export const CATALOG_SCHEMA_VERSION = 'agentdef.component-catalog/v1';
export const ADAPTER_POLICY_SCHEMA_VERSION = 'agentdef.adapter-policy/v1';
export const CATALOG_TOOL_RESULT_VERSION = 'agentdef.application-catalog/v1';

export interface CatalogComponent {
  readonly definition: BuiltinComponentDefinition;
  readonly definitionDigest: string;
}

/** A pack admitted into the catalog: reserved for pack admission; the built-in catalog has none. */
export interface CatalogPack {
  readonly id: string;
  readonly revision: string;
  readonly sourceDigest: string;
}

export interface ComponentCatalog {
  readonly components: readonly CatalogComponent[];
  readonly packs: readonly CatalogPack[];
  readonly catalogDigest: string;
  readonly adapterPolicyDigest: string;
}

export type CatalogResult =
  | { readonly ok: true; readonly catalog: ComponentCatalog }
  | { readonly ok: false; readonly findings: Finding[] };

const RULE = 'component-catalog';

function codeUnitOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const byIdentity = <T extends { id: string; revision: string }>(a: T, b: T): number =>
  codeUnitOrder(a.id, b.id) || codeUnitOrder(a.revision, b.revision);

/**
 * The catalog of `definitions` (and admitted `packs`): each definition read as plain JSON, its
 * configuration schema checked against the pack dialect, identities unique, and every digest
 * computed. Findings are located by the definition's index in `definitions`.
 */
export function catalogFromDefinitions(
  definitions: readonly unknown[],
  packs: readonly CatalogPack[] = [],
): CatalogResult {
  const findings: Finding[] = [];
  const read: { definition: BuiltinComponentDefinition; definitionDigest: string; index: number }[] = [];
  const seen = new Map<string, number>();
  definitions.forEach((candidate, index) => {
    const plain = readApplicationJson(candidate);
    if (!plain.ok) {
      findings.push({
        rule: RULE,
        path: `/${index}${plain.pointer}`,
        message: `the component definition is not plain JSON data: ${plain.reason}`,
      });
      return;
    }
    const definition = plain.value as unknown as BuiltinComponentDefinition;
    if (
      definition === null ||
      typeof definition !== 'object' ||
      typeof definition.id !== 'string' ||
      typeof definition.revision !== 'string'
    ) {
      findings.push({
        rule: RULE,
        path: `/${index}`,
        message: 'a component definition has a string `id` and `revision`',
      });
      return;
    }
    findings.push(...checkPackConfigSchema(definition.configSchema, `/${index}/configSchema`));
    const key = JSON.stringify([definition.id, definition.revision]);
    const first = seen.get(key);
    if (first !== undefined) {
      findings.push({
        rule: RULE,
        path: `/${index}`,
        message: `component \`${definition.id}@${definition.revision}\` is already defined at /${first}; each exact revision is defined once`,
      });
      return;
    }
    seen.set(key, index);
    const digest = digestApplicationJson(plain.value);
    if (!digest.ok) {
      findings.push({
        rule: RULE,
        path: `/${index}${digest.pointer}`,
        message: `the component definition has no digest: ${digest.reason}`,
      });
      return;
    }
    read.push({ definition, definitionDigest: digest.sha256, index });
  });
  if (findings.length > 0) return { ok: false, findings };

  const components = read
    .map(({ definition, definitionDigest }) => ({ definition, definitionDigest }))
    .sort((a, b) => byIdentity(a.definition, b.definition));
  const sortedPacks = [...packs]
    .map((p) => ({ id: p.id, revision: p.revision, sourceDigest: p.sourceDigest }))
    .sort(byIdentity);

  const catalogDigest = digestApplicationJson(catalogDigestInput(components, sortedPacks));
  if (!catalogDigest.ok)
    return {
      ok: false,
      findings: [
        { rule: RULE, path: catalogDigest.pointer, message: `the catalog has no digest: ${catalogDigest.reason}` },
      ],
    };
  const policyDigest = digestApplicationJson(adapterPolicyDigestInput(catalogDigest.sha256, components));
  if (!policyDigest.ok)
    return {
      ok: false,
      findings: [
        { rule: RULE, path: policyDigest.pointer, message: `the adapter policy has no digest: ${policyDigest.reason}` },
      ],
    };
  return {
    ok: true,
    catalog: deepFreeze({
      components,
      packs: sortedPacks,
      catalogDigest: catalogDigest.sha256,
      adapterPolicyDigest: policyDigest.sha256,
    }),
  };
}

/** What `catalogDigest` is the digest of: every member's identity and definition digest, and every pack's source digest. */
export function catalogDigestInput(components: readonly CatalogComponent[], packs: readonly CatalogPack[]): JsonValue {
  return {
    schemaVersion: CATALOG_SCHEMA_VERSION,
    components: components.map(({ definition, definitionDigest }) => ({
      id: definition.id,
      revision: definition.revision,
      definitionDigest,
    })),
    packs: packs.map((p) => ({ id: p.id, revision: p.revision, sourceDigest: p.sourceDigest })),
  };
}

/** The execution evidence of one component: what its adapter declares. */
function executionEvidence(definition: BuiltinComponentDefinition): JsonValue {
  return {
    interface: definition.interface,
    capability: definition.capability,
    modes: [...definition.modes],
    sideEffect: definition.sideEffect,
    replay: definition.replay,
    owner: definition.owner.name,
  };
}

/** What `adapterPolicyDigest` is the digest of: the catalog digest, every adapter descriptor and every owner selection. */
export function adapterPolicyDigestInput(catalogDigest: string, components: readonly CatalogComponent[]): JsonValue {
  return {
    schemaVersion: ADAPTER_POLICY_SCHEMA_VERSION,
    catalogDigest,
    descriptors: components.map(({ definition }) => ({
      component: { id: definition.id, revision: definition.revision },
      ...(executionEvidence(definition) as Record<string, JsonValue>),
    })),
    ownerSelections: components.map(({ definition }) => ({
      component: { id: definition.id, revision: definition.revision },
      owner: definition.owner.name,
      selection: definition.owner.selection,
    })),
  };
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const member of Object.values(value)) deepFreeze(member);
    Object.freeze(value);
  }
  return value;
}

/** The built-in catalog: the five v1 components, no packs. */
export function builtinCatalog(): ComponentCatalog {
  const result = catalogFromDefinitions(builtinComponents());
  // The built-ins are constant data checked by catalog.test.ts; a failure here is a build defect, not bad input.
  if (!result.ok)
    throw new Error(
      `the built-in catalog is invalid: ${result.findings.map((f) => `${f.path}: ${f.message}`).join('; ')}`,
    );
  return result.catalog;
}

/** Exact lookup of a component's ports by id and revision, for `graphFindings`: no range, no `latest`, no nearest revision. */
export function catalogView(catalog: ComponentCatalog): ComponentCatalogView {
  const ports = new Map<string, ComponentPorts>();
  for (const { definition } of catalog.components) {
    const inputs: ComponentPorts['inputs'] = Object.create(null);
    const outputs: ComponentPorts['outputs'] = Object.create(null);
    for (const [name, port] of Object.entries(definition.ports.inputs))
      inputs[name] = { kind: port.kind, required: port.required };
    for (const [name, port] of Object.entries(definition.ports.outputs)) outputs[name] = { kind: port.kind };
    ports.set(JSON.stringify([definition.id, definition.revision]), deepFreeze({ inputs, outputs }));
  }
  return {
    lookup: (id, revision) =>
      typeof id === 'string' && typeof revision === 'string' ? ports.get(JSON.stringify([id, revision])) : undefined,
  };
}

/**
 * One opaque integration record: an owner the catalog's components delegate to, whether it gives
 * evidence now, and only the digest of that evidence (never the evidence, its messages or settings).
 */
export interface IntegrationRecord {
  readonly owner: string;
  readonly selection: 'builtin' | 'host-injected';
  /** `id@revision` of the components it owns, sorted. */
  readonly components: readonly string[];
  readonly available: boolean;
  readonly evidenceDigest: string | null;
}

/** The public, read-only projection `agentdef.application.catalog` returns: plain JSON, nothing private. */
export function catalogToolResult(
  catalog: ComponentCatalog,
  integrations: readonly IntegrationRecord[] = [],
): JsonValue {
  return {
    schemaVersion: CATALOG_TOOL_RESULT_VERSION,
    catalogDigest: catalog.catalogDigest,
    adapterPolicyDigest: catalog.adapterPolicyDigest,
    components: catalog.components.map(({ definition, definitionDigest }) => ({
      id: definition.id,
      revision: definition.revision,
      title: definition.title,
      description: definition.description,
      definitionDigest,
      evidence: executionEvidence(definition),
      ownerSelection: definition.owner.selection,
      ports: structuredClone(definition.ports) as unknown as JsonValue,
      configSchema: structuredClone(definition.configSchema) as JsonValue,
    })),
    packs: catalog.packs.map((p) => ({ id: p.id, revision: p.revision, sourceDigest: p.sourceDigest })),
    integrations: [...integrations]
      .sort((a, b) => codeUnitOrder(a.owner, b.owner))
      .map((i) => ({
        owner: i.owner,
        selection: i.selection,
        components: [...i.components].sort(codeUnitOrder),
        available: i.available,
        evidenceDigest: i.evidenceDigest,
      })),
  };
}

const compiledConfigs = new WeakMap<ComponentCatalog, Map<string, CompiledPackConfigSchema>>();

/**
 * Every way `config` breaks the closed configuration schema of component `id@revision`, plus every
 * control field in it at any depth, located under `pointer` (the planner passes `/nodes/<i>/config`).
 * A component the catalog does not hold gives one finding. Never throws.
 */
export function componentConfigFindings(
  catalog: ComponentCatalog,
  id: string,
  revision: string,
  config: unknown,
  pointer = '',
): Finding[] {
  const component = catalog.components.find((c) => c.definition.id === id && c.definition.revision === revision);
  if (component === undefined)
    return [
      { rule: RULE, path: pointer, message: `the catalog holds no component \`${String(id)}@${String(revision)}\`` },
    ];
  let byComponent = compiledConfigs.get(catalog);
  if (byComponent === undefined) {
    byComponent = new Map();
    compiledConfigs.set(catalog, byComponent);
  }
  const key = JSON.stringify([id, revision]);
  let compiled = byComponent.get(key);
  if (compiled === undefined) {
    compiled = compilePackConfigSchema(component.definition.configSchema);
    byComponent.set(key, compiled);
  }
  // Only a plain-JSON copy is ever validated: no getter, proxy trap or toJSON of the caller's value runs.
  const plain = readApplicationJson(config);
  if (!plain.ok)
    return [
      {
        rule: RULE,
        path: `${pointer}${plain.pointer}`,
        message: `the configuration is not plain JSON data: ${plain.reason}`,
      },
    ];
  const controls = controlFieldFindings(plain.value, pointer, `the configuration of \`${id}@${revision}\``);
  if (!compiled.ok) return [...compiled.findings, ...controls];
  // A control field the schema also calls unknown is reported once, as a control field.
  const controlled = new Set(controls.map((f) => f.path));
  const located = compiled
    .validate(plain.value)
    .map((f) => ({ ...f, path: `${pointer}${f.path}` }))
    .filter((f) => !(f.at === 'key' && controlled.has(f.path)));
  return [...controls, ...located];
}
