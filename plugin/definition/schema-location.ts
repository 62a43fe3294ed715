/**
 * The schema node that describes the value at a JSON Pointer in a document: walks the schema
 * along the document's path (following `$ref`, `properties`, `items` and `additionalProperties`,
 * and picking the `oneOf` / `anyOf` branch the value matches). Diagnostics use it to say what a
 * nested object allows: the generated validators report `schemaPath` relative to the referenced
 * definition (`#/additionalProperties`), which cannot be located in the root schema. Pure.
 */
import { escapePointerSegment, getAtPointer, parsePointer } from './json-pointer';

type SchemaNode = Record<string, unknown>;

const isNode = (value: unknown): value is SchemaNode =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Follows local `$ref`s (`#/$defs/Name`), at most a few levels deep. */
function deref(root: unknown, node: SchemaNode | undefined): SchemaNode | undefined {
  let current = node;
  for (let hops = 0; current && typeof current.$ref === 'string' && hops < 16; hops++) {
    const ref = current.$ref;
    if (!ref.startsWith('#')) return undefined;
    const target = getAtPointer(root, ref.slice(1));
    current = isNode(target) ? target : undefined;
  }
  return current;
}

/** Whether `branch` can describe `value`: its `const` / `enum` properties agree with the value's. */
function branchMatches(root: unknown, branch: SchemaNode, value: unknown): boolean {
  if (!isNode(value)) return branch.type !== 'object';
  if (branch.type !== undefined && branch.type !== 'object') return false;
  const properties = isNode(branch.properties) ? branch.properties : {};
  for (const [key, raw] of Object.entries(properties)) {
    const property = deref(root, isNode(raw) ? raw : undefined);
    const actual = getAtPointer(value, `/${escapePointerSegment(key)}`);
    if (!property || actual === undefined) continue;
    if ('const' in property && property.const !== actual) return false;
    if (Array.isArray(property.enum) && !property.enum.includes(actual)) return false;
  }
  return true;
}

/** The `oneOf` / `anyOf` branch of `node` that describes `value` (the node itself when it has none). */
function pickBranch(root: unknown, node: SchemaNode | undefined, value: unknown): SchemaNode | undefined {
  let current = deref(root, node);
  for (let depth = 0; current && depth < 8; depth++) {
    const branches = Array.isArray(current.oneOf)
      ? current.oneOf
      : Array.isArray(current.anyOf)
        ? current.anyOf
        : undefined;
    if (!branches) return current;
    const resolved = branches
      .map((b) => deref(root, isNode(b) ? b : undefined))
      .filter((b): b is SchemaNode => b !== undefined);
    current =
      resolved.find((b) => branchMatches(root, b, value)) ??
      resolved.find((b) => isNode(value) === (b.type === 'object'));
  }
  return current;
}

/**
 * The schema node for the value at `pointer` in `data`, or undefined when the schema cannot be
 * followed there (a path the schema does not describe, or a remote `$ref`).
 */
export function schemaNodeForInstance(schema: unknown, data: unknown, pointer: string): SchemaNode | undefined {
  let node = pickBranch(schema, isNode(schema) ? schema : undefined, data);
  let value = data;
  for (const segment of parsePointer(pointer)) {
    if (!node) return undefined;
    let next: unknown;
    if (Array.isArray(value)) {
      next = Array.isArray(node.prefixItems) ? (node.prefixItems[Number(segment)] ?? node.items) : node.items;
    } else {
      const properties = isNode(node.properties) ? node.properties : {};
      next = Object.hasOwn(properties, segment) ? properties[segment] : node.additionalProperties;
    }
    value = getAtPointer(value, `/${escapePointerSegment(segment)}`);
    node = pickBranch(schema, isNode(next) ? next : undefined, value);
  }
  return node;
}

/** The property names the schema node at `pointer` allows, in schema order (empty when unknown). */
export function allowedFieldsAt(schema: unknown, data: unknown, pointer: string): string[] {
  const node = schemaNodeForInstance(schema, data, pointer);
  return node && isNode(node.properties) ? Object.keys(node.properties) : [];
}
