/**
 * Every field of a JSON Schema, named by schema path: a JSON Pointer with `*` for an array item
 * (`/modelSet/*\/tier`, `/runtimeRequirements/limits/cpuMs`). `$ref`s into `$defs` are followed,
 * and the branches of a `oneOf` add their members to the same path (the binding kinds share
 * `/runtimeRequirements/bindings/*\/name`). A field is a leaf: a property whose schema declares no
 * members of its own (a string, a number, an array of scalars, an open object such as an embedded
 * JSON Schema); an object or an array of objects is walked, and its members are its fields.
 */

type SchemaNode = Record<string, unknown>;

function asNode(value: unknown): SchemaNode | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as SchemaNode) : undefined;
}

function resolve(root: SchemaNode, node: SchemaNode, seen: readonly string[]): SchemaNode | undefined {
  const ref = node['$ref'];
  if (typeof ref !== 'string') return node;
  if (seen.includes(ref) || !ref.startsWith('#/$defs/')) return undefined;
  const target = asNode(asNode(root['$defs'])?.[ref.slice('#/$defs/'.length)]);
  return target ? resolve(root, target, [...seen, ref]) : undefined;
}

/** The declared members of an object schema, its `oneOf` branches' included (first declaration wins). */
function members(root: SchemaNode, node: SchemaNode, seen: readonly string[]): Map<string, SchemaNode> {
  const out = new Map<string, SchemaNode>();
  const add = (owner: SchemaNode | undefined) => {
    for (const [name, child] of Object.entries(asNode(owner?.['properties']) ?? {})) {
      const member = asNode(child);
      if (member && !out.has(name)) out.set(name, member);
    }
  };
  add(node);
  for (const branch of Array.isArray(node['oneOf']) ? node['oneOf'] : []) {
    const b = asNode(branch);
    if (b) add(resolve(root, b, seen));
  }
  return out;
}

/** The schema paths of every leaf field of `schema`, in declaration order, each once. */
export function schemaFieldPaths(schema: Record<string, unknown>): string[] {
  const out: string[] = [];
  const walk = (node: SchemaNode, path: string, seen: readonly string[]) => {
    for (const [name, child] of members(schema, node, seen)) {
      const here = `${path}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      const ref = typeof child['$ref'] === 'string' ? [child['$ref'] as string] : [];
      const resolved = resolve(schema, child, seen);
      if (!resolved) continue;
      const items = asNode(resolved['items']);
      const item = items ? resolve(schema, items, seen) : undefined;
      const itemRef = items && typeof items['$ref'] === 'string' ? [items['$ref'] as string] : [];
      if (item && members(schema, item, seen).size > 0) walk(item, `${here}/*`, [...seen, ...ref, ...itemRef]);
      else if (members(schema, resolved, seen).size > 0) walk(resolved, here, [...seen, ...ref]);
      else if (!out.includes(here)) out.push(here);
    }
  };
  walk(schema, '', []);
  return out;
}
