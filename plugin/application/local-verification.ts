/**
 * The seed's "Local verification" for one application, offline: each check is a named, real
 * attempt (a mutation that must be refused, a repeat that must replay, a privacy search…) with a
 * positive control, so no check can pass by doing nothing. Paid model calls, external writes and
 * deployment never happen: execution runs in dry-run against the host's own owners, and the
 * manifest on disk is only read (its bytes are compared before and after).
 *
 * `agentdef application check <file>` runs these and adds the stdio MCP check (a shell concern:
 * it spawns the server). Results are plain data; nothing here throws on bad input.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApplicationManifest } from '../schema/generated/application-manifest.types';
import { createPlanningContext } from './application-host';
import type { ApplicationService, EntrypointValue } from './application-service';
import { builtinComponents } from './builtin-components';
import { catalogFromDefinitions, catalogToolResult } from './catalog';
import { createApplicationComponentPackRegistry } from './component-pack-registry';
import { adapterDescriptorOf, type ComponentAdapter, identityKey, type OwnerResolver } from './component-adapter';
import { executePlannedRun } from './execute-application';
import { createMemoryExecutionLedger } from './execution-ledger';
import type { GatewayOwner } from './gateway-owner';
import { scanIndependence, type TextFile } from './independence-guard';
import { APPLICATION_INVOCATION } from './manifest-validate';
import { APPLICATION_TOOLS } from './mcp-tool-contracts';
import { planApplicationDocument } from './plan-application';
import { digestApplicationManifestSource } from './source-digest';
import type { JsonValue } from './stable-json';
import { parseDefinitionText } from '../definition/parse-document';
import type { AdmittedPacks } from './application-host';

export interface VerificationCheck {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}

export interface VerificationOptions {
  /** Absolute. */
  readonly workspaceRoot: string;
  /** Workspace-relative manifest file. */
  readonly manifestPath: string;
  /** Opens a fresh service over the same host setup (each check gets its own ledger). */
  openService(): Promise<ApplicationService>;
  readonly gateway?: GatewayOwner;
  readonly packs?: AdmittedPacks;
  /** Entrypoint values for the offline execution (default: `{}` for json ports, `""` for text). */
  readonly inputs?: readonly EntrypointValue[];
}

type Check = (o: VerificationOptions, shared: Shared) => Promise<string>;

interface Shared {
  manifest: ApplicationManifest;
  text: string;
  digest: string;
  inputs: EntrypointValue[];
}

class CheckFailed extends Error {}
function fail(message: string): never {
  throw new CheckFailed(message);
}

/** The manifest as text with `edit` applied and the source digest re-sealed (or not, with `seal: false`). */
function variant(manifest: ApplicationManifest, edit: (m: any) => void, seal = true): string {
  const copy = structuredClone(manifest) as any;
  edit(copy);
  if (seal) {
    const digest = digestApplicationManifestSource(copy);
    if (digest.ok) copy.source.sha256 = digest.sha256;
  }
  return JSON.stringify(copy, null, 2);
}

async function planText(service: ApplicationService, text: string, mode: 'dry-run' | 'live' = 'dry-run') {
  return service.plan({ manifest: { text, format: 'json', file: 'variant.json' }, mode });
}

async function mustPlan(o: VerificationOptions, mode: 'dry-run' | 'live' = 'dry-run') {
  const service = await o.openService();
  try {
    const planned = await service.plan({ manifest: { path: o.manifestPath }, mode });
    if (!planned.ok) fail(`the manifest does not plan in ${mode}: ${planned.diagnostics[0]?.message ?? 'no plan'}`);
    return planned.plan;
  } finally {
    await service.close();
  }
}

async function mustRefuse(
  service: ApplicationService,
  text: string,
  rule: string,
  what: string,
  mode: 'dry-run' | 'live' = 'dry-run',
): Promise<void> {
  const planned = await planText(service, text, mode);
  if (planned.ok) fail(`${what} was planned; it must be refused`);
  if (!planned.diagnostics.some((d) => d.rule === rule))
    fail(`${what} was refused, but not by \`${rule}\` (${planned.diagnostics.map((d) => d.rule).join(', ')})`);
}

const CHECKS: Record<string, Check> = {
  'dependency-independence': async () => {
    const folder = __dirname;
    const sources: (TextFile & { withStrings?: boolean })[] = readdirSync(folder)
      .filter((name) => /\.(ts|js)$/.test(name) && !/\.(test|d)\.ts$/.test(name))
      .map((name) => ({
        path: name,
        text: readFileSync(join(folder, name), 'utf8'),
        withStrings: !name.startsWith('independence-guard') && !name.startsWith('local-verification'),
      }));
    const manifest = join(folder, '..', '..', 'package.json');
    const findings = scanIndependence({
      sources,
      packageManifests: [{ path: 'package.json', text: readFileSync(manifest, 'utf8') }],
    });
    if (findings.length > 0)
      fail(
        `${findings.length} agent-framework dependencies: ${findings.map((f) => `${f.file}: ${f.framework}`).join('; ')}`,
      );
    if (
      scanIndependence({ packageManifests: [{ path: 'control.json', text: '{"dependencies":{"langchain":"1.0.0"}}' }] })
        .length === 0
    )
      fail('the guard missed its positive control');
    return `${sources.length} composition modules and the package manifest depend on no agent framework`;
  },

  'canonical-hashing': async (o, s) => {
    const before = createHash('sha256').update(s.text).digest('hex');
    const plan = await mustPlan(o);
    if (plan.application.sourceSha256 !== s.manifest.source.sha256)
      fail('the plan binds another source digest than the manifest');
    const reordered = variant(
      s.manifest,
      (m) => {
        m.nodes.reverse();
        m.edges.reverse();
        m.entrypoints.reverse();
        m.outputs.reverse();
      },
      false,
    );
    const service = await o.openService();
    try {
      const again = await planText(service, reordered);
      if (!again.ok || again.plan.digest !== plan.digest)
        fail('reordering the unordered collections changed the plan (or broke the source digest)');
      await mustRefuse(
        service,
        variant(s.manifest, (m) => (m.bounds.maxSteps = m.bounds.maxSteps === 1 ? 2 : m.bounds.maxSteps - 1), false),
        'source-digest',
        'an edit without a new source digest',
      );
    } finally {
      await service.close();
    }
    const after = createHash('sha256')
      .update(readFileSync(join(o.workspaceRoot, o.manifestPath)))
      .digest('hex');
    if (after !== before) fail('planning changed the manifest file');
    return `source ${s.digest.slice(0, 12)}… verified; reordering keeps plan ${plan.digest.slice(0, 12)}…; an unsealed edit is refused; the file is unchanged`;
  },

  'catalog-validation': async () => {
    const good = catalogFromDefinitions(builtinComponents());
    if (!good.ok) fail('the built-in catalog does not build');
    const hostile = structuredClone(builtinComponents()) as any[];
    hostile[0].configSchema.properties.command = { type: 'string', pattern: '.*' };
    if (catalogFromDefinitions(hostile).ok)
      fail('a configuration schema with a `command` property and a `pattern` was admitted');
    const packs = createApplicationComponentPackRegistry({
      packs: [
        {
          schemaVersion: 'agentdef.component-pack/v1',
          id: 'x',
          revision: 'latest',
          source: { uri: 'workspace://host/x', sha256: 'z' },
          components: [],
        },
      ],
      adapters: [],
      ownerResolvers: [],
    });
    if (packs.ok) fail('a pack with a `latest` revision and a network-shaped source was admitted');
    return 'the built-in catalog builds; a control-field schema and a hostile pack are refused';
  },

  'revision-and-mode-fences': async (o, s) => {
    const service = await o.openService();
    try {
      const first = s.manifest.nodes[0]!;
      await mustRefuse(
        service,
        variant(s.manifest, (m) => (m.nodes[0].component.revision = bump(first.component.revision))),
        'unknown-component',
        'a component revision the catalog does not hold',
      );
      await mustRefuse(
        service,
        variant(s.manifest, (m) => (m.nodes[0].component.revision = `^${first.component.revision}`)),
        'schema',
        'a revision range',
      );
      const mode = await service.plan({ manifest: { path: o.manifestPath }, mode: 'preview' as never });
      if (mode.ok || mode.diagnostics[0]?.rule !== 'mode') fail('an undeclared mode was planned');
    } finally {
      await service.close();
    }
    return 'a newer revision, a range and an undeclared mode are refused';
  },

  'type-and-reachability': async (o, s) => {
    const service = await o.openService();
    try {
      if (s.manifest.edges.length > 0) {
        await mustRefuse(
          service,
          variant(s.manifest, (m) => m.edges.splice(0, 1)),
          'dangling-input',
          'a required input without producer',
        );
        const edge = s.manifest.edges[0]!;
        await mustRefuse(
          service,
          variant(s.manifest, (m) => m.edges.push({ from: { node: edge.to.node, port: 'no-such-port' }, to: edge.to })),
          'unknown-port',
          'an edge from an undeclared port',
        );
      }
      await mustRefuse(
        service,
        variant(s.manifest, (m) =>
          m.nodes.push({ id: 'stray-output', component: { id: 'agentdef.output', revision: '1.0.0' }, config: {} }),
        ),
        'unreachable-node',
        'a node on no entrypoint-to-output path',
      );
    } finally {
      await service.close();
    }
    return 'a dangling input, an undeclared port and an unreachable node are refused';
  },

  'catalog-and-plan-privacy': async (o, s) => {
    const secrets = configStrings(s.manifest);
    const service = await o.openService();
    let catalog: string[];
    try {
      catalog = contentStrings(await service.catalog());
    } finally {
      await service.close();
    }
    for (const mode of ['dry-run', 'live'] as const) {
      const planned = await mustPlan(o, mode).catch(() => undefined);
      if (planned === undefined) continue; // an application may not plan live (an adapter without that mode)
      const plan = contentStrings(planned as unknown as JsonValue);
      const leaked = secrets.filter((value) => [...plan, ...catalog].some((text) => text.includes(value)));
      if (leaked.length > 0) fail(`the ${mode} plan or the catalog holds ${leaked.length} configuration value(s)`);
      if (!planned.steps.every((step) => /^[0-9a-f]{64}$/.test(step.configDigest)))
        fail('the plan carries no configuration digests');
    }
    return `${secrets.length} configuration values appear in neither plan nor catalog (digests only)`;
  },

  'order-stable-digests': async (o) => {
    const components = [...builtinComponents(), ...(o.packs?.components ?? [])];
    const packs = [...(o.packs?.packs ?? [])];
    const forward = catalogFromDefinitions(components, packs);
    const backward = catalogFromDefinitions([...components].reverse(), [...packs].reverse());
    if (!forward.ok || !backward.ok) fail('the active catalog does not build');
    const f = forward.catalog;
    const b = backward.catalog;
    if (f.catalogDigest !== b.catalogDigest || f.adapterPolicyDigest !== b.adapterPolicyDigest)
      fail('component or pack order changed a composite digest');
    if (JSON.stringify(catalogToolResult(f)) !== JSON.stringify(catalogToolResult(b)))
      fail('component order changed the catalog projection');
    const service = await o.openService();
    try {
      const active = (await service.catalog()) as { catalogDigest?: string };
      if (active.catalogDigest !== f.catalogDigest)
        fail('the host serves another catalog than its components and packs give');
    } finally {
      await service.close();
    }
    return `catalog ${f.catalogDigest.slice(0, 12)}… and adapter policy ${f.adapterPolicyDigest.slice(0, 12)}… (${components.length} components, ${packs.length} packs) do not depend on order`;
  },

  'offline-execution': async (o, s) => {
    const plan = await mustPlan(o);
    const service = await o.openService();
    try {
      const response = await service.execute({
        manifest: { path: o.manifestPath },
        mode: 'dry-run',
        expectedPlanDigest: plan.digest,
        idempotencyKey: 'check-offline',
        inputs: s.inputs,
      });
      if (!response.ok) fail(`the dry-run was refused: ${response.refusal}: ${response.message}`);
      const run = response.run;
      if (run.status !== 'succeeded')
        fail(`the dry-run stopped: ${run.stop?.reason} at ${run.stop?.node}: ${run.stop?.message}`);
      if (run.steps.some((step) => step.dispatched)) fail('a dry-run dispatched');
      return `dry-run of ${run.steps.length} steps succeeded with ${Object.keys(run.outputs ?? {}).length} outputs, nothing dispatched`;
    } finally {
      await service.close();
    }
  },

  'host-binding-rejection': async (o) => {
    const packs = o.packs;
    if (packs === undefined || packs.components.length === 0) {
      const empty = createApplicationComponentPackRegistry({ packs: [], adapters: [], ownerResolvers: [] });
      if (!empty.ok) fail('an empty pack set was refused');
      const stray = createApplicationComponentPackRegistry({
        packs: [],
        adapters: [builtinAdapterLike()],
        ownerResolvers: [],
      });
      if (stray.ok) fail('an adapter for a component no pack defines was admitted');
      return 'no packs: an adapter claiming a built-in component is refused';
    }
    const doubled = createApplicationComponentPackRegistry({
      packs: [],
      adapters: [...packs.adapters, ...packs.adapters],
      ownerResolvers: [...packs.ownerResolvers],
    });
    if (doubled.ok) fail('duplicate adapter claims were admitted');
    return `duplicate adapter claims for ${packs.components.length} pack components are refused`;
  },

  idempotency: async (o, s) => {
    const plan = await mustPlan(o);
    const service = await o.openService();
    try {
      const request = {
        manifest: { path: o.manifestPath },
        mode: 'dry-run' as const,
        expectedPlanDigest: plan.digest,
        idempotencyKey: 'check-idempotency',
        inputs: s.inputs,
      };
      const first = await service.execute(request);
      const second = await service.execute(request);
      if (!first.ok || !second.ok) fail('an execute was refused');
      if (first.replayed || !second.replayed) fail('the repeat did not replay the recorded run');
      if (JSON.stringify(first.run) !== JSON.stringify(second.run)) fail('the replay differs from the recorded run');
      const drift = await service.execute({ ...request, expectedPlanDigest: 'f'.repeat(64) });
      if (drift.ok || drift.refusal !== 'drift') fail('an execute under another plan digest was not refused as drift');
    } finally {
      await service.close();
    }
    return 'the same key replays the recorded run; another plan digest is drift';
  },

  'ledger-bounds': async () => {
    const opened = createMemoryExecutionLedger({ maxEntries: 1 });
    if (!opened.ok) fail(opened.message);
    const ledger = opened.ledger;
    const binding = { planDigest: 'a'.repeat(64), mode: 'dry-run' as const };
    const first = await ledger.claim('one', binding);
    const second = await ledger.claim('two', binding);
    await ledger.close();
    if (first.kind !== 'claimed' || second.kind !== 'full')
      fail(`a full ledger admitted another entry (${second.kind})`);
    return 'a ledger at its bound refuses a new key while its entry is live (fail closed)';
  },

  'owner-stop': async (o, s) => {
    const assembled = createPlanningContext({
      workspaceRoot: o.workspaceRoot,
      ...(o.packs ? { packs: o.packs } : {}),
      ...(o.gateway ? { gateway: o.gateway } : {}),
    });
    if (!assembled.ok) fail(assembled.message);
    const context = assembled.context;
    const parsed = parseDefinitionText(s.text, o.manifestPath, o.manifestPath.endsWith('.json') ? 'json' : 'yaml');
    if (!parsed.document) fail('the manifest does not parse');
    const planned = await planApplicationDocument(parsed.document, 'dry-run', context);
    if (!planned.ok) fail('the manifest does not plan');
    const run = planned.run;
    const firstStep = run.plan.steps[0];
    const key = identityKey(firstStep.component);
    const real = context.resolvers.get(key)!;
    const rotated: OwnerResolver = { ...real, resolve: async () => ({ ok: true, evidence: { rotated: true } }) };
    let invoked = 0;
    const adapter = context.adapters.get(key)!;
    const counting: ComponentAdapter = {
      ...adapter,
      execute: async (call) => {
        invoked += 1;
        return adapter.execute(call);
      },
    };
    const ledger = createMemoryExecutionLedger();
    if (!ledger.ok) fail('no ledger');
    const response = await executePlannedRun(run, {
      context: {
        ...context,
        resolvers: new Map([...context.resolvers, [key, rotated]]),
        adapters: new Map([...context.adapters, [key, counting]]),
      },
      ledger: ledger.ledger,
      idempotencyKey: 'check-owner',
      inputs: s.inputs,
    });
    if (!response.ok) fail(`refused: ${response.refusal}`);
    const stop = response.run.stop;
    if (stop?.reason !== 'owner-drift' || stop.node !== firstStep.node || invoked !== 0)
      fail('changed owner evidence did not block the step before invocation');
    return `changed owner evidence blocks \`${firstStep.node}\` before its adapter runs`;
  },

  'strict-mcp-contracts': async () => {
    const names = APPLICATION_TOOLS.map((t) => t.name).sort();
    if (names.join(',') !== 'agentdef.application.catalog,agentdef.application.execute,agentdef.application.plan')
      fail(`the MCP surface is ${names.join(', ')}`);
    for (const tool of APPLICATION_TOOLS) {
      const open = openObjects(tool.inputSchema as JsonValue, '');
      if (open.length > 0)
        fail(`${tool.name}: object schemas without additionalProperties:false at ${open.join(', ')}`);
    }
    return 'exactly three tools, every input object closed at every level';
  },

  'canonical-routing': async (o, s) => {
    if (s.manifest.invocation !== APPLICATION_INVOCATION) fail('the manifest has another invocation tuple');
    const plan = await mustPlan(o);
    if (plan.invocation !== APPLICATION_INVOCATION) fail('the plan has another invocation tuple');
    return 'manifest and plan carry the exact invocation tuple (operator authority absent)';
  },
};

export const VERIFICATION_CHECKS = Object.keys(CHECKS);

/** Runs every check; the first problem of each is its detail. */
export async function runLocalVerification(options: VerificationOptions): Promise<VerificationCheck[]> {
  const text = readFileSync(join(options.workspaceRoot, options.manifestPath), 'utf8');
  const parsed = parseDefinitionText(
    text,
    options.manifestPath,
    options.manifestPath.endsWith('.json') ? 'json' : 'yaml',
  );
  const manifest = parsed.document?.value as ApplicationManifest | undefined;
  if (manifest === undefined || !Array.isArray(manifest.nodes))
    return [
      {
        name: 'manifest',
        ok: false,
        detail: 'the manifest does not parse; run `agentdef application plan` for its diagnostics',
      },
    ];
  const shared: Shared = {
    manifest,
    text,
    digest: manifest.source?.sha256 ?? '',
    inputs: [...(options.inputs ?? defaultInputs(manifest))],
  };
  const results: VerificationCheck[] = [];
  for (const [name, check] of Object.entries(CHECKS)) {
    try {
      results.push({ name, ok: true, detail: await check(options, shared) });
    } catch (error) {
      results.push({
        name,
        ok: false,
        detail: error instanceof CheckFailed ? error.message : 'the check itself failed unexpectedly',
      });
    }
  }
  return results;
}

function defaultInputs(manifest: ApplicationManifest): EntrypointValue[] {
  return manifest.entrypoints.map((e) => ({ node: e.node, port: e.port, value: {} }));
}

function bump(revision: string): string {
  const [major = '1', minor = '0', patch = '0'] = revision.split(/[.+-]/);
  return `${major}.${minor}.${Number(patch) + 1}`;
}

/** Every configuration string of 8 characters or more (shorter ones, such as versions, also occur as public metadata). */
function configStrings(manifest: ApplicationManifest): string[] {
  const found: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string' && value.length >= 8) found.push(value);
    else if (value !== null && typeof value === 'object') for (const member of Object.values(value)) walk(member);
  };
  for (const node of manifest.nodes) walk(node.config);
  return found;
}

/**
 * Every string of a plan or catalog except the public identities the manifest itself names
 * outside any configuration (node, port and output names, ids, the source URI): those may equal
 * a configuration value by coincidence without revealing it.
 */
function contentStrings(value: JsonValue): string[] {
  const identity = new Set(['node', 'port', 'name', 'id', 'sourceUri', 'after', 'revision', 'kind']);
  const found: string[] = [];
  const walk = (v: JsonValue, key: string): void => {
    if (typeof v === 'string') {
      if (!identity.has(key)) found.push(v);
    } else if (Array.isArray(v)) for (const item of v) walk(item, key);
    else if (v !== null && typeof v === 'object') for (const [k, member] of Object.entries(v)) walk(member, k);
  };
  walk(value, '');
  return found;
}

/** JSON Pointers of object schemas that are not closed. */
function openObjects(schema: JsonValue, at: string): string[] {
  if (schema === null || typeof schema !== 'object') return [];
  if (Array.isArray(schema)) return schema.flatMap((s, i) => openObjects(s, `${at}/${i}`));
  const own =
    (schema.type === 'object' || 'properties' in schema) && schema.additionalProperties !== false ? [at || '/'] : [];
  return [
    ...own,
    ...Object.entries(schema).flatMap(([k, v]) =>
      k === 'const' || k === 'enum' || k === 'default' || k === 'examples' ? [] : openObjects(v, `${at}/${k}`),
    ),
  ];
}

/** An adapter claiming the built-in input component: a host binding no pack justifies. */
function builtinAdapterLike(): ComponentAdapter {
  const input = builtinComponents().find((c) => c.id === 'agentdef.input')!;
  return {
    ...adapterDescriptorOf(input),
    execute: async () => ({ status: 'failed', code: 'unused', message: 'unused' }),
  };
}
