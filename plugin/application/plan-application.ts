/**
 * The planner: one manifest and one mode → `agentdef.application-plan/v1`, or located diagnostics.
 *
 *   validate the manifest (schema, control fields, source URI and digest, the active catalog and
 *   adapter-policy digests, identities, the typed graph) → per node: its exact component, closed
 *   configuration, adapter, declared mode, owner evidence and the adapter's own plan-time check
 *   → bounds → steps in dependency order (ties by node id) → the plan and its digest.
 *
 * The plan carries digests and public metadata only: the configuration of a node appears as its
 * digest, owner and node evidence as one digest per step, and no value a caller supplies at all.
 * Every unordered collection is sorted, so reordering a manifest never changes a plan. Nothing
 * here writes, dispatches or calls a model: registered agents are planned by the zero-call owner.
 */
import { ERROR_CODES, hasErrors, sortDiagnostics, type Diagnostic, type Finding } from '../definition/diagnostic';
import type { SourceDocument } from '../definition/source-document';
import { locateFinding } from '../definition/validate-definition';
import type { ApplicationManifest } from '../schema/generated/application-manifest.types';
import type { ApplicationPlan, PlannedInput, PlannedStep } from '../schema/generated/application-plan.types';
import type { ExecutionMode } from './builtin-components';
import { type ComponentCatalog, catalogView, componentConfigFindings } from './catalog';
import { type ComponentAdapter, identityKey, type OwnerResolver } from './component-adapter';
import { APPLICATION_INVOCATION, validateApplicationManifest } from './manifest-validate';
import { digestPlainJson, type JsonValue, readApplicationJson } from './stable-json';

export const APPLICATION_PLAN_SCHEMA_VERSION = 'agentdef.application-plan/v1';
export const EXECUTION_MODES: readonly ExecutionMode[] = ['dry-run', 'live'];

/** Everything the planner consults: the active catalog and the host's adapters and owners. */
export interface PlanningContext {
  readonly catalog: ComponentCatalog;
  /** By `identityKey(component)`. */
  readonly adapters: ReadonlyMap<string, ComponentAdapter>;
  readonly resolvers: ReadonlyMap<string, OwnerResolver>;
}

/** What execute needs beyond the public plan: the manifest, and each step's resolved owner evidence digest. */
export interface PlannedRun {
  readonly plan: ApplicationPlan;
  readonly manifest: ApplicationManifest;
  /** node → digest of its owner evidence alone (execute re-resolves the owner and compares). */
  readonly ownerEvidenceDigests: ReadonlyMap<string, string>;
}

export type PlanOutcome =
  | { readonly ok: true; readonly run: PlannedRun; readonly diagnostics: Diagnostic[] }
  | { readonly ok: false; readonly diagnostics: Diagnostic[] };

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function finding(rule: string, path: string, message: string, suggestion?: string): Finding {
  return {
    code: ERROR_CODES.applicationInvalid,
    rule,
    path,
    message,
    ...(suggestion !== undefined ? { suggestion } : {}),
  };
}

/** A diagnostic about the request itself (the mode), not about a place in the manifest. */
export function requestDiagnostic(rule: string, path: string, message: string, suggestion: string): Diagnostic {
  return {
    code: ERROR_CODES.applicationInvalid,
    rule,
    severity: 'error',
    path,
    file: '<request>',
    line: 1,
    column: 1,
    message,
    suggestion,
  };
}

export function isExecutionMode(mode: unknown): mode is ExecutionMode {
  return mode === 'dry-run' || mode === 'live';
}

/** Steps in dependency order; among ready nodes, code-unit order of the node id. Assumes an acyclic graph. */
function stepOrder(manifest: ApplicationManifest): string[] {
  const after = new Map<string, Set<string>>(manifest.nodes.map((n) => [n.id, new Set<string>()]));
  for (const edge of manifest.edges) after.get(edge.to.node)?.add(edge.from.node);
  const order: string[] = [];
  const done = new Set<string>();
  while (order.length < after.size) {
    const ready = [...after]
      .filter(([id, deps]) => !done.has(id) && [...deps].every((d) => done.has(d)))
      .map(([id]) => id);
    if (ready.length === 0) break; // a cycle: the graph rules reported it already
    const next = ready.sort(byCodeUnit)[0]!;
    order.push(next);
    done.add(next);
  }
  return order;
}

/** Plans an already parsed manifest document. */
export async function planApplicationDocument(
  document: SourceDocument,
  mode: unknown,
  context: PlanningContext,
): Promise<PlanOutcome> {
  if (!isExecutionMode(mode)) {
    return {
      ok: false,
      diagnostics: [
        requestDiagnostic(
          'mode',
          '/mode',
          `the mode must be \`dry-run\` or \`live\`, not ${JSON.stringify(String(mode)).slice(0, 40)}`,
          'plan with mode `dry-run` first; `live` lets owners dispatch',
        ),
      ],
    };
  }
  const { catalog } = context;
  const validated = validateApplicationManifest(document, {
    catalog: catalogView(catalog),
    activeDigests: { catalogDigest: catalog.catalogDigest, adapterPolicyDigest: catalog.adapterPolicyDigest },
  });
  if (!validated.valid || validated.manifest === undefined) return { ok: false, diagnostics: validated.diagnostics };
  const manifest = validated.manifest;

  const findings: Finding[] = [];
  const ownerEvidence = new Map<string, { digest: string; evidence: JsonValue }>();
  const nodeEvidence = new Map<string, JsonValue>();
  for (const [index, node] of manifest.nodes.entries()) {
    const at = `/nodes/${index}`;
    const key = identityKey(node.component);
    const component = catalog.components.find(
      (c) => c.definition.id === node.component.id && c.definition.revision === node.component.revision,
    );
    const adapter = context.adapters.get(key);
    const resolver = context.resolvers.get(key);
    if (component === undefined || adapter === undefined || resolver === undefined) {
      findings.push(
        finding(
          'adapter',
          `${at}/component`,
          `no adapter or owner is admitted for \`${node.component.id}@${node.component.revision}\``,
          'use a component the catalog lists, at its exact revision',
        ),
      );
      continue;
    }
    const configProblems = componentConfigFindings(
      catalog,
      node.component.id,
      node.component.revision,
      node.config,
      `${at}/config`,
    );
    findings.push(...configProblems.map((f) => ({ ...f, code: ERROR_CODES.applicationInvalid })));
    if (!adapter.modes.includes(mode)) {
      findings.push(
        finding(
          'mode',
          `${at}/component`,
          `\`${node.component.id}@${node.component.revision}\` declares the modes ${adapter.modes.join(', ')}, not \`${mode}\``,
          `plan with a mode every component declares (${adapter.modes.join(' or ')})`,
        ),
      );
    }
    const resolved = await safely(() => resolver.resolve());
    if (!resolved.ok || !resolved.value.ok) {
      const why = resolved.ok && !resolved.value.ok ? resolved.value.message : 'its owner resolver failed';
      findings.push(
        finding(
          'owner',
          `${at}/component`,
          `the owner \`${resolver.owner}\` of \`${node.component.id}\` gave no evidence: ${why}`,
          'the host must inject and configure this owner; nothing runs without its evidence',
        ),
      );
    } else {
      const evidence = readApplicationJson(resolved.value.evidence);
      const digest = evidence.ok ? digestPlainJson(evidence.value) : undefined;
      if (!evidence.ok || digest === undefined || !digest.ok)
        findings.push(
          finding(
            'owner',
            `${at}/component`,
            `the owner \`${resolver.owner}\` gave evidence that is not plain JSON data`,
          ),
        );
      else ownerEvidence.set(node.id, { digest: digest.sha256, evidence: evidence.value });
    }
    if (configProblems.length === 0 && adapter.checkConfig !== undefined) {
      const plainConfig = readApplicationJson(node.config);
      if (!plainConfig.ok) continue; // reported by componentConfigFindings
      const checked = await safely(() => adapter.checkConfig!(deepFrozen(plainConfig.value), `${at}/config`, mode));
      if (!checked.ok) {
        findings.push(
          finding(
            'adapter',
            `${at}/config`,
            `the adapter of \`${node.component.id}\` failed to check this configuration`,
          ),
        );
        continue;
      }
      findings.push(...checked.value.findings.map((f) => ({ ...f, code: ERROR_CODES.applicationInvalid })));
      if (checked.value.evidence !== undefined) {
        const evidence = readApplicationJson(checked.value.evidence);
        if (evidence.ok) nodeEvidence.set(node.id, evidence.value);
        else
          findings.push(
            finding(
              'adapter',
              `${at}/config`,
              `the adapter of \`${node.component.id}\` gave node evidence that is not plain JSON data`,
            ),
          );
      }
    }
  }
  if (manifest.nodes.length > manifest.bounds.maxSteps) {
    findings.push(
      finding(
        'bounds',
        '/bounds/maxSteps',
        `the application has ${manifest.nodes.length} steps, more than \`maxSteps\` (${manifest.bounds.maxSteps}) allows`,
        'raise `bounds.maxSteps` to at least the number of nodes, or split the application',
      ),
    );
  }
  const diagnostics = sortDiagnostics([...validated.diagnostics, ...findings.map((f) => locateFinding(document, f))]);
  if (hasErrors(diagnostics)) return { ok: false, diagnostics };

  const plan = buildPlan(manifest, mode, context, ownerEvidence, nodeEvidence);
  if (plan === undefined)
    return {
      ok: false,
      diagnostics: [
        requestDiagnostic(
          'plan',
          '',
          'the plan has no canonical JSON form',
          'report this: a plan is always plain JSON',
        ),
      ],
    };
  const ownerEvidenceDigests = new Map([...ownerEvidence].map(([node, e]) => [node, e.digest]));
  return { ok: true, run: { plan, manifest, ownerEvidenceDigests }, diagnostics };
}

function buildPlan(
  manifest: ApplicationManifest,
  mode: ExecutionMode,
  context: PlanningContext,
  ownerEvidence: ReadonlyMap<string, { digest: string; evidence: JsonValue }>,
  nodeEvidence: ReadonlyMap<string, JsonValue>,
): ApplicationPlan | undefined {
  const nodes = new Map(manifest.nodes.map((n) => [n.id, n]));
  const definitionOf = (id: string) => {
    const node = nodes.get(id)!;
    return context.catalog.components.find(
      (c) => c.definition.id === node.component.id && c.definition.revision === node.component.revision,
    )!;
  };
  const entry = new Set(manifest.entrypoints.map((e) => JSON.stringify([e.node, e.port])));
  const steps: PlannedStep[] = [];
  for (const id of stepOrder(manifest)) {
    const node = nodes.get(id)!;
    const { definition, definitionDigest } = definitionOf(id);
    const inputs: PlannedInput[] = [];
    for (const [port, spec] of Object.entries(definition.ports.inputs)) {
      const edge = manifest.edges.find((e) => e.to.node === id && e.to.port === port);
      if (edge !== undefined) {
        const producerKind = definitionOf(edge.from.node).definition.ports.outputs[edge.from.port]?.kind ?? spec.kind;
        inputs.push({
          port,
          kind: spec.kind,
          from: { node: edge.from.node, port: edge.from.port, kind: producerKind },
        });
      } else if (entry.has(JSON.stringify([id, port]))) {
        inputs.push({ port, kind: spec.kind, from: 'entrypoint' });
      }
    }
    inputs.sort((a, b) => byCodeUnit(a.port, b.port));
    const config = digestPlainJson(node.config as JsonValue);
    const evidence = digestPlainJson({
      owner: ownerEvidence.get(id)?.evidence ?? null,
      node: nodeEvidence.get(id) ?? null,
    });
    if (!config.ok || !evidence.ok) return undefined;
    steps.push({
      node: id,
      component: { id: definition.id, revision: definition.revision, definitionDigest },
      interface: definition.interface,
      capability: definition.capability,
      sideEffect: definition.sideEffect,
      replay: definition.replay,
      owner: { name: definition.owner.name, selection: definition.owner.selection, evidenceDigest: evidence.sha256 },
      configDigest: config.sha256,
      after: [...new Set(manifest.edges.filter((e) => e.to.node === id).map((e) => e.from.node))].sort(byCodeUnit),
      inputs,
      outputs: Object.entries(definition.ports.outputs)
        .map(([port, spec]) => ({ port, kind: spec.kind }))
        .sort((a, b) => byCodeUnit(a.port, b.port)),
    });
  }
  const kindOfInput = (node: string, port: string) => definitionOf(node).definition.ports.inputs[port]?.kind ?? 'json';
  const kindOfOutput = (node: string, port: string) =>
    definitionOf(node).definition.ports.outputs[port]?.kind ?? 'json';
  const unsigned: Omit<ApplicationPlan, 'digest'> = {
    schemaVersion: APPLICATION_PLAN_SCHEMA_VERSION,
    application: {
      id: manifest.id,
      revision: manifest.revision,
      sourceUri: manifest.source.uri,
      sourceSha256: manifest.source.sha256,
    },
    invocation: APPLICATION_INVOCATION,
    mode,
    catalogDigest: context.catalog.catalogDigest,
    adapterPolicyDigest: context.catalog.adapterPolicyDigest,
    bounds: {
      maxSteps: manifest.bounds.maxSteps,
      maxRuntimeMs: manifest.bounds.maxRuntimeMs,
      maxOutputBytes: manifest.bounds.maxOutputBytes,
    },
    entrypoints: manifest.entrypoints
      .map((e) => ({ node: e.node, port: e.port, kind: kindOfInput(e.node, e.port) }))
      .sort((a, b) => byCodeUnit(a.node, b.node) || byCodeUnit(a.port, b.port)),
    outputs: manifest.outputs
      .map((o) => ({ name: o.name, node: o.node, port: o.port, kind: kindOfOutput(o.node, o.port) }))
      .sort((a, b) => byCodeUnit(a.name, b.name)),
    steps: steps as ApplicationPlan['steps'],
  };
  const digest = digestPlainJson(unsigned as unknown as JsonValue);
  return digest.ok ? { ...unsigned, digest: digest.sha256 } : undefined;
}

/** Runs host code (an adapter or owner) without letting a throw or a rejected promise escape. */
export async function safely<T>(fn: () => T | Promise<T>): Promise<{ ok: true; value: T } | { ok: false }> {
  try {
    return { ok: true, value: await fn() };
  } catch {
    return { ok: false };
  }
}

/** A deep-frozen copy is what adapters get: they cannot change the manifest they were given. */
export function deepFrozen<T extends JsonValue>(value: T): T {
  const copy = structuredClone(value);
  const freeze = (v: JsonValue): void => {
    if (v !== null && typeof v === 'object') {
      for (const member of Object.values(v)) freeze(member);
      Object.freeze(v);
    }
  };
  freeze(copy);
  return copy;
}
