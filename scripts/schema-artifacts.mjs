// Everything derived from the JSON Schemas of plugin/schema (SCHEMAS below), computed in memory:
// the TypeScript types (json-schema-to-typescript), the standalone Ajv validator (no `new Function`
// at run time, so it runs inside a Worker) and the field reference in docs/. `generate.mjs` writes
// these files; a test compares them with the committed ones so that drift fails the suite.
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { compile } from 'json-schema-to-typescript';
import { build } from 'esbuild';
import { renderSchemaReference } from './schema-reference.mjs';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// `validator` (a standalone Ajv validator) and `doc` (a field reference) are optional: the
// application schemas are validated by an Ajv compiled lazily in plugin/application and get types
// and a reference page. `effects` (what each field does) adds the fields with no runtime effect,
// and why, to the reference page.
export const SCHEMAS = [
  {
    file: 'plugin/schema/agent-definition.v1.schema.json',
    name: 'agent-definition',
    validator: 'validateAgentDefinition',
    words: 'AGENT_DEFINITION_WORDS',
    doc: 'docs/reference/agent-definition.md',
    effects: 'plugin/definition/field-effects.json',
  },
  {
    file: 'plugin/schema/application-manifest.v1.schema.json',
    name: 'application-manifest',
    doc: 'docs/reference/application-manifest.md',
  },
  {
    file: 'plugin/schema/application-plan.v1.schema.json',
    name: 'application-plan',
    doc: 'docs/reference/application-plan.md',
  },
  {
    file: 'plugin/schema/component-pack.v1.schema.json',
    name: 'component-pack',
    doc: 'docs/reference/component-pack.md',
  },
  {
    file: 'plugin/schema/eval-cases.v1.schema.json',
    name: 'eval-cases',
    validator: 'validateEvalCases',
    doc: 'docs/reference/eval-cases.md',
  },
  {
    file: 'plugin/schema/eval-receipt.v1.schema.json',
    name: 'eval-receipt',
  },
  {
    file: 'plugin/schema/tool-benchmark-events.v1.schema.json',
    name: 'tool-benchmark-events',
  },
];
const BANNER = '/* Generated from the JSON Schema by `npm run generate`. Do not edit. */\n';

/** An Ajv instance configured exactly as the generated validator is. */
export function createAjv() {
  const ajv = new Ajv2020.default({
    allErrors: true,
    strict: true,
    discriminator: true,
    code: { source: true, esm: true, lines: true, optimize: true },
    unicodeRegExp: true,
    allowUnionTypes: true,
  });
  ajv.addKeyword({ keyword: 'x-message', schemaType: 'string' });
  return ajv;
}

/**
 * json-schema-to-typescript names a new alias for every `$ref` that has sibling keywords and
 * intersects `oneOf` with its parent's properties; the descriptions beside a `$ref` are for the
 * docs, so the types are generated from a copy without them.
 */
function schemaForTypes(node) {
  if (Array.isArray(node)) return node.map(schemaForTypes);
  if (!node || typeof node !== 'object') return node;
  if (typeof node.$ref === 'string') return { $ref: node.$ref };
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (node.oneOf && (key === 'properties' || key === 'required' || key === 'type')) continue;
    out[key] = key === 'x-message' ? undefined : schemaForTypes(value);
  }
  return out;
}

async function bundleValidator(source) {
  const result = await build({
    stdin: { contents: source, resolveDir: root, sourcefile: 'validator.mjs', loader: 'js' },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    legalComments: 'none',
    logLevel: 'silent',
  });
  return result.outputFiles[0].text;
}

/** The property names and the enum and const strings of `schema`, sorted, each once. */
export function schemaWords(schema) {
  const words = new Set();
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'properties' && value !== null && typeof value === 'object' && !Array.isArray(value))
        for (const name of Object.keys(value)) words.add(name);
      if (key === 'enum' && Array.isArray(value))
        for (const item of value) if (typeof item === 'string') words.add(item);
      if (key === 'const' && typeof value === 'string') words.add(value);
      visit(value);
    }
  };
  visit(schema);
  return [...words].sort();
}

export async function generateSchemaArtifacts() {
  const files = {};
  for (const entry of SCHEMAS) {
    const schema = JSON.parse(readFileSync(join(root, entry.file), 'utf8'));
    const types = await compile(schemaForTypes(schema), schema.title, {
      bannerComment: BANNER.trim(),
      additionalProperties: false,
      unknownAny: true,
      strictIndexSignatures: true,
      format: true,
      style: { singleQuote: true },
    });
    files[`plugin/schema/generated/${entry.name}.types.ts`] = types;
    const effects =
      entry.effects === undefined ? undefined : JSON.parse(readFileSync(join(root, entry.effects), 'utf8'));
    if (entry.doc !== undefined) files[entry.doc] = renderSchemaReference(schema, entry.file, effects, entry.effects);
    if (entry.words !== undefined)
      files[`plugin/schema/generated/${entry.name}.words.ts`] =
        BANNER +
        '/** Every property name, enum and const string the schema states: words a valid document holds because the schema says so. */\n' +
        `export const ${entry.words}: readonly string[] = ${JSON.stringify(schemaWords(schema), null, 2)};\n`;
    if (entry.validator === undefined) continue;

    const ajv = createAjv();
    ajv.addSchema(schema, 'root');
    const code = standaloneCode.default(ajv, { [entry.validator]: 'root' });
    const bundled = await bundleValidator(code);
    files[`plugin/schema/generated/${entry.name}.validator.ts`] =
      BANNER +
      '// @ts-nocheck -- Ajv standalone output, bundled by esbuild; typed by the wrapper below.\n' +
      bundled
        .replace(/\nexport \{[^}]*\};\s*$/s, '\n')
        .replace(new RegExp(`\\b(var|const|let) ${entry.validator}\\b`), `$1 ${entry.validator}Compiled`) +
      `\nexport interface ValidationError { instancePath: string; schemaPath: string; keyword: string; params: Record<string, unknown>; message?: string }\n` +
      `export interface GeneratedValidator { (data: unknown): boolean; errors?: ValidationError[] | null }\n` +
      `export const ${entry.validator}: GeneratedValidator = ${entry.validator}Compiled;\n`;
  }
  return files;
}
