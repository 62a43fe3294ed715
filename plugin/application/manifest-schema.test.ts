import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { describe, expect, it } from 'vitest';
import { APPLICATION_INVOCATION, APPLICATION_MANIFEST_SCHEMA_VERSION } from './manifest-validate';
import { SHA256_HEX } from './source-digest';
import { SOURCE_URI_MAX_LENGTH } from './source-uri';

const schema = JSON.parse(readFileSync(join(__dirname, '..', 'schema', 'application-manifest.v1.schema.json'), 'utf8'));

/** Every subschema with its JSON Pointer. */
function* subschemas(node: unknown, pointer = ''): Generator<[string, Record<string, any>]> {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return;
  yield [pointer, node as Record<string, any>];
  const n = node as Record<string, any>;
  for (const key of ['properties', '$defs'])
    for (const [name, child] of Object.entries(n[key] ?? {})) yield* subschemas(child, `${pointer}/${key}/${name}`);
  if (n.items) yield* subschemas(n.items, `${pointer}/items`);
}

describe('the application manifest JSON Schema', () => {
  it('compiles in Ajv 2020 strict mode', () => {
    const ajv = new Ajv2020({ strict: true, allErrors: true, unicodeRegExp: true });
    ajv.addKeyword({ keyword: 'x-message', schemaType: 'string' });
    expect(() => ajv.compile(schema)).not.toThrow();
  });

  it('closes every object with additionalProperties: false, except a node config (closed by its component schema)', () => {
    const open: string[] = [];
    for (const [pointer, node] of subschemas(schema)) {
      if ((node.type === 'object' || node.properties) && node.additionalProperties !== false) open.push(pointer);
    }
    expect(open).toEqual(['/$defs/ComponentConfig']);
  });

  it('spells the constants, digests and limits exactly as the code does', () => {
    expect(schema.properties.schemaVersion.const).toBe(APPLICATION_MANIFEST_SCHEMA_VERSION);
    expect(schema.properties.invocation.const).toBe(APPLICATION_INVOCATION);
    expect(APPLICATION_INVOCATION).toBe(
      '/application.compose #application-composition @application-manifest @component-catalog @integration-profile @runtime-proof',
    );
    expect(APPLICATION_INVOCATION).not.toContain('@operator');
    expect(schema.$defs.Sha256.pattern).toBe(SHA256_HEX.source);
    expect(schema.$defs.Source.properties.uri.maxLength).toBe(SOURCE_URI_MAX_LENGTH);
  });

  it('describes every member', () => {
    const missing: string[] = [];
    for (const [pointer, node] of subschemas(schema)) {
      for (const [name, prop] of Object.entries<Record<string, any>>(node.properties ?? {})) {
        const target = prop.$ref ? schema.$defs[prop.$ref.split('/').pop()] : undefined;
        if (!prop.description && !target?.description) missing.push(`${pointer}/properties/${name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('bounds every collection and every bound', () => {
    for (const name of ['nodes', 'edges', 'entrypoints', 'outputs'])
      expect(schema.properties[name].maxItems, name).toBeGreaterThan(0);
    for (const [name, bound] of Object.entries<Record<string, number>>(schema.$defs.Bounds.properties)) {
      expect(bound.minimum, name).toBe(1);
      expect(Number.isSafeInteger(bound.maximum), name).toBe(true);
    }
  });
});
