/**
 * Walks a JSON Schema: every subschema with its JSON Pointer, visiting schema positions only
 * (`properties` and `$defs` are maps of schemas, not schemas). Used by the tests that prove the
 * MCP tools' input schemas are closed at every object level and hold no open value.
 */
export type SchemaNode = Record<string, unknown>;

const SCHEMA_MAPS = ['properties', '$defs', 'definitions', 'patternProperties', 'dependentSchemas'];
const SCHEMA_VALUES = [
  'items',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
  'additionalItems',
];
const SCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];

/** `schema` and every subschema in it, each with its pointer (`""` is `schema` itself). */
export function subschemas(schema: unknown, pointer = ''): [string, SchemaNode][] {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return [[pointer, schema as SchemaNode]];
  const node = schema as SchemaNode;
  const found: [string, SchemaNode][] = [[pointer, node]];
  for (const key of SCHEMA_MAPS) {
    const map = node[key];
    if (map !== null && typeof map === 'object')
      for (const [name, sub] of Object.entries(map as SchemaNode))
        found.push(...subschemas(sub, `${pointer}/${key}/${name}`));
  }
  for (const key of SCHEMA_VALUES) {
    if (node[key] !== null && typeof node[key] === 'object') found.push(...subschemas(node[key], `${pointer}/${key}`));
  }
  for (const key of SCHEMA_LISTS) {
    const list = node[key];
    if (Array.isArray(list)) list.forEach((sub, index) => found.push(...subschemas(sub, `${pointer}/${key}/${index}`)));
  }
  return found;
}

/** Why `schema` is not closed: each subschema that is an object level without `additionalProperties: false`, is untyped, or refers elsewhere. */
export function openPlaces(schema: unknown): string[] {
  const places: string[] = [];
  for (const [pointer, node] of subschemas(schema)) {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) {
      places.push(`${pointer}: not a schema object`);
      continue;
    }
    if ((node.type === 'object' || node.properties !== undefined) && node.additionalProperties !== false)
      places.push(`${pointer}: an object level without additionalProperties: false`);
    if (typeof node.type !== 'string' && node.enum === undefined && node.const === undefined)
      places.push(`${pointer}: an untyped (open) value`);
    for (const open of [
      '$ref',
      '$dynamicRef',
      'patternProperties',
      'unevaluatedProperties',
      'propertyNames',
      'dependentSchemas',
      'if',
    ]) {
      if (node[open] !== undefined) places.push(`${pointer}: uses ${open}`);
    }
  }
  return places;
}
