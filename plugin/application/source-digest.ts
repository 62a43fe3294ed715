/**
 * Source digests: the `source.sha256` an application manifest or a component pack carries about
 * itself. It is the lowercase hex SHA-256 of the UTF-8 canonical application JSON
 * (./stable-json.ts) of the document with only `source.sha256` left out, whatever that member holds
 * (a placeholder, a stale digest, nothing at all). So the placeholder flow works: assemble the
 * document with any placeholder, compute the digest, write it in; recomputing then gives the same
 * value.
 *
 * A manifest's unordered identity collections (`nodes`, `edges`, `entrypoints`, `outputs`) are
 * ordered by their identities before hashing, so reordering them never changes the digest.
 * A pack's top-level `components` array is ordered by exact `id`, then exact `revision` (code-unit
 * order; equal pairs, which admission refuses anyway, by their canonical text) before hashing, so the
 * order in which a pack lists its components is not part of its identity. Every other array keeps
 * its order and every string its exact code units: byte equality, not visual equivalence, defines a
 * revision. The functions never throw and never modify their input.
 */
import {
  type ApplicationJsonDigest,
  type ApplicationJsonFailure,
  canonicalText,
  digestPlainJson,
  type JsonValue,
  readApplicationJson,
} from './stable-json';

/** Exactly 64 lowercase hexadecimal characters: the form of every SHA-256 in application documents. */
export const SHA256_HEX = /^[0-9a-f]{64}$/;

/** The member every source digest leaves out. */
export const SOURCE_DIGEST_POINTER = '/source/sha256';

/** The `source.sha256` an application manifest must carry. */
export function digestApplicationManifestSource(manifest: unknown): ApplicationJsonDigest {
  const read = readDocument(manifest, 'an application manifest');
  return read.ok ? digestPlainJson(orderManifestCollections(read.value)) : read;
}

/**
 * The manifest's unordered identity collections in digest order, so that reordering them never
 * changes the digest: `nodes` by `id`, `edges` by `from.node`, `from.port`, `to.node`, `to.port`,
 * `entrypoints` by `node`, `port`, `outputs` by `name`, `node`, `port` (code-unit order; members
 * with equal identities, which validation refuses anyway, and malformed members by their
 * canonical text). Every other array keeps its order.
 */
const MANIFEST_IDENTITIES: Readonly<Record<string, readonly (readonly string[])[]>> = {
  nodes: [['id']],
  edges: [
    ['from', 'node'],
    ['from', 'port'],
    ['to', 'node'],
    ['to', 'port'],
  ],
  entrypoints: [['node'], ['port']],
  outputs: [['name'], ['node'], ['port']],
};

function orderManifestCollections(document: { [key: string]: JsonValue }): { [key: string]: JsonValue } {
  const ordered: { [key: string]: JsonValue } = Object.assign(Object.create(null), document);
  for (const [member, identity] of Object.entries(MANIFEST_IDENTITIES)) {
    const items = Object.hasOwn(document, member) ? document[member] : undefined;
    if (!Array.isArray(items)) continue;
    const keyed = items.map((item) => ({
      item,
      keys: identity.map((path) => identityPart(item, path)),
      text: undefined as string | undefined,
    }));
    const textOf = (entry: (typeof keyed)[number]): string => {
      if (entry.text === undefined) {
        const text = canonicalText(entry.item);
        entry.text = text.ok ? text.text : '';
      }
      return entry.text;
    };
    keyed.sort(
      (a, b) =>
        a.keys.reduce((order, key, i) => order || compareCodeUnits(key, b.keys[i] as string), 0) ||
        compareCodeUnits(textOf(a), textOf(b)),
    );
    ordered[member] = keyed.map((entry) => entry.item);
  }
  return ordered;
}

/** The string at `path` inside `value`, or `''` when there is none. */
function identityPart(value: JsonValue, path: readonly string[]): string {
  let current: JsonValue | undefined = value;
  for (const segment of path) {
    if (current === null || typeof current !== 'object' || Array.isArray(current) || !Object.hasOwn(current, segment))
      return '';
    current = current[segment];
  }
  return typeof current === 'string' ? current : '';
}

/** The `source.sha256` a component pack must carry. */
export function digestComponentPackSource(pack: unknown): ApplicationJsonDigest {
  const read = readDocument(pack, 'a component pack');
  if (!read.ok) return read;
  const document = read.value;
  if (!('components' in document)) return digestPlainJson(document);
  const ordered = orderComponents(document['components'] as JsonValue);
  if (!Array.isArray(ordered)) return ordered;
  return digestPlainJson({ ...document, components: ordered });
}

/** A detached, checked copy of a document without `source.sha256`; it must be a JSON object. */
function readDocument(
  value: unknown,
  what: string,
): { ok: true; value: { [key: string]: JsonValue } } | ApplicationJsonFailure {
  const read = readApplicationJson(value, { omit: [SOURCE_DIGEST_POINTER] });
  if (!read.ok) return read;
  if (read.value === null || typeof read.value !== 'object' || Array.isArray(read.value))
    return { ok: false, pointer: '', reason: `${what} must be a JSON object` };
  return { ok: true, value: read.value };
}

/** The components of a pack in digest order, or why they cannot be ordered. */
function orderComponents(components: JsonValue): JsonValue[] | ApplicationJsonFailure {
  if (!Array.isArray(components))
    return { ok: false, pointer: '/components', reason: 'the components of a pack must be an array' };
  const keyed: { id: string; revision: string; component: JsonValue; text?: string }[] = [];
  for (const [index, component] of components.entries()) {
    if (component === null || typeof component !== 'object' || Array.isArray(component))
      return { ok: false, pointer: `/components/${index}`, reason: 'a component must be a JSON object' };
    const { id, revision } = component;
    if (typeof id !== 'string')
      return { ok: false, pointer: `/components/${index}/id`, reason: 'a component id must be a string' };
    if (typeof revision !== 'string')
      return { ok: false, pointer: `/components/${index}/revision`, reason: 'a component revision must be a string' };
    keyed.push({ id, revision, component });
  }
  const textOf = (entry: (typeof keyed)[number]): string => {
    if (entry.text === undefined) {
      const text = canonicalText(entry.component);
      entry.text = text.ok ? text.text : '';
    }
    return entry.text;
  };
  keyed.sort(
    (a, b) =>
      compareCodeUnits(a.id, b.id) ||
      compareCodeUnits(a.revision, b.revision) ||
      compareCodeUnits(textOf(a), textOf(b)),
  );
  return keyed.map((entry) => entry.component);
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
