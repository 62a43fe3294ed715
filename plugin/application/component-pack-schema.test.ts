/**
 * The published component pack JSON Schema: compiles in Ajv 2020 strict mode, closed everywhere but
 * the configuration schema (which the pack dialect governs), every member described, and its
 * constants and grammars spelled as the code and the manifest schema spell them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { describe, expect, it } from 'vitest';
import { validPack } from './__test-support__/component-packs';
import { builtinComponents } from './builtin-components';
import { COMPONENT_PACK_SCHEMA_VERSION } from './component-pack-registry';
import { PORT_KINDS } from './port-kinds';
import { SHA256_HEX } from './source-digest';
import { SOURCE_URI_MAX_LENGTH } from './source-uri';

const read = (name: string) => JSON.parse(readFileSync(join(__dirname, '..', 'schema', name), 'utf8'));
const schema = read('component-pack.v1.schema.json');
const manifest = read('application-manifest.v1.schema.json');

/** Every subschema with its JSON Pointer. */
function* subschemas(node: unknown, pointer = ''): Generator<[string, Record<string, Any>]> {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return;
  yield [pointer, node as Record<string, Any>];
  const n = node as Record<string, Any>;
  for (const key of ['properties', '$defs', 'patternProperties'])
    for (const [name, child] of Object.entries(n[key] ?? {})) yield* subschemas(child, `${pointer}/${key}/${name}`);
  if (n.items) yield* subschemas(n.items, `${pointer}/items`);
}

type Any = any;

describe('the component pack JSON Schema', () => {
  it('compiles in Ajv 2020 strict mode and accepts the valid pack', () => {
    const ajv = new Ajv2020({ strict: true, allErrors: true, unicodeRegExp: true });
    ajv.addKeyword({ keyword: 'x-message', schemaType: 'string' });
    const validate = ajv.compile(schema);
    expect(validate(validPack()), JSON.stringify(validate.errors)).toBe(true);
  });

  it('closes every object with additionalProperties: false, except the configuration schema', () => {
    const open: string[] = [];
    for (const [pointer, node] of subschemas(schema))
      if ((node.type === 'object' || node.properties || node.patternProperties) && node.additionalProperties !== false)
        open.push(pointer);
    expect(open).toEqual(['/$defs/ConfigSchema']);
  });

  it('describes every member', () => {
    const missing: string[] = [];
    for (const [pointer, node] of subschemas(schema)) {
      for (const [name, prop] of Object.entries<Record<string, Any>>(node.properties ?? {})) {
        const target = prop.$ref ? schema.$defs[prop.$ref.split('/').pop()] : undefined;
        if (!prop.description && !target?.description) missing.push(`${pointer}/properties/${name}`);
      }
    }
    for (const [name, definition] of Object.entries<Record<string, Any>>(schema.$defs))
      if (!definition.description) missing.push(`/$defs/${name}`);
    expect(missing).toEqual([]);
  });

  it('spells the constants and grammars as the code and the manifest schema do', () => {
    expect(schema.properties.schemaVersion.const).toBe(COMPONENT_PACK_SCHEMA_VERSION);
    expect(schema.$defs.PortKind.enum).toEqual([...PORT_KINDS]);
    expect(schema.$defs.Sha256.pattern).toBe(SHA256_HEX.source);
    expect(schema.$defs.Source.properties.uri.maxLength).toBe(SOURCE_URI_MAX_LENGTH);
    for (const name of ['Semver', 'ComponentId', 'PortName'])
      expect(schema.$defs[name].pattern, name).toBe(manifest.$defs[name].pattern);
    const portPattern = schema.$defs.PortName.pattern;
    expect(Object.keys(schema.$defs.Ports.properties.inputs.patternProperties)).toEqual([portPattern]);
    expect(Object.keys(schema.$defs.Ports.properties.outputs.patternProperties)).toEqual([portPattern]);
    expect(schema.$defs.Owner.properties.selection.const).toBe('host-injected');
    expect(schema.$defs.Component.required).toEqual([
      'id',
      'revision',
      'title',
      'description',
      'interface',
      'capability',
      'sideEffect',
      'replay',
      'modes',
      'owner',
      'ports',
      'configSchema',
    ]);
  });

  it('describes a component in exactly the shape of a built-in definition', () => {
    const members = Object.keys(schema.$defs.Component.properties).sort();
    for (const builtin of builtinComponents()) {
      expect(Object.keys(builtin).sort(), builtin.id).toEqual(members);
      expect(Object.keys(builtin.owner).sort()).toEqual(Object.keys(schema.$defs.Owner.properties).sort());
      for (const port of Object.values(builtin.ports.inputs))
        expect(Object.keys(port).sort()).toEqual(Object.keys(schema.$defs.InputPort.properties).sort());
      for (const port of Object.values(builtin.ports.outputs))
        expect(Object.keys(port).sort()).toEqual(Object.keys(schema.$defs.OutputPort.properties).sort());
    }
  });
});
