/**
 * Whether the input schema an MCP server publishes for a tool matches the one the tool inventory
 * declares. Compared: the property names, each property's `type` (and `items.type` for arrays),
 * and the `required` list. Descriptions, `$schema`, `additionalProperties` and defaults are not
 * compared: servers generate them differently without changing what a call may carry.
 * Returns the first difference as a short phrase, or undefined when they agree.
 */
type Schema = Record<string, unknown>;

const isObject = (v: unknown): v is Schema => v !== null && typeof v === 'object' && !Array.isArray(v);

function typeOf(schema: unknown): string {
  if (!isObject(schema)) return 'any';
  const t = schema['type'];
  const base = Array.isArray(t) ? [...t].map(String).sort().join('|') : typeof t === 'string' ? t : 'any';
  if (base === 'array' && isObject(schema['items'])) return `array<${typeOf(schema['items'])}>`;
  return base;
}

export function inputSchemaDifference(declared: Schema, offered: unknown): string | undefined {
  const server = isObject(offered) ? offered : {};
  const declaredProps = isObject(declared['properties']) ? declared['properties'] : {};
  const serverProps = isObject(server['properties']) ? server['properties'] : {};
  for (const name of Object.keys(declaredProps).sort()) {
    if (!(name in serverProps)) return `the server has no argument "${name}"`;
    const want = typeOf(declaredProps[name]);
    const got = typeOf(serverProps[name]);
    if (want !== got) return `argument "${name}" is ${got} on the server, ${want} in the inventory`;
  }
  for (const name of Object.keys(serverProps).sort())
    if (!(name in declaredProps)) return `the server has an extra argument "${name}"`;
  const required = (s: Schema) => (Array.isArray(s['required']) ? s['required'].map(String).sort() : []);
  const want = required(declared);
  const got = required(server);
  if (want.join(',') !== got.join(','))
    return `required arguments differ (server: ${got.join(', ') || 'none'}; inventory: ${want.join(', ') || 'none'})`;
  return undefined;
}
