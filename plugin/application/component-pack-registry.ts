/**
 * `createApplicationComponentPackRegistry`: how an embedding host admits separately authored
 * component packs at start-up. A host API, not an MCP tool: the catalog, plan and execute tools
 * keep their closed arguments, and nothing here is reachable through them.
 *
 * Everything comes from the options: the packs (pure JSON, untrusted data), one adapter and one
 * owner resolver per pack component (host code). There is no scanning, discovery, download,
 * install, upgrade, range, `latest` or fallback. Admission is all or nothing:
 *
 * - each pack on its own (pack-document-admission.ts): plain JSON, the closed envelope and
 *   component shape, control fields, literal secrets, source URI and digest, the closed
 *   configuration schema dialect before any Ajv compile, at most 16 components and 256 KiB;
 * - across packs (here): at most 16 packs (pack-admission-limits.ts), at most 100 components with
 *   the 5 built-ins, exactly one revision per pack id, and component ids that collide neither with
 *   a built-in nor with each other (the `agentdef.` prefix is reserved for built-ins);
 * - the host's bindings (adapter-admission.ts): exactly one matching adapter and owner resolver
 *   per pack component, nothing else;
 * - last, the combined catalog (catalog.ts) must build, as the host will build it:
 *   `catalogFromDefinitions([...builtinComponents(), ...registry.components], registry.packs)`.
 *
 * Findings are located by JSON Pointer into the options (`/packs/0/source/uri`,
 * `/adapters/2/capability`, `/ownerResolvers/0`), say what is wrong and what to do, and never quote
 * secret-looking input. It never throws, whatever it is given: pack data is read with
 * readApplicationJson, host objects as own data properties only (no getter, Proxy trap or toJSON
 * runs). The registry is deep-frozen and independent of input order: packs by id, components,
 * adapters and resolvers by component id and revision.
 */
import type { Finding } from '../definition/diagnostic';
import { admitHostBindings } from './adapter-admission';
import { type BuiltinComponentDefinition, builtinComponents } from './builtin-components';
import { type CatalogPack, catalogFromDefinitions } from './catalog';
import { type ComponentAdapter, identityKey, type OwnerResolver } from './component-adapter';
import { readHostArray, readHostMembers } from './host-object';
import { PACK_LIMITS, packCountFinding, totalComponentCountFinding } from './pack-admission-limits';
import {
  type AdmittedPackDocument,
  admitPackDocument,
  COMPONENT_PACK_RULE,
  isQuotableIdentity,
  isWellFormedIdentity,
  type PackComponentClaim,
  type PackDocumentAdmission,
} from './pack-document-admission';

export { PACK_LIMITS } from './pack-admission-limits';
export { COMPONENT_PACK_SCHEMA_VERSION } from './pack-document-admission';

/** Findings about one pack id selected twice, or a component id that collides. */
export const COMPONENT_PACK_IDENTITY_RULE = 'component-pack-identity';

/** The prefix of component ids reserved for agentdef's built-ins. */
export const RESERVED_COMPONENT_PREFIX = 'agentdef.';

export interface ComponentPackRegistryOptions {
  /** Pure JSON packs (untrusted data). */
  readonly packs: readonly unknown[];
  /** Host-supplied, one per pack component. */
  readonly adapters: readonly ComponentAdapter[];
  /** Host-supplied, one per pack component. */
  readonly ownerResolvers: readonly OwnerResolver[];
}

/** What a host admitted: deep-frozen. */
export interface ComponentPackRegistry {
  /** The admitted packs with their source digests, by id. */
  readonly packs: readonly CatalogPack[];
  /** The pack components, normalised plain JSON, by id and revision. */
  readonly components: readonly BuiltinComponentDefinition[];
  /** One adapter per pack component, by component id and revision. */
  readonly adapters: readonly ComponentAdapter[];
  /** One owner resolver per pack component, by component id and revision. */
  readonly ownerResolvers: readonly OwnerResolver[];
}

export type ComponentPackRegistryResult =
  | { readonly ok: true; readonly registry: ComponentPackRegistry }
  | { readonly ok: false; readonly findings: Finding[] };

const codeUnitOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Admits the packs and host bindings of `options`, all or nothing. Never throws. */
export function createApplicationComponentPackRegistry(
  options: ComponentPackRegistryOptions,
): ComponentPackRegistryResult {
  try {
    return admit(options);
  } catch {
    // Not reached by any input the readers know of; a guard so that the promise "never throws" holds.
    return {
      ok: false,
      findings: [
        {
          rule: COMPONENT_PACK_RULE,
          path: '',
          message: 'the registry options could not be inspected as packs and host bindings',
          suggestion: 'pass { packs, adapters, ownerResolvers } as plain arrays',
        },
      ],
    };
  }
}

function admit(options: unknown): ComponentPackRegistryResult {
  const read = readHostMembers(
    options,
    '',
    'the registry options',
    ['packs', 'adapters', 'ownerResolvers'],
    COMPONENT_PACK_RULE,
  );
  if (!read.ok) return { ok: false, findings: read.findings };
  const missing = (['packs', 'adapters', 'ownerResolvers'] as const).filter(
    (key) => read.members.get(key)?.present !== true,
  );
  if (missing.length > 0) {
    return {
      ok: false,
      findings: missing.map((key) => ({
        rule: COMPONENT_PACK_RULE,
        path: `/${key}`,
        message: `\`${key}\` is missing from the registry options`,
        suggestion: `pass \`${key}\` as an array (empty when there is nothing to admit)`,
      })),
    };
  }
  const value = (key: string): unknown => {
    const found = read.members.get(key);
    return found?.present === true ? found.value : undefined;
  };

  const builtins = builtinComponents();
  const packList = readHostArray(
    value('packs'),
    '/packs',
    '`packs`',
    PACK_LIMITS.maxPacks,
    COMPONENT_PACK_RULE,
    (count) => packCountFinding(count) as Finding,
  );
  if (!packList.ok) return { ok: false, findings: packList.findings };

  const admissions = packList.items.map((pack, index) => admitPackDocument(pack, `/packs/${index}`));
  const findings: Finding[] = admissions.flatMap((admission) => admission.findings);
  const total = totalComponentCountFinding(
    builtins.length,
    admissions.reduce((sum, admission) => sum + admission.componentCount, 0),
  );
  if (total !== undefined) findings.push(total);
  findings.push(...packIdentityFindings(admissions), ...componentIdentityFindings(admissions, builtins));

  const claims = admissions.flatMap((admission) => admission.claims);
  const builtinKeys = new Set(builtins.map((definition) => identityKey(definition)));
  const bindings = admitHostBindings(value('adapters'), value('ownerResolvers'), claims, builtinKeys);
  findings.push(...bindings.findings);
  if (findings.length > 0) return { ok: false, findings };

  const packs = admissions.map((admission) => admission.pack as AdmittedPackDocument);
  return registryOf(packs, bindings.adapters, bindings.ownerResolvers, builtins);
}

/** Exactly one revision per pack id: a repeated id (same revision or not) is refused at its repeat. */
function packIdentityFindings(admissions: readonly PackDocumentAdmission[]): Finding[] {
  const findings: Finding[] = [];
  const first = new Map<string, { index: number; revision: string }>();
  admissions.forEach((admission, index) => {
    if (admission.identity === undefined) return;
    const { id, revision } = admission.identity;
    const earlier = first.get(id);
    if (earlier === undefined) return void first.set(id, { index, revision });
    const name =
      isQuotableIdentity(id, revision) && isQuotableIdentity(id, earlier.revision)
        ? `pack \`${id}\``
        : 'this pack id (not shown: it looks like a credential)';
    findings.push({
      rule: COMPONENT_PACK_IDENTITY_RULE,
      path: `/packs/${index}/id`,
      message:
        earlier.revision === revision
          ? `${name} at the same revision is already given at /packs/${earlier.index}: each pack is admitted once`
          : `${name} is already selected at revision ${earlier.revision} (/packs/${earlier.index}); exactly one revision of each pack id is admitted, never two side by side`,
      suggestion: 'keep the one exact revision you reviewed and remove the other',
    });
  });
  return findings;
}

/** The component id quoted, or a placeholder when it looks like a credential. */
const idText = (claim: PackComponentClaim): string =>
  isQuotableIdentity(claim.id, claim.revision) ? `\`${claim.id}\`` : '(not shown: it looks like a credential)';

/** Component ids that are a built-in's, use the reserved prefix, or are defined twice (within or across packs). */
function componentIdentityFindings(
  admissions: readonly PackDocumentAdmission[],
  builtins: readonly BuiltinComponentDefinition[],
): Finding[] {
  const findings: Finding[] = [];
  const builtinIds = new Set(builtins.map((definition) => definition.id));
  const first = new Map<string, PackComponentClaim>();
  for (const claim of admissions.flatMap((admission) => admission.claims)) {
    if (!isWellFormedIdentity(claim.id, claim.revision)) continue; // the schema reports it
    const path = `${claim.pointer}/id`;
    if (builtinIds.has(claim.id)) {
      findings.push({
        rule: COMPONENT_PACK_IDENTITY_RULE,
        path,
        message: `component id ${idText(claim)} is the id of a built-in component: a pack cannot redefine or shadow a built-in`,
        suggestion: 'give the component an id under your own prefix (for example `acme.…`)',
      });
      continue;
    }
    if (claim.id === RESERVED_COMPONENT_PREFIX.slice(0, -1) || claim.id.startsWith(RESERVED_COMPONENT_PREFIX)) {
      findings.push({
        rule: COMPONENT_PACK_IDENTITY_RULE,
        path,
        message: `component id ${idText(claim)} uses the \`${RESERVED_COMPONENT_PREFIX}\` prefix, which is reserved for agentdef's built-in components`,
        suggestion: 'give the component an id under your own prefix (for example `acme.…`)',
      });
      continue;
    }
    const earlier = first.get(claim.id);
    if (earlier === undefined) {
      first.set(claim.id, claim);
      continue;
    }
    findings.push({
      rule: COMPONENT_PACK_IDENTITY_RULE,
      path,
      message: `component id ${idText(claim)} is already defined at ${earlier.pointer}${isQuotableIdentity(earlier.id, earlier.revision) ? ` (revision ${earlier.revision})` : ''}: each component id is defined by exactly one pack, at one revision`,
      suggestion: 'rename one of the components, or keep only the revision you reviewed',
    });
  }
  return findings;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const member of Object.values(value)) deepFreeze(member);
    Object.freeze(value);
  }
  return value;
}

/** The registry, once the combined catalog is known to build. */
function registryOf(
  packs: readonly AdmittedPackDocument[],
  adapters: readonly ComponentAdapter[],
  ownerResolvers: readonly OwnerResolver[],
  builtins: readonly BuiltinComponentDefinition[],
): ComponentPackRegistryResult {
  const placed = packs
    .flatMap((pack) => pack.components)
    .sort(
      (a, b) =>
        codeUnitOrder(a.definition.id, b.definition.id) || codeUnitOrder(a.definition.revision, b.definition.revision),
    );
  const catalogPacks = packs
    .map((pack) => ({ id: pack.id, revision: pack.revision, sourceDigest: pack.sourceDigest }))
    .sort((a, b) => codeUnitOrder(a.id, b.id));
  const components = placed.map((component) => component.definition);
  const catalog = catalogFromDefinitions([...builtins, ...components], catalogPacks);
  if (!catalog.ok) {
    // Admission checks everything the catalog checks; this maps any disagreement back to the pack.
    const findings = catalog.findings.map((finding) => {
      const [, index, ...rest] = finding.path.split('/');
      const component = placed[Number(index) - builtins.length];
      return {
        ...finding,
        path: component === undefined ? '/packs' : `${component.pointer}${rest.length > 0 ? `/${rest.join('/')}` : ''}`,
      };
    });
    return { ok: false, findings };
  }
  return {
    ok: true,
    registry: deepFreeze({
      packs: catalogPacks,
      components,
      adapters: [...adapters],
      ownerResolvers: [...ownerResolvers],
    }),
  };
}
