/** The semver policy covers every field of the AgentDefinition schema, and names no field the schema lacks. */
import { describe, expect, it } from 'vitest';
import schema from '../schema/agent-definition.v1.schema.json';
import { CHANGE_POLICY, fieldRule } from './definition-change-policy';

type SchemaNode = Record<string, unknown>;

function resolveRef(node: SchemaNode): SchemaNode {
  const ref = node.$ref;
  if (typeof ref !== 'string') return node;
  const name = ref.replace('#/$defs/', '');
  return resolveRef((schema.$defs as Record<string, SchemaNode>)[name]!);
}

/** Every schema path a walker can reach (JSON Pointer, `*` for array items), stopping below a leaf rule. */
function schemaPaths(node: SchemaNode, path: string, out: string[]): void {
  out.push(path);
  const rule = fieldRule(path);
  if (rule && rule.walk !== 'object' && rule.walk !== 'keyed') return;
  const resolved = resolveRef(node);
  const properties = resolved.properties as Record<string, SchemaNode> | undefined;
  for (const [name, child] of Object.entries(properties ?? {})) schemaPaths(child, `${path}/${name}`, out);
  const items = resolved.items as SchemaNode | undefined;
  if (items) schemaPaths(items, `${path}/*`, out);
}

describe('the semver policy table', () => {
  const paths: string[] = [];
  schemaPaths(schema as unknown as SchemaNode, '', paths);

  it('classifies every field of agent-definition.v1.schema.json', () => {
    const unclassified = paths.filter((p) => fieldRule(p) === undefined);
    expect(unclassified).toEqual([]);
    expect(paths.length).toBeGreaterThan(80);
  });

  it('names only fields the schema has', () => {
    const reachable = new Set(paths);
    expect(Object.keys(CHANGE_POLICY).filter((p) => !reachable.has(p))).toEqual([]);
  });

  it('walks object and keyed fields only where the schema has an object or an array of objects', () => {
    for (const path of paths) {
      const rule = fieldRule(path)!;
      if (rule.walk === 'keyed') expect(fieldRule(`${path}/*`), path).toBeDefined();
    }
  });

  it('does not classify the fields that change with every version', () => {
    expect(fieldRule('/identity/versionSemver')?.walk).toBe('ignored');
    expect(fieldRule('/identity/versionId')?.walk).toBe('ignored');
    expect(Object.values(CHANGE_POLICY).filter((r) => r.walk === 'ignored')).toHaveLength(2);
  });
});
