/**
 * Test fixtures for component packs: a valid pack (`acme.text-tools@1.2.0`, two components: a
 * deterministic summariser and a word counter, both dry-run and live, offline), its host adapters
 * and owner resolvers, `sealedPack()` to write the real source digest into a changed copy, and
 * builders for synthetic packs of any size (limits tests) with bindings derived from any pack's
 * components. Every call returns fresh objects, so tests can change them freely.
 */
import type { BuiltinComponentDefinition } from '../builtin-components';
import {
  type AdapterCall,
  type AdapterOutcome,
  adapterDescriptorOf,
  type ComponentAdapter,
  type OwnerResolver,
} from '../component-adapter';
import type { ComponentPackRegistryOptions } from '../component-pack-registry';
import { PACK_SCHEMA_DRAFT } from '../pack-schema-dialect';
import { digestComponentPackSource } from '../source-digest';
import type { JsonValue } from '../stable-json';

export const TEXT_PACK_ID = 'acme.text-tools';
export const TEXT_PACK_REVISION = '1.2.0';
export const SUMMARISE_ID = 'acme.text.summarise';
export const WORD_COUNT_ID = 'acme.text.word-count';
export const COMPONENT_REVISION = '1.0.0';

/** A fixed, public owner evidence digest (not a secret: 64 hex characters of one repeated digit). */
export const OWNER_EVIDENCE_DIGEST = '1'.repeat(64);

export function summariseComponent(): BuiltinComponentDefinition {
  return {
    id: SUMMARISE_ID,
    revision: COMPONENT_REVISION,
    title: 'Extractive summary',
    description: 'Keeps the first words of a text, up to `maxWords`: deterministic, offline, no model.',
    interface: 'acme.component.summarise/v1',
    capability: 'acme.text.summarise',
    sideEffect: 'none',
    replay: 'deterministic',
    modes: ['dry-run', 'live'],
    owner: { name: 'acme.summariser', selection: 'host-injected' },
    ports: {
      inputs: { text: { kind: 'text', required: true, description: 'The text to summarise.' } },
      outputs: { summary: { kind: 'text', description: 'The first words of the text.' } },
    },
    configSchema: {
      $schema: PACK_SCHEMA_DRAFT,
      type: 'object',
      additionalProperties: false,
      required: ['maxWords'],
      properties: {
        maxWords: { type: 'integer', minimum: 1, maximum: 500, description: 'How many words to keep.' },
        style: { enum: ['brief', 'detailed'], description: 'A label kept with the summary.' },
      },
    },
  };
}

export function wordCountComponent(): BuiltinComponentDefinition {
  return {
    id: WORD_COUNT_ID,
    revision: COMPONENT_REVISION,
    title: 'Word count',
    description: 'Counts the words of a text: deterministic, offline.',
    interface: 'acme.component.word-count/v1',
    capability: 'acme.text.count',
    sideEffect: 'none',
    replay: 'deterministic',
    modes: ['dry-run', 'live'],
    owner: { name: 'acme.counter', selection: 'host-injected' },
    ports: {
      inputs: { text: { kind: 'text', required: true, description: 'The text to count.' } },
      outputs: { count: { kind: 'json', description: 'An object `{ words }`.' } },
    },
    configSchema: {
      $schema: PACK_SCHEMA_DRAFT,
      type: 'object',
      additionalProperties: false,
      properties: { description: { type: 'string', maxLength: 256, description: 'What this node is for.' } },
    },
  };
}

/** A deep copy of `pack` (any shape) with `source.sha256` set to its real digest (unchanged when it has none). */
export function sealedPack<T>(pack: T): T {
  const copy = structuredClone(pack) as { source?: { sha256?: string } };
  const digest = digestComponentPackSource(copy);
  if (digest.ok && copy.source !== null && typeof copy.source === 'object') copy.source.sha256 = digest.sha256;
  return copy as T;
}

/** The valid pack: `acme.text-tools@1.2.0` with the summariser and the word counter, sealed. */
export function validPack() {
  return sealedPack({
    schemaVersion: 'agentdef.component-pack/v1',
    id: TEXT_PACK_ID,
    revision: TEXT_PACK_REVISION,
    source: { uri: 'workspace:/packs/acme-text-tools/pack.json', sha256: '0'.repeat(64) },
    components: [summariseComponent(), wordCountComponent()],
  });
}

const words = (text: unknown): string[] =>
  typeof text === 'string' ? text.split(/\s+/).filter((word) => word.length > 0) : [];

/** What the text pack's adapters do: pure functions of config and inputs. */
const TEXT_BEHAVIOUR: Readonly<Record<string, (call: AdapterCall) => AdapterOutcome>> = {
  [SUMMARISE_ID]: (call) => {
    const maxWords = (call.config as { maxWords?: unknown } | null)?.maxWords;
    const limit = typeof maxWords === 'number' ? maxWords : 50;
    return { status: 'completed', outputs: { summary: words(call.inputs['text']).slice(0, limit).join(' ') } };
  },
  [WORD_COUNT_ID]: (call) => ({
    status: 'completed',
    outputs: { count: { words: words(call.inputs['text']).length } },
  }),
};

/** Echoes every input port with the same name on the outputs (what synthetic components do). */
const echo = (call: AdapterCall): AdapterOutcome => ({ status: 'completed', outputs: { ...call.inputs } });

/** An adapter whose descriptor equals `definition` exactly. */
export function adapterFor(
  definition: BuiltinComponentDefinition,
  execute: (call: AdapterCall) => AdapterOutcome = TEXT_BEHAVIOUR[definition.id] ?? echo,
): ComponentAdapter {
  return { ...adapterDescriptorOf(definition), execute: async (call) => execute(call) };
}

/** An owner resolver for `definition`'s owner, with fixed public evidence. */
export function ownerResolverFor(definition: BuiltinComponentDefinition): OwnerResolver {
  const evidence: JsonValue = { owner: definition.owner.name, profileDigest: OWNER_EVIDENCE_DIGEST };
  return {
    component: { id: definition.id, revision: definition.revision },
    owner: definition.owner.name,
    resolve: () => ({ ok: true, evidence }),
  };
}

type PackLike = { components: readonly BuiltinComponentDefinition[] };

/** Adapters and owner resolvers for every component of `packs`, in pack order. */
export function bindingsFor(
  packs: readonly PackLike[],
): Pick<ComponentPackRegistryOptions, 'adapters' | 'ownerResolvers'> {
  const components = packs.flatMap((pack) => pack.components);
  return {
    adapters: components.map((definition) => adapterFor(definition)),
    ownerResolvers: components.map(ownerResolverFor),
  };
}

export function validPackAdapters(): ComponentAdapter[] {
  return [adapterFor(summariseComponent()), adapterFor(wordCountComponent())];
}

export function validPackOwnerResolvers(): OwnerResolver[] {
  return [ownerResolverFor(summariseComponent()), ownerResolverFor(wordCountComponent())];
}

/** Registry options admitting the valid pack with its bindings. */
export function validRegistryOptions() {
  return {
    packs: [validPack()] as unknown[],
    adapters: validPackAdapters(),
    ownerResolvers: validPackOwnerResolvers(),
  };
}

/** A small generic component: `value` (json) in, `value` (json) out, closed config with one optional `label`. */
export function syntheticComponent(id: string, revision = COMPONENT_REVISION): BuiltinComponentDefinition {
  return {
    id,
    revision,
    title: `Synthetic ${id}`,
    description: 'A generic pass-through component for tests.',
    interface: 'test.component.pass-through/v1',
    capability: 'test.pass-through',
    sideEffect: 'none',
    replay: 'deterministic',
    modes: ['dry-run'],
    owner: { name: 'test.owner', selection: 'host-injected' },
    ports: {
      inputs: { value: { kind: 'json', required: true, description: 'Any value.' } },
      outputs: { value: { kind: 'json', description: 'The same value.' } },
    },
    configSchema: {
      $schema: PACK_SCHEMA_DRAFT,
      type: 'object',
      additionalProperties: false,
      properties: { label: { type: 'string', maxLength: 64, description: 'A label.' } },
    },
  };
}

/**
 * A sealed pack `id@revision` of `count` synthetic components (`<id>.c<n>`). `padding` extra
 * characters go into the first component's configuration schema description, to size the pack.
 */
export function syntheticPack(id: string, count: number, options: { revision?: string; padding?: number } = {}) {
  const components = Array.from({ length: count }, (_, index) => syntheticComponent(`${id}.c${index}`));
  if (options.padding !== undefined && components[0] !== undefined)
    components[0] = {
      ...components[0],
      configSchema: { ...components[0].configSchema, description: 'p'.repeat(options.padding) },
    };
  return sealedPack({
    schemaVersion: 'agentdef.component-pack/v1',
    id,
    revision: options.revision ?? '1.0.0',
    source: { uri: `urn:agentdef:test:${id}`, sha256: '0'.repeat(64) },
    components,
  });
}

/** Registry options for `packs` with bindings derived from their components. */
export function optionsFor(packs: readonly PackLike[]) {
  return { packs: [...packs] as unknown[], ...bindingsFor(packs) };
}
