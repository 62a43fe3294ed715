/**
 * The application host: assembles the active catalog (the five built-ins plus the packs the
 * embedding host admitted), the adapters and owner resolvers, and the execution ledger, and
 * serves the three operations of `ApplicationService` (application-service.ts) over them.
 *
 *   catalog  → the public catalog projection (read-only, zero-spend, no connection)
 *   plan     → read the manifest (a workspace file, contained, or text) → plan-application.ts
 *   execute  → check the key and expected digest → replan → drift? refuse : execute-application.ts
 *
 * Packs, adapters, owners, the gateway and the ledger come from the host's options only; nothing a
 * caller passes to `plan` or `execute` can add or replace any of them.
 */
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join, posix } from 'node:path';
import { ERROR_CODES, type Diagnostic } from '../definition/diagnostic';
import { definitionFormat, parseDefinitionText } from '../definition/parse-document';
import { decodeSource, MAX_DEFINITION_BYTES, readSourceBytes } from '../definition/read-source';
import type { SourceDocument } from '../definition/source-document';
import type {
  ApplicationService,
  ExecuteRequest,
  ExecuteResponse,
  ManifestInput,
  PlanRequest,
  PlanResponse,
} from './application-service';
import { builtinAdapters, builtinOwnerResolvers } from './builtin-adapters';
import { type BuiltinComponentDefinition, builtinComponents } from './builtin-components';
import {
  type CatalogPack,
  catalogFromDefinitions,
  catalogToolResult,
  type ComponentCatalog,
  type IntegrationRecord,
} from './catalog';
import { type ComponentAdapter, identityKey, type OwnerResolver } from './component-adapter';
import { executePlannedRun } from './execute-application';
import { createMemoryExecutionLedger, type ExecutionLedger, IDEMPOTENCY_KEY } from './execution-ledger';
import type { GatewayOwner } from './gateway-owner';
import { planApplicationDocument, type PlanningContext, requestDiagnostic, safely } from './plan-application';
import { SHA256_HEX } from './source-digest';
import { digestPlainJson, type JsonValue, readApplicationJson } from './stable-json';

/** What an admitted pack set gives the host (the shape `createApplicationComponentPackRegistry` returns). */
export interface AdmittedPacks {
  readonly packs: readonly CatalogPack[];
  readonly components: readonly BuiltinComponentDefinition[];
  readonly adapters: readonly ComponentAdapter[];
  readonly ownerResolvers: readonly OwnerResolver[];
}

export interface ApplicationHostOptions {
  /** Absolute: manifests by path and registered agents are read from here. */
  readonly workspaceRoot: string;
  readonly packs?: AdmittedPacks;
  readonly gateway?: GatewayOwner;
  /** Default: a fresh in-memory (process-local) ledger. */
  readonly ledger?: ExecutionLedger;
}

export type ApplicationHostOpening =
  | { readonly ok: true; readonly service: ApplicationService; readonly catalog: ComponentCatalog }
  | { readonly ok: false; readonly message: string };

const MANIFEST_TEXT_LIMIT = MAX_DEFINITION_BYTES;

/** A manifest that cannot be read or taken at all: the caller's usage error, not an invalid manifest. */
function ioDiagnostic(file: string, message: string): Diagnostic {
  return {
    code: ERROR_CODES.unreadable,
    rule: 'read-manifest',
    severity: 'error',
    path: '',
    file,
    line: 1,
    column: 1,
    message,
    suggestion: 'name an application.json or application.yaml inside the workspace',
  };
}

/** A workspace-relative path without `..`, posix separators; undefined when it leaves the workspace. */
function containedPath(path: unknown): string | undefined {
  if (
    typeof path !== 'string' ||
    path.length === 0 ||
    path.length > 1024 ||
    path.includes('\0') ||
    path.includes('\\') ||
    isAbsolute(path) ||
    /^[A-Za-z]:/.test(path)
  )
    return undefined;
  const normal = posix.normalize(path);
  return normal === '..' || normal.startsWith('../') || normal.startsWith('/') ? undefined : normal;
}

/** The manifest as a parsed document, or diagnostics. */
export function readManifestDocument(
  input: ManifestInput,
  workspaceRoot: string,
): { document: SourceDocument } | { diagnostics: Diagnostic[] } {
  const given = input as Partial<{ path: unknown; text: unknown; format: unknown; file: unknown }>;
  if (typeof given?.path === 'string') {
    const file = containedPath(given.path);
    if (file === undefined)
      return {
        diagnostics: [
          ioDiagnostic('<request>', 'the manifest path must be relative to the workspace and stay inside it'),
        ],
      };
    const format = definitionFormat(file);
    if (format === undefined)
      return { diagnostics: [ioDiagnostic(file, 'a manifest file ends in .json, .yaml or .yml')] };
    const read = readSourceBytes(join(workspaceRoot, file), file, MAX_DEFINITION_BYTES, workspaceRoot);
    if (read.bytes === undefined)
      return { diagnostics: read.ioError !== undefined ? [ioDiagnostic(file, read.ioError)] : read.diagnostics };
    const decoded = decodeSource(read.bytes, file);
    if (decoded.text === undefined) return { diagnostics: decoded.diagnostics };
    const parsed = parseDefinitionText(decoded.text, file, format);
    return parsed.document ? { document: parsed.document } : { diagnostics: parsed.diagnostics };
  }
  if (typeof given?.text === 'string' && (given.format === 'json' || given.format === 'yaml')) {
    const file =
      typeof given.file === 'string' && given.file.length > 0 && given.file.length <= 256
        ? given.file
        : `manifest.${given.format}`;
    if (given.text.length > MANIFEST_TEXT_LIMIT)
      return {
        diagnostics: [ioDiagnostic(file, `the manifest text is larger than ${MANIFEST_TEXT_LIMIT} characters`)],
      };
    const parsed = parseDefinitionText(given.text, file, given.format);
    return parsed.document ? { document: parsed.document } : { diagnostics: parsed.diagnostics };
  }
  return {
    diagnostics: [
      ioDiagnostic(
        '<request>',
        'give the manifest as { path } (workspace-relative) or { text, format: "json" | "yaml" }',
      ),
    ],
  };
}

/**
 * The catalog, adapters and owner resolvers the host plans with: the built-ins (their gateway
 * injected) plus the admitted packs. A message when they do not fit together.
 */
export function createPlanningContext(
  options: Pick<ApplicationHostOptions, 'workspaceRoot' | 'packs' | 'gateway'>,
): { ok: true; context: PlanningContext } | { ok: false; message: string } {
  const root = options.workspaceRoot;
  const packs = options.packs;
  const catalogResult = catalogFromDefinitions(
    [...builtinComponents(), ...(packs?.components ?? [])],
    packs?.packs ?? [],
  );
  if (!catalogResult.ok)
    return {
      ok: false,
      message: `the component catalog is invalid: ${catalogResult.findings.map((f) => `${f.path} ${f.message}`).join('; ')}`,
    };
  const adapters = new Map<string, ComponentAdapter>();
  const resolvers = new Map<string, OwnerResolver>();
  for (const adapter of [
    ...builtinAdapters({ workspaceRoot: root, ...(options.gateway ? { gateway: options.gateway } : {}) }),
    ...(packs?.adapters ?? []),
  ]) {
    const key = identityKey(adapter.component);
    if (adapters.has(key))
      return { ok: false, message: `two adapters claim \`${adapter.component.id}@${adapter.component.revision}\`` };
    adapters.set(key, adapter);
  }
  for (const resolver of [...builtinOwnerResolvers(options.gateway), ...(packs?.ownerResolvers ?? [])]) {
    const key = identityKey(resolver.component);
    if (resolvers.has(key))
      return {
        ok: false,
        message: `two owner resolvers claim \`${resolver.component.id}@${resolver.component.revision}\``,
      };
    resolvers.set(key, resolver);
  }
  return { ok: true, context: { catalog: catalogResult.catalog, adapters, resolvers } };
}

export async function createApplicationHost(options: ApplicationHostOptions): Promise<ApplicationHostOpening> {
  const root = options?.workspaceRoot;
  if (typeof root !== 'string' || !isAbsolute(root) || !existsSync(root) || !statSync(root).isDirectory())
    return { ok: false, message: 'the application host needs the absolute path of an existing workspace folder' };
  const assembled = createPlanningContext(options);
  if (!assembled.ok) return assembled;
  const context = assembled.context;
  const catalog = context.catalog;
  let ledger = options.ledger;
  if (ledger === undefined) {
    const opened = createMemoryExecutionLedger();
    if (!opened.ok) return { ok: false, message: opened.message };
    ledger = opened.ledger;
  }
  /** The owners' current evidence, as opaque digests: whether each integration is there, nothing of it. */
  const integrations = async (): Promise<IntegrationRecord[]> => {
    const byOwner = new Map<
      string,
      { selection: IntegrationRecord['selection']; components: string[]; resolver: OwnerResolver }
    >();
    for (const { definition } of catalog.components) {
      const resolver = context.resolvers.get(identityKey(definition));
      if (resolver === undefined) continue;
      const entry = byOwner.get(definition.owner.name) ?? {
        selection: definition.owner.selection,
        components: [],
        resolver,
      };
      entry.components.push(`${definition.id}@${definition.revision}`);
      byOwner.set(definition.owner.name, entry);
    }
    const records: IntegrationRecord[] = [];
    for (const [owner, entry] of byOwner) {
      const resolved = await safely(() => entry.resolver.resolve());
      const evidence = resolved.ok && resolved.value.ok ? readApplicationJson(resolved.value.evidence) : undefined;
      const digest = evidence?.ok ? digestPlainJson(evidence.value) : undefined;
      records.push({
        owner,
        selection: entry.selection,
        components: entry.components,
        available: digest?.ok === true,
        evidenceDigest: digest?.ok ? digest.sha256 : null,
      });
    }
    return records;
  };

  const plan = async (request: PlanRequest): Promise<PlanResponse> => {
    const read = readManifestDocument(request?.manifest, root);
    if ('diagnostics' in read) return { ok: false, diagnostics: read.diagnostics };
    const planned = await planApplicationDocument(read.document, request.mode, context);
    return planned.ok
      ? { ok: true, plan: planned.run.plan, diagnostics: planned.diagnostics }
      : { ok: false, diagnostics: planned.diagnostics };
  };

  const execute = async (request: ExecuteRequest, signal?: AbortSignal): Promise<ExecuteResponse> => {
    const refuse = (
      refusal: Extract<ExecuteResponse, { ok: false }>['refusal'],
      message: string,
      diagnostics: Diagnostic[] = [],
      planDigest?: string,
    ): ExecuteResponse => ({
      ok: false,
      refusal,
      message,
      ...(planDigest !== undefined ? { planDigest } : {}),
      diagnostics,
    });
    if (typeof request?.idempotencyKey !== 'string' || !IDEMPOTENCY_KEY.test(request.idempotencyKey))
      return refuse('invalid-inputs', 'the idempotency key must be 1 to 256 visible ASCII characters');
    if (typeof request.expectedPlanDigest !== 'string' || !SHA256_HEX.test(request.expectedPlanDigest)) {
      return refuse(
        'invalid-inputs',
        'the expected plan digest must be 64 lowercase hexadecimal characters: plan first, then pass the plan digest you accepted',
      );
    }
    const read = readManifestDocument(request.manifest, root);
    if ('diagnostics' in read) return refuse('invalid-manifest', 'the manifest cannot be read', read.diagnostics);
    const planned = await planApplicationDocument(read.document, request.mode, context);
    if (!planned.ok) return refuse('invalid-manifest', 'the manifest does not plan; nothing ran', planned.diagnostics);
    const digest = planned.run.plan.digest;
    if (digest !== request.expectedPlanDigest) {
      return refuse(
        'drift',
        `the plan changed since it was accepted: it is now ${digest}, not ${request.expectedPlanDigest}; nothing ran`,
        [
          requestDiagnostic(
            'drift',
            '/expectedPlanDigest',
            `the manifest now plans to ${digest}, not the accepted ${request.expectedPlanDigest} (the manifest, the catalog, an owner's evidence or a registered agent changed)`,
            'plan again, review the new plan, and execute with its digest',
          ),
        ],
        digest,
      );
    }
    return executePlannedRun(planned.run, {
      context,
      ledger,
      idempotencyKey: request.idempotencyKey,
      inputs: request.inputs,
      ...(signal ? { signal } : {}),
    });
  };

  const service: ApplicationService = {
    catalog: async (): Promise<JsonValue> => catalogToolResult(catalog, await integrations()),
    plan,
    execute,
    close: () => ledger.close(),
  };
  return { ok: true, service, catalog };
}
