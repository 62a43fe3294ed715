/**
 * Start-up admission of the host's bindings for pack components: the adapters (exact descriptor
 * plus a private `execute`) and the owner resolvers (owner name plus a private `resolve`).
 *
 * Every pack component gets exactly one adapter and exactly one owner resolver. Refused, each at
 * its JSON Pointer in the registry options (`/adapters/<i>/…`, `/ownerResolvers/<i>/…`):
 * - a binding that is not a plain host object (a Proxy, an array…), or whose members are
 *   accessors: host objects are read as own data properties only, no getter ever runs;
 * - `execute` / `resolve` not an own function (a method inherited from a class prototype is not
 *   read), `checkConfig` present but not an own function;
 * - a binding for a built-in component (agentdef binds those itself) or for a component no pack
 *   defines;
 * - a second binding for a component that already has one (ambiguous), and a pack component with
 *   none (missing);
 * - a descriptor that differs from the component's definition: interface, capability, side effect,
 *   replay class, modes (as an exact set) or owner name; a resolver whose `owner` is not the
 *   component's `owner.name`.
 *
 * Admitted bindings are returned as new frozen objects: the descriptor copied from the component's
 * normalised definition, and `execute` / `checkConfig` / `resolve` wrappers that call the function
 * captured at admission with the host's object as `this` (a later change to the host's object
 * changes nothing; the host's objects are never frozen or modified). Messages quote host-supplied
 * text only when it is short, printable and does not look like a credential. Never throws.
 */
import type { Finding } from '../definition/diagnostic';
import { highEntropyBlob, secretKinds } from '../definition/rules/secrets';
import type { BuiltinComponentDefinition, ExecutionMode } from './builtin-components';
import type {
  AdapterCall,
  AdapterOutcome,
  ComponentAdapter,
  ComponentIdentity,
  NodeCheck,
  OwnerEvidence,
  OwnerResolver,
} from './component-adapter';
import { identityKey } from './component-adapter';
import { type HostMember, readHostArray, readHostMembers } from './host-object';
import { PACK_LIMITS } from './pack-admission-limits';
import { isQuotableIdentity, type PackComponentClaim } from './pack-document-admission';
import { type JsonValue, readApplicationJson } from './stable-json';

export const BINDING_RULE = 'component-pack-binding';

export interface HostBindings {
  readonly findings: Finding[];
  /** The admitted adapters, in component id/revision order. */
  readonly adapters: readonly ComponentAdapter[];
  /** The admitted owner resolvers, in component id/revision order. */
  readonly ownerResolvers: readonly OwnerResolver[];
}

const MODES: readonly ExecutionMode[] = ['dry-run', 'live'];

/** `value` quoted when it is short printable ASCII that does not look like a credential; otherwise a placeholder. */
export function quoteHostText(value: unknown): string {
  if (typeof value !== 'string') return 'a value that is not a string';
  if (value.length === 0) return 'an empty string';
  if (
    value.length > 160 ||
    !/^[\x20-\x7e]+$/.test(value) ||
    secretKinds(value).length > 0 ||
    highEntropyBlob(value) !== undefined
  )
    return 'a value that is not shown';
  return JSON.stringify(value);
}

/** `id@revision` when both follow their grammars and look like no credential, so nothing else of a host object is ever quoted. */
function identityText(identity: ComponentIdentity): string {
  return isQuotableIdentity(identity.id, identity.revision)
    ? `\`${identity.id}@${identity.revision}\``
    : 'a component whose id or revision is not shown (not well-formed, or it looks like a credential)';
}

type Members = ReadonlyMap<string, HostMember>;

function memberValue(members: Members, key: string): unknown {
  const found = members.get(key);
  return found?.present === true ? found.value : undefined;
}

/** The exact `{id, revision}` of a binding, or a finding. */
function readIdentity(members: Members, pointer: string, what: string): ComponentIdentity | Finding {
  const read = readApplicationJson(memberValue(members, 'component'));
  const place = `${pointer}/component`;
  const shape = {
    rule: BINDING_RULE,
    path: place,
    message: `the \`component\` of ${what} must be plain JSON {"id": string, "revision": string} naming one exact pack component`,
    suggestion: 'name the component by its exact id and revision, as its pack defines it',
  };
  if (!read.ok || read.value === null || typeof read.value !== 'object' || Array.isArray(read.value)) return shape;
  const keys = Object.keys(read.value);
  const { id, revision } = read.value as { id?: JsonValue; revision?: JsonValue };
  if (keys.length !== 2 || typeof id !== 'string' || typeof revision !== 'string') return shape;
  return { id, revision };
}

function isFinding(value: unknown): value is Finding {
  return typeof value === 'object' && value !== null && 'rule' in value;
}

/** An own function member, or a finding saying why not. `optional`: absent (or undefined) is fine. */
function readFunction(
  members: Members,
  key: string,
  pointer: string,
  what: string,
  optional: boolean,
): ((...args: unknown[]) => unknown) | undefined | Finding {
  const found = members.get(key);
  const value = found?.present === true ? found.value : undefined;
  if (typeof value === 'function') return value as (...args: unknown[]) => unknown;
  if (optional && value === undefined) return undefined;
  return {
    rule: BINDING_RULE,
    path: `${pointer}/${key}`,
    message:
      found?.present === true
        ? `\`${key}\` of ${what} must be a function, not ${value === null ? 'null' : typeof value}`
        : `\`${key}\` of ${what} is missing: it must be the object's own function (a method inherited from a class prototype is not read)`,
    suggestion: `define \`${key}\` as an own property of the object (for example \`{ ${key}: async (…) => … }\`)`,
  };
}

/** Where each identity is defined, first claim only (repeated claims are the registry's findings). */
function claimsByIdentity(claims: readonly PackComponentClaim[]): Map<string, PackComponentClaim> {
  const byIdentity = new Map<string, PackComponentClaim>();
  for (const claim of claims) {
    const key = identityKey(claim);
    if (!byIdentity.has(key)) byIdentity.set(key, claim);
  }
  return byIdentity;
}

/** The claim a binding names, or a finding: a built-in, an unknown component, or one already bound. */
function matchClaim(
  identity: ComponentIdentity,
  pointer: string,
  kind: 'adapter' | 'owner resolver',
  list: string,
  claims: ReadonlyMap<string, PackComponentClaim>,
  builtins: ReadonlySet<string>,
  bound: Map<string, string>,
): PackComponentClaim | Finding {
  const key = identityKey(identity);
  if (builtins.has(key)) {
    return {
      rule: BINDING_RULE,
      path: `${pointer}/component`,
      message: `${identityText(identity)} is a built-in component: agentdef binds its own ${kind}s, and a host supplies ${kind}s for pack components only`,
      suggestion: `remove this entry from \`${list}\``,
    };
  }
  const claim = claims.get(key);
  if (claim === undefined) {
    return {
      rule: BINDING_RULE,
      path: `${pointer}/component`,
      message: `no pack defines ${identityText(identity)}: an ${kind} binds exactly one component of an admitted pack, by exact id and revision`,
      suggestion: `remove this entry from \`${list}\`, or admit the pack (at the exact revision) that defines the component`,
    };
  }
  const earlier = bound.get(key);
  if (earlier !== undefined) {
    return {
      rule: BINDING_RULE,
      path: pointer,
      message: `${identityText(identity)} already has the ${kind} at ${earlier}: exactly one ${kind} binds each pack component, so this one is ambiguous`,
      suggestion: `keep one ${kind} for the component and remove the other`,
    };
  }
  bound.set(key, pointer);
  return claim;
}

/** Findings for every descriptor member that differs from the definition. */
function descriptorFindings(
  members: Members,
  definition: BuiltinComponentDefinition,
  claim: PackComponentClaim,
  pointer: string,
): Finding[] {
  const findings: Finding[] = [];
  const expected: readonly [string, string][] = [
    ['interface', definition.interface],
    ['capability', definition.capability],
    ['sideEffect', definition.sideEffect],
    ['replay', definition.replay],
    ['owner', definition.owner.name],
  ];
  const component = `component ${identityText(claim)} (${claim.pointer})`;
  for (const [key, value] of expected) {
    const declared = memberValue(members, key);
    if (declared === value) continue;
    findings.push({
      rule: BINDING_RULE,
      path: `${pointer}/${key}`,
      message: `the adapter declares \`${key}\` ${quoteHostText(declared)}, but ${component} defines ${quoteHostText(value)}: an adapter's descriptor must equal its component's definition exactly`,
      suggestion: `review the adapter against the pack; an adapter that implements ${quoteHostText(value)} declares exactly that`,
    });
  }
  const modes = readApplicationJson(memberValue(members, 'modes'));
  const wanted = [...definition.modes].sort();
  const declared = modes.ok && Array.isArray(modes.value) ? modes.value : undefined;
  const exact =
    declared !== undefined &&
    declared.length === wanted.length &&
    declared.every((mode) => typeof mode === 'string' && MODES.includes(mode as ExecutionMode)) &&
    new Set(declared).size === declared.length &&
    [...(declared as string[])].sort().every((mode, index) => mode === wanted[index]);
  if (!exact) {
    findings.push({
      rule: BINDING_RULE,
      path: `${pointer}/modes`,
      message: `the adapter's \`modes\` are not exactly the set ${component} defines (${JSON.stringify(definition.modes)}): an adapter declares exactly its component's modes, each once`,
      suggestion: `set \`modes\` to ${JSON.stringify(definition.modes)}`,
    });
  }
  return findings;
}

/** A frozen adapter for an admitted binding: the definition's descriptor, and wrappers of the captured functions. */
function boundAdapter(
  host: object,
  definition: BuiltinComponentDefinition,
  execute: (...args: unknown[]) => unknown,
  checkConfig: ((...args: unknown[]) => unknown) | undefined,
): ComponentAdapter {
  const adapter: ComponentAdapter = {
    component: Object.freeze({ id: definition.id, revision: definition.revision }),
    interface: definition.interface,
    capability: definition.capability,
    sideEffect: definition.sideEffect,
    replay: definition.replay,
    modes: Object.freeze([...definition.modes]),
    owner: definition.owner.name,
    execute: Object.freeze(
      async (call: AdapterCall): Promise<AdapterOutcome> =>
        (await Reflect.apply(execute, host, [call])) as AdapterOutcome,
    ),
    ...(checkConfig === undefined
      ? {}
      : {
          checkConfig: Object.freeze(
            async (config: JsonValue, pointer: string, mode: ExecutionMode): Promise<NodeCheck> =>
              (await Reflect.apply(checkConfig, host, [config, pointer, mode])) as NodeCheck,
          ),
        }),
  };
  return Object.freeze(adapter);
}

function boundResolver(
  host: object,
  definition: BuiltinComponentDefinition,
  resolve: (...args: unknown[]) => unknown,
): OwnerResolver {
  return Object.freeze({
    component: Object.freeze({ id: definition.id, revision: definition.revision }),
    owner: definition.owner.name,
    resolve: Object.freeze(
      async (): Promise<OwnerEvidence> => (await Reflect.apply(resolve, host, [])) as OwnerEvidence,
    ),
  });
}

const ADAPTER_KEYS = [
  'component',
  'interface',
  'capability',
  'sideEffect',
  'replay',
  'modes',
  'owner',
  'execute',
  'checkConfig',
];
const RESOLVER_KEYS = ['component', 'owner', 'resolve'];

function compareIdentity(a: { component: ComponentIdentity }, b: { component: ComponentIdentity }): number {
  const x = identityKey(a.component);
  const y = identityKey(b.component);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Admits `adapters` and `ownerResolvers` (host values, at `/adapters` and `/ownerResolvers`) for
 * the pack components `claims`; `builtins` holds the identity keys of the built-in components.
 */
export function admitHostBindings(
  adapters: unknown,
  ownerResolvers: unknown,
  claims: readonly PackComponentClaim[],
  builtins: ReadonlySet<string>,
): HostBindings {
  const findings: Finding[] = [];
  const byIdentity = claimsByIdentity(claims);
  const admittedAdapters: ComponentAdapter[] = [];
  const admittedResolvers: OwnerResolver[] = [];
  const adapterBound = new Map<string, string>();
  const resolverBound = new Map<string, string>();

  const adapterList = readHostArray(adapters, '/adapters', '`adapters`', PACK_LIMITS.maxComponentsTotal, BINDING_RULE);
  if (!adapterList.ok) findings.push(...adapterList.findings);
  else
    adapterList.items.forEach((host, index) => {
      const pointer = `/adapters/${index}`;
      const what = `the adapter at ${pointer}`;
      const read = readHostMembers(host, pointer, what, ADAPTER_KEYS, BINDING_RULE);
      if (!read.ok) return void findings.push(...read.findings);
      const identity = readIdentity(read.members, pointer, what);
      const execute = readFunction(read.members, 'execute', pointer, what, false);
      const checkConfig = readFunction(read.members, 'checkConfig', pointer, what, true);
      const problems = [identity, execute, checkConfig].filter(isFinding);
      if (isFinding(identity)) return void findings.push(...problems);
      const claim = matchClaim(identity, pointer, 'adapter', 'adapters', byIdentity, builtins, adapterBound);
      if (isFinding(claim)) return void findings.push(claim, ...problems);
      findings.push(...problems);
      if (claim.definition === undefined) return; // the pack's own findings say what is wrong with the component
      const mismatches = descriptorFindings(read.members, claim.definition, claim, pointer);
      findings.push(...mismatches);
      if (problems.length === 0 && mismatches.length === 0)
        admittedAdapters.push(
          boundAdapter(
            host as object,
            claim.definition,
            execute as (...args: unknown[]) => unknown,
            checkConfig as ((...args: unknown[]) => unknown) | undefined,
          ),
        );
    });

  const resolverList = readHostArray(
    ownerResolvers,
    '/ownerResolvers',
    '`ownerResolvers`',
    PACK_LIMITS.maxComponentsTotal,
    BINDING_RULE,
  );
  if (!resolverList.ok) findings.push(...resolverList.findings);
  else
    resolverList.items.forEach((host, index) => {
      const pointer = `/ownerResolvers/${index}`;
      const what = `the owner resolver at ${pointer}`;
      const read = readHostMembers(host, pointer, what, RESOLVER_KEYS, BINDING_RULE);
      if (!read.ok) return void findings.push(...read.findings);
      const identity = readIdentity(read.members, pointer, what);
      const resolve = readFunction(read.members, 'resolve', pointer, what, false);
      const problems = [identity, resolve].filter(isFinding);
      if (isFinding(identity)) return void findings.push(...problems);
      const claim = matchClaim(
        identity,
        pointer,
        'owner resolver',
        'ownerResolvers',
        byIdentity,
        builtins,
        resolverBound,
      );
      if (isFinding(claim)) return void findings.push(claim, ...problems);
      findings.push(...problems);
      if (claim.definition === undefined) return;
      const owner = memberValue(read.members, 'owner');
      if (owner !== claim.definition.owner.name) {
        findings.push({
          rule: BINDING_RULE,
          path: `${pointer}/owner`,
          message: `the owner resolver names the owner ${quoteHostText(owner)}, but component ${identityText(claim)} (${claim.pointer}) is owned by ${quoteHostText(claim.definition.owner.name)}: a resolver resolves exactly its component's owner`,
          suggestion: `set \`owner\` to ${quoteHostText(claim.definition.owner.name)}, after checking the resolver really resolves that owner`,
        });
        return;
      }
      if (problems.length === 0)
        admittedResolvers.push(
          boundResolver(host as object, claim.definition, resolve as (...args: unknown[]) => unknown),
        );
    });

  // Missing bindings, for every well-formed pack component (a list that could not be read has its own finding).
  for (const [key, claim] of byIdentity) {
    if (claim.definition === undefined) continue;
    for (const [readable, bound, kind, list] of [
      [adapterList.ok, adapterBound, 'adapter', '/adapters'],
      [resolverList.ok, resolverBound, 'owner resolver', '/ownerResolvers'],
    ] as const) {
      if (!readable || bound.has(key)) continue;
      findings.push({
        rule: BINDING_RULE,
        path: list,
        message: `pack component ${identityText(claim)} (${claim.pointer}) has no ${kind}: the host supplies exactly one ${kind} for each pack component at start-up`,
        suggestion: `add one ${kind} for ${identityText(claim)} to \`${list.slice(1)}\`, or leave the pack out`,
      });
    }
  }

  return {
    findings,
    adapters: admittedAdapters.sort(compareIdentity),
    ownerResolvers: admittedResolvers.sort(compareIdentity),
  };
}
