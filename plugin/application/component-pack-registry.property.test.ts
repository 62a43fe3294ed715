/**
 * Property tests of pack admission. Random options (anything at all, random packs and host
 * objects, and valid options with random edits: a member replaced by any value or a hostile object,
 * removed or added, components and bindings reordered, dropped or repeated, then re-sealed or not)
 * never make `createApplicationComponentPackRegistry` throw. Every result is either `ok: false`
 * with well-formed findings located inside the options, or a consistent `ok: true`: each admitted
 * pack carries its real source digest, each component has exactly one adapter and one resolver
 * whose descriptor equals its definition, the registry is deep-frozen, and the catalog builds.
 * Enough edits keep the options valid for the second branch to mean something.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../definition/diagnostic';
import {
  adapterFor,
  optionsFor,
  ownerResolverFor,
  sealedPack,
  syntheticPack,
  validPack,
  validRegistryOptions,
} from './__test-support__/component-packs';
import { builtinComponents } from './builtin-components';
import { catalogFromDefinitions } from './catalog';
import { type ComponentPackRegistryResult, createApplicationComponentPackRegistry } from './component-pack-registry';
import { digestComponentPackSource } from './source-digest';

type Any = any;

/** Hostile values, made fresh each time. */
const HOSTILE: readonly (() => unknown)[] = [
  () => new Proxy({}, {}),
  () => {
    const revocable = Proxy.revocable({}, {});
    revocable.revoke();
    return revocable.proxy;
  },
  () =>
    Object.defineProperty({}, 'id', {
      get: () => {
        throw new Error('getter');
      },
      enumerable: true,
    }),
  () => {
    const cycle: Any = { a: 1 };
    cycle.self = cycle;
    return cycle;
  },
  () => new Date(0),
  () => Object.create({ inherited: true }),
  () => {
    const sparse = [1, 2, 3];
    delete sparse[1];
    return sparse;
  },
  () => Symbol('s'),
  () => 10n,
  () => () => 'fn',
  () => Number.NaN,
  () => '\ud800',
  () => Object.defineProperty({}, 'hidden', { value: 1, enumerable: false }),
];

/**
 * Any value, as a thunk that makes it: hostile values are only made inside the property, so
 * fast-check itself never inspects a revoked Proxy.
 */
const anyValue: fc.Arbitrary<() => unknown> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .anything({ maxDepth: 3, withNullPrototype: true, withSparseArray: true, withBoxedValues: true })
      .map((value) => () => value),
  },
  { weight: 1, arbitrary: fc.constantFrom(...HOSTILE) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(
        'agentdef.input',
        'acme.text.summarise',
        '1.0.0',
        'workspace://host',
        'urn:agentdef:http:x',
        'live',
        'external',
        'command',
        'token',
      )
      .map((value) => () => value),
  },
);

/** Every JSON Pointer of a plain value, as token lists. */
function places(value: unknown, prefix: string[] = []): string[][] {
  const here: string[][] = [prefix];
  if (value !== null && typeof value === 'object')
    for (const [key, child] of Object.entries(value)) here.push(...places(child, [...prefix, key]));
  return here;
}

/** The object holding the member at `tokens`, when there is one the edit can change. */
function parentOf(root: Any, tokens: readonly string[]): Any {
  let parent = root;
  for (const token of tokens.slice(0, -1))
    parent = parent !== null && typeof parent === 'object' ? parent[token] : undefined;
  return parent !== null && typeof parent === 'object' && !Object.isFrozen(parent) ? parent : undefined;
}

/** Edits are best effort: a member an exotic value does not let the test change is left as it is. */
function setAt(root: Any, tokens: readonly string[], value: unknown): void {
  const parent = tokens.length === 0 ? undefined : parentOf(root, tokens);
  if (parent !== undefined) Reflect.set(parent, tokens[tokens.length - 1] as string, value);
}

function deleteAt(root: Any, tokens: readonly string[]): void {
  const parent = tokens.length === 0 ? undefined : parentOf(root, tokens);
  if (parent !== undefined) Reflect.deleteProperty(parent, tokens[tokens.length - 1] as string);
}

type Options = { packs: unknown[]; adapters: unknown[]; ownerResolvers: unknown[] };

/** One random edit of valid options. */
type Edit = (options: Options) => void;

const packEdit: fc.Arbitrary<Edit> = fc
  .tuple(fc.nat(), fc.constantFrom('set', 'delete', 'add'), anyValue, fc.string({ maxLength: 12 }), fc.boolean())
  .map(([index, kind, value, key, reseal]) => (options) => {
    const pack = options.packs[0] as Any;
    const all = places(pack);
    const tokens = all[index % all.length] as string[];
    if (kind === 'set') setAt(pack, tokens, value());
    else if (kind === 'delete') deleteAt(pack, tokens);
    else setAt(pack, [...tokens, key], value());
    if (reseal) {
      try {
        options.packs[0] = sealedPack(pack);
      } catch {
        // structuredClone refuses some hostile values: keep the pack unsealed
      }
    }
  });

const bindingEdit: fc.Arbitrary<Edit> = fc
  .tuple(
    fc.constantFrom('adapters', 'ownerResolvers'),
    fc.nat(),
    fc.constantFrom('set', 'delete', 'drop', 'repeat', 'replace'),
    fc.constantFrom(
      'component',
      'interface',
      'capability',
      'sideEffect',
      'replay',
      'modes',
      'owner',
      'execute',
      'resolve',
      'checkConfig',
    ),
    anyValue,
  )
  .map(([list, index, kind, key, value]) => (options) => {
    const items = options[list];
    const at = index % Math.max(1, items.length);
    if (kind === 'drop') items.splice(at, 1);
    else if (kind === 'repeat' && items[at] !== undefined) items.push(items[at]);
    else if (kind === 'replace') items[at] = value();
    else if (items[at] !== null && typeof items[at] === 'object') {
      if (kind === 'set') (items[at] as Any)[key] = value();
      else delete (items[at] as Any)[key];
    }
  });

/** Edits that keep the options valid. */
const benignEdit: fc.Arbitrary<Edit> = fc.constantFrom<Edit>(
  (options) => options.adapters.reverse(),
  (options) => options.ownerResolvers.reverse(),
  (options) => {
    const pack = options.packs[0] as Any;
    options.packs[0] = sealedPack({ ...pack, components: [...pack.components].reverse() });
  },
  (options) => {
    const extra = syntheticPack('acme.extra', 2);
    options.packs.push(extra);
    options.adapters.push(...extra.components.map((c) => adapterFor(c)));
    options.ownerResolvers.push(...extra.components.map(ownerResolverFor));
  },
  () => undefined,
);

/** Valid options with random edits, as a thunk (see anyValue). */
const editedOptions: fc.Arbitrary<() => Options> = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: packEdit },
      { weight: 2, arbitrary: bindingEdit },
      { weight: 2, arbitrary: benignEdit },
    ),
    { maxLength: 3 },
  )
  .map((edits) => () => {
    const options = validRegistryOptions() as Options;
    for (const edit of edits) edit(options);
    return options;
  });

/** Random options, as a thunk (see anyValue). */
const randomOptions: fc.Arbitrary<() => unknown> = fc.oneof(
  anyValue,
  fc
    .record({
      packs: fc.array(anyValue, { maxLength: 3 }),
      adapters: fc.array(anyValue, { maxLength: 3 }),
      ownerResolvers: fc.array(anyValue, { maxLength: 3 }),
    })
    .map((lists) => () => ({
      packs: lists.packs.map((make) => make()),
      adapters: lists.adapters.map((make) => make()),
      ownerResolvers: lists.ownerResolvers.map((make) => make()),
    })),
  fc
    .record({ packs: anyValue, adapters: anyValue, ownerResolvers: anyValue }, { requiredKeys: [] })
    .map((members) => () => Object.fromEntries(Object.entries(members).map(([key, make]) => [key, make()]))),
);

function isDeepFrozen(value: unknown, seen = new Set<unknown>()): boolean {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function') || seen.has(value)) return true;
  seen.add(value);
  return Object.isFrozen(value) && Object.values(value).every((member) => isDeepFrozen(member, seen));
}

const LOCATION = /^(?:|\/packs(?:\/.*)?|\/adapters(?:\/.*)?|\/ownerResolvers(?:\/.*)?)$/;

/** The property: a refusal with located findings, or a consistent registry. */
function checkResult(options: unknown, result: ComponentPackRegistryResult): boolean {
  if (!result.ok) {
    expect(result.findings.length).toBeGreaterThan(0);
    for (const finding of result.findings as Finding[]) {
      expect(typeof finding.rule).toBe('string');
      expect(finding.path).toMatch(LOCATION);
      expect(finding.message.length).toBeGreaterThan(0);
    }
    return false;
  }
  const { registry } = result;
  const packs = (options as Options).packs as Any[];
  expect(registry.packs).toHaveLength(packs.length);
  for (const pack of packs) {
    const digest = digestComponentPackSource(pack);
    expect(
      digest.ok &&
        registry.packs.some(
          (p) => p.id === pack.id && p.revision === pack.revision && p.sourceDigest === digest.sha256,
        ),
    ).toBe(true);
  }
  expect(registry.components).toHaveLength(packs.reduce((sum, pack) => sum + pack.components.length, 0));
  expect(registry.adapters).toHaveLength(registry.components.length);
  expect(registry.ownerResolvers).toHaveLength(registry.components.length);
  registry.components.forEach((definition, index) => {
    const adapter = registry.adapters[index];
    const resolver = registry.ownerResolvers[index];
    expect(adapter?.component).toEqual({ id: definition.id, revision: definition.revision });
    expect([adapter?.interface, adapter?.capability, adapter?.sideEffect, adapter?.replay, adapter?.owner]).toEqual([
      definition.interface,
      definition.capability,
      definition.sideEffect,
      definition.replay,
      definition.owner.name,
    ]);
    expect(adapter?.modes).toEqual(definition.modes);
    expect(resolver?.component).toEqual({ id: definition.id, revision: definition.revision });
    expect(resolver?.owner).toBe(definition.owner.name);
  });
  expect(isDeepFrozen(registry)).toBe(true);
  expect(catalogFromDefinitions([...builtinComponents(), ...registry.components], registry.packs).ok).toBe(true);
  return true;
}

describe('createApplicationComponentPackRegistry (properties)', () => {
  it('never throws on random options, and refuses them with located findings', () => {
    fc.assert(
      fc.property(randomOptions, (make) => {
        const options = make();
        let result: ComponentPackRegistryResult | undefined;
        expect(() => {
          result = createApplicationComponentPackRegistry(options as never);
        }).not.toThrow();
        checkResult(options, result as ComponentPackRegistryResult);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on randomly edited valid options: a located refusal or a consistent registry', () => {
    let admittedCount = 0;
    let refusedCount = 0;
    fc.assert(
      fc.property(editedOptions, (make) => {
        const options = make();
        let result: ComponentPackRegistryResult | undefined;
        expect(() => {
          result = createApplicationComponentPackRegistry(options as never);
        }).not.toThrow();
        if (checkResult(options, result as ComponentPackRegistryResult)) admittedCount++;
        else refusedCount++;
      }),
      { numRuns: 250 },
    );
    expect(admittedCount).toBeGreaterThan(10);
    expect(refusedCount).toBeGreaterThan(50);
  });

  it('admits any set of synthetic packs within the limits, whatever their order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 16 }), { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        (sizes, reverse) => {
          const packs = sizes.map((size, i) => syntheticPack(`acme.s${i}`, size));
          const options = optionsFor(reverse ? [...packs].reverse() : packs);
          const result = createApplicationComponentPackRegistry(options);
          expect(checkResult(options, result)).toBe(true);
        },
      ),
      { numRuns: 10 },
    );
  });

  it('the valid fixture is admitted (the base of the edits)', () => {
    expect(checkResult(validRegistryOptions(), createApplicationComponentPackRegistry(validRegistryOptions()))).toBe(
      true,
    );
    expect(validPack().components).toHaveLength(2);
  });
});
