/**
 * The closed v1 dialect of component-pack configuration schemas: what a pack may say about the
 * `config` of its components, checked BEFORE Ajv compiles anything, so that a validator upgrade
 * can never give an unknown or future keyword new meaning, and so that Ajv only ever sees a plain
 * JSON copy the checker has read once (a getter, a proxy or a shared object cannot change it
 * between the check and the compile).
 *
 * The dialect is JSON Schema 2020-12 restricted to an explicit keyword set (PACK_SCHEMA_KEYWORDS):
 * - type:        `type` — one of the seven JSON types or a non-empty list of distinct ones;
 * - scalar:      `enum`, `const`, `minLength`, `maxLength`, `minimum`, `maximum`,
 *                `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`;
 * - object:      `properties`, `required`, `additionalProperties` (always `false`),
 *                `minProperties`, `maxProperties`, `dependentRequired`;
 * - array:       `items`, `prefixItems`, `minItems`, `maxItems`, `uniqueItems`, `contains`,
 *                `minContains`, `maxContains`;
 * - composition: `allOf`, `anyOf`, `oneOf`, `not`, `if`, `then`, `else`;
 * - annotation:  `title`, `description`, `default`, `examples`, `deprecated`, `readOnly`,
 *                `writeOnly`, `$comment`, and `$schema` at the root only (exactly 2020-12).
 * Everything else is rejected: references and identifiers (`$ref`, `$dynamicRef`, `$defs`,
 * `definitions`, `$id`, `$anchor`…), regular expressions (`pattern`, `patternProperties`), every
 * `format` keyword, content keywords, `propertyNames`, `unevaluated*`, `dependentSchemas`, and any
 * keyword not listed (a future dialect's included).
 *
 * Shape rules:
 * - The root describes a node's `config`: its `type` is exactly `"object"`.
 * - A schema that describes a value on its own (the root, each `properties` member, `items`, each
 *   `prefixItems` entry) declares `type`, `const` or `enum`, itself or in every branch of one of
 *   its `oneOf`, `anyOf` or `allOf` (`{ oneOf: [{ type: "string" }, { type: "integer" }] }`);
 *   the in-place subschemas (`allOf`, `anyOf`, `oneOf`, `not`, `if`, `then`, `else`) narrow it
 *   and may only name types it allows.
 *   The boolean schema `true` (anything at all) is refused; `false` is allowed.
 * - Every object subschema (`type` includes `"object"`, or it has `properties`) sets
 *   `additionalProperties: false`. `required` and `dependentRequired` name only properties that
 *   the same subschema declares.
 * - Property names match PROPERTY_NAME_PATTERN (ASCII lowerCamelCase, at most 64 characters), are
 *   not members of `Object.prototype` (`constructor`, `toString`…), and are not control fields
 *   (control-fields.ts: command, endpoint, credential, environment, transport, package, path,
 *   secret, token and their aliases).
 * - `enum` entries, `const`, `default` and `examples` entries are JSON scalars or flat arrays of
 *   scalars, never objects.
 * - Every keyword value has the type the 2020-12 meta-schema demands, and the combinations Ajv's
 *   strict mode refuses are refused here first (a keyword without the type it applies to, `if`
 *   without `then`/`else`, an open tuple, `minContains` without `contains`…).
 *
 * Limits (PACK_SCHEMA_LIMITS):
 * - depth: the root is level 1, each subschema one level below its parent; at most 32 levels (the
 *   boolean schema `false`, a leaf with nothing inside, may close an object at level 32);
 * - nodes: every schema counts, boolean ones (`additionalProperties: false`) included; at most 2,048;
 * - properties: at most 128 declared in one `properties`;
 * - arrays: every array written in the schema (`enum`, `examples`, `required`, `allOf`/`anyOf`/
 *   `oneOf`, `prefixItems`, a `dependentRequired` list, an array `const`/`default`) holds at most
 *   1,024 entries; and every array the configuration may hold is declared with `maxItems` of at
 *   most 1,024 (a subschema whose `type` includes `"array"` must set `maxItems`, and `items` or a
 *   closed `prefixItems` tuple: `minItems` its length, and `maxItems` its length or `items: false`), so
 *   `minItems`, `maxItems` and the length of `prefixItems` are all at most 1,024.
 *
 * The input is read as plain JSON only: own enumerable data properties of plain objects and dense
 * arrays, never a getter, a symbol or a custom prototype; and as a tree: an object or array met a
 * second time (shared or cyclic) is refused, so the work done is proportional to the input's size.
 * Never throws.
 */
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import type { Finding } from '../definition/diagnostic';
import { joinPointer } from '../definition/json-pointer';
import { controlFieldKind } from './control-fields';

export const PACK_SCHEMA_RULE = 'pack-schema-dialect';

export const PACK_SCHEMA_LIMITS = Object.freeze({
  /** Schema nesting levels, the root being level 1. */
  maxDepth: 32,
  /** Schemas of any kind, boolean ones included. */
  maxNodes: 2048,
  /** Members of one `properties`. */
  maxProperties: 128,
  /** Entries of any array in the schema, and `maxItems` of any array in the configuration. */
  maxArrayItems: 1024,
  /** Findings reported before the checker stops looking. */
  maxFindings: 100,
});

/** The only `$schema` a pack configuration schema may name. */
export const PACK_SCHEMA_DRAFT = 'https://json-schema.org/draft/2020-12/schema';

/** ASCII lowerCamelCase, a letter first, at most 64 characters. */
export const PROPERTY_NAME_PATTERN = /^[a-z][a-zA-Z0-9]{0,63}$/;

/** The closed v1 keyword set, by family. */
export const PACK_SCHEMA_KEYWORDS = Object.freeze({
  type: ['type'],
  scalar: [
    'enum',
    'const',
    'minLength',
    'maxLength',
    'minimum',
    'maximum',
    'exclusiveMinimum',
    'exclusiveMaximum',
    'multipleOf',
  ],
  object: ['properties', 'required', 'additionalProperties', 'minProperties', 'maxProperties', 'dependentRequired'],
  array: ['items', 'prefixItems', 'minItems', 'maxItems', 'uniqueItems', 'contains', 'minContains', 'maxContains'],
  composition: ['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else'],
  annotation: [
    'title',
    'description',
    'default',
    'examples',
    'deprecated',
    'readOnly',
    'writeOnly',
    '$comment',
    '$schema',
  ],
} as const);

const ALLOWED_KEYWORDS: ReadonlySet<string> = new Set(Object.values(PACK_SCHEMA_KEYWORDS).flat());

/** Keywords refused by name, with why: the ones a schema author is most likely to reach for. */
export const REJECTED_PACK_SCHEMA_KEYWORDS: Readonly<Record<string, string>> = Object.freeze({
  $ref: 'schema references are not part of the pack dialect; write the subschema inline',
  $dynamicRef: 'schema references are not part of the pack dialect; write the subschema inline',
  $recursiveRef: 'schema references are not part of the pack dialect; write the subschema inline',
  $defs: 'definitions are not part of the pack dialect; write each subschema inline',
  definitions: 'definitions are not part of the pack dialect; write each subschema inline',
  $id: 'schema identifiers are not part of the pack dialect',
  $anchor: 'schema anchors are not part of the pack dialect',
  $dynamicAnchor: 'schema anchors are not part of the pack dialect',
  $recursiveAnchor: 'schema anchors are not part of the pack dialect',
  $vocabulary: 'vocabularies are not part of the pack dialect',
  pattern: 'regular expressions are not part of the pack dialect; use `enum`, `const` or length bounds',
  patternProperties: 'regular expressions are not part of the pack dialect; declare each property by name',
  format: 'format keywords are not part of the pack dialect; use `enum`, `const` or length bounds',
  formatMinimum: 'format keywords are not part of the pack dialect',
  formatMaximum: 'format keywords are not part of the pack dialect',
  formatExclusiveMinimum: 'format keywords are not part of the pack dialect',
  formatExclusiveMaximum: 'format keywords are not part of the pack dialect',
  contentEncoding: 'content keywords are not part of the pack dialect',
  contentMediaType: 'content keywords are not part of the pack dialect',
  contentSchema: 'content keywords are not part of the pack dialect',
  propertyNames: 'property names are fixed by `properties` and `additionalProperties: false`',
  unevaluatedProperties: 'unevaluated keywords are not part of the pack dialect; set `additionalProperties: false`',
  unevaluatedItems: 'unevaluated keywords are not part of the pack dialect; use `items` and `maxItems`',
  additionalItems: '`additionalItems` is not part of the 2020-12 dialect; use `items`',
  dependentSchemas: '`dependentSchemas` is not part of the pack dialect; use `dependentRequired` or `if`/`then`',
  dependencies: '`dependencies` is not part of the pack dialect; use `dependentRequired`',
  nullable: '`nullable` is not JSON Schema; add "null" to `type`',
  discriminator: '`discriminator` is not part of the pack dialect; use `oneOf` with `const`',
});

type JsonType = 'null' | 'boolean' | 'object' | 'array' | 'number' | 'integer' | 'string';
const JSON_TYPES: readonly JsonType[] = ['null', 'boolean', 'object', 'array', 'number', 'integer', 'string'];

/** The type each type-specific keyword applies to (as Ajv's strict types see it). */
const KEYWORD_TYPE: Readonly<Record<string, JsonType>> = {
  minLength: 'string',
  maxLength: 'string',
  minimum: 'number',
  maximum: 'number',
  exclusiveMinimum: 'number',
  exclusiveMaximum: 'number',
  multipleOf: 'number',
  properties: 'object',
  required: 'object',
  additionalProperties: 'object',
  minProperties: 'object',
  maxProperties: 'object',
  dependentRequired: 'object',
  items: 'array',
  prefixItems: 'array',
  minItems: 'array',
  maxItems: 'array',
  uniqueItems: 'array',
  contains: 'array',
  minContains: 'array',
  maxContains: 'array',
};

const PROTOTYPE_NAMES: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface Walk {
  findings: Finding[];
  nodes: number;
  seen: Set<object>;
  stopped: boolean;
}

function report(walk: Walk, path: string, message: string, suggestion?: string): void {
  if (walk.stopped) return;
  if (walk.findings.length >= PACK_SCHEMA_LIMITS.maxFindings) {
    walk.findings.push({
      rule: PACK_SCHEMA_RULE,
      path,
      message: `more than ${PACK_SCHEMA_LIMITS.maxFindings} problems; the check stopped here`,
    });
    walk.stopped = true;
    return;
  }
  walk.findings.push({ rule: PACK_SCHEMA_RULE, path, message, ...(suggestion === undefined ? {} : { suggestion }) });
}

// ---------------------------------------------------------------------------------------------
// Reading plain JSON without running any of the caller's code paths twice.

type Read<T> = { ok: true; value: T } | { ok: false; problem: string };

/** Every object and array is read once: one met again is shared or cyclic, which JSON text cannot be. */
const SHARED = 'appears twice in the schema (shared or cyclic), which JSON cannot express';

/** The own entries of a plain object: data properties only, enumerable, string-keyed. */
function readObject(walk: Walk, value: object): Read<Array<[string, unknown]>> {
  if (walk.seen.has(value)) return { ok: false, problem: SHARED };
  walk.seen.add(value);
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return { ok: false, problem: 'is not a plain JSON object' };
  const entries: Array<[string, unknown]> = [];
  for (const key of Reflect.ownKeys(value)) {
    if (typeof key === 'symbol') return { ok: false, problem: 'has a symbol-keyed property, which JSON cannot hold' };
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (descriptor === undefined) return { ok: false, problem: 'changed while it was read' };
    if (!('value' in descriptor))
      return { ok: false, problem: `has an accessor property "${key}", which JSON cannot hold` };
    if (descriptor.enumerable !== true)
      return { ok: false, problem: `has a hidden property "${key}", which JSON cannot hold` };
    entries.push([key, descriptor.value]);
  }
  return { ok: true, value: entries };
}

/** The entries of a dense, undecorated array of at most `maxArrayItems` entries. */
function readArray(walk: Walk, value: unknown[]): Read<unknown[]> {
  if (walk.seen.has(value)) return { ok: false, problem: SHARED };
  walk.seen.add(value);
  if (Object.getPrototypeOf(value) !== Array.prototype) return { ok: false, problem: 'is not a plain JSON array' };
  const lengthDescriptor = Object.getOwnPropertyDescriptor(value, 'length');
  const length = lengthDescriptor?.value;
  if (typeof length !== 'number') return { ok: false, problem: 'is not a plain JSON array' };
  if (length > PACK_SCHEMA_LIMITS.maxArrayItems)
    return { ok: false, problem: `has ${length} entries, more than the ${PACK_SCHEMA_LIMITS.maxArrayItems} allowed` };
  const keys = Reflect.ownKeys(value);
  if (keys.length !== length + 1)
    return { ok: false, problem: 'is sparse or carries extra properties, which JSON cannot hold' };
  const items: unknown[] = [];
  for (let index = 0; index < length; index++) {
    const descriptor = Object.getOwnPropertyDescriptor(value, String(index));
    if (descriptor === undefined) return { ok: false, problem: 'is sparse, which JSON cannot hold' };
    if (!('value' in descriptor))
      return { ok: false, problem: `has an accessor at index ${index}, which JSON cannot hold` };
    items.push(descriptor.value);
  }
  return { ok: true, value: items };
}

function isPlainArray(value: unknown): value is unknown[] {
  return Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number' && !Number.isFinite(value)) return 'a non-finite number';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function isScalar(value: unknown): value is null | boolean | number | string {
  return (
    value === null ||
    typeof value === 'boolean' ||
    typeof value === 'string' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

/** A value `enum`, `const`, `default` or `examples` may hold: a scalar, or a flat array of scalars. */
function readLiteral(walk: Walk, value: unknown, path: string, what: string): Json | undefined {
  if (isScalar(value)) return value;
  if (isPlainArray(value)) {
    const read = readArray(walk, value);
    if (!read.ok) return void report(walk, path, `${what} ${read.problem}`);
    const items: Json[] = [];
    read.value.forEach((item, index) => {
      if (isScalar(item)) items.push(item);
      else
        report(
          walk,
          joinPointer(path, index),
          `${what} may hold only JSON scalars (null, booleans, finite numbers, strings), not ${describe(item)}`,
        );
    });
    return items;
  }
  if (value !== null && typeof value === 'object')
    return void report(
      walk,
      path,
      `${what} must not be an object: object-valued literals are not part of the pack dialect`,
      'use a scalar or a flat array of scalars',
    );
  return void report(walk, path, `${what} must be JSON, not ${describe(value)}`);
}

function isNonNegativeInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

// ---------------------------------------------------------------------------------------------
// Types, as Ajv's strict mode narrows them along in-place subschemas.

function includesType(types: readonly JsonType[], type: JsonType): boolean {
  return types.includes(type) || (type === 'integer' && types.includes('number'));
}

function narrow(context: readonly JsonType[], own: readonly JsonType[]): JsonType[] {
  const out: JsonType[] = [];
  for (const type of context) {
    if (includesType(own, type)) out.push(type);
    else if (own.includes('integer') && type === 'number') out.push('integer');
  }
  return out;
}

function applies(types: readonly JsonType[], keywordType: JsonType): boolean {
  return types.includes(keywordType) || (keywordType === 'number' && types.includes('integer'));
}

function readType(walk: Walk, value: unknown, path: string): JsonType[] | undefined {
  const isType = (t: unknown): t is JsonType => typeof t === 'string' && (JSON_TYPES as readonly string[]).includes(t);
  if (isType(value)) return [value];
  if (isPlainArray(value)) {
    const read = readArray(walk, value);
    if (!read.ok) return void report(walk, path, `\`type\` ${read.problem}`);
    const types = read.value;
    if (types.length === 0) return void report(walk, path, '`type` must list at least one type');
    if (!types.every(isType))
      return void report(walk, path, `\`type\` may list only ${JSON_TYPES.map((t) => `"${t}"`).join(', ')}`);
    if (new Set(types).size !== types.length) return void report(walk, path, '`type` lists a type twice');
    return types;
  }
  return void report(
    walk,
    path,
    `\`type\` must be one of ${JSON_TYPES.map((t) => `"${t}"`).join(', ')} or a list of them, not ${describe(value)}`,
  );
}

// ---------------------------------------------------------------------------------------------
// The walk.

/** Where a schema sits: describing a value of its own, or narrowing its parent in place. */
interface Place {
  pointer: string;
  level: number;
  /** The types the data can still have here (empty: not yet known). */
  context: readonly JsonType[];
  describesValue: boolean;
  isRoot: boolean;
}

function visitSchema(walk: Walk, value: unknown, place: Place): Json | undefined {
  if (walk.stopped) return undefined;
  walk.nodes += 1;
  if (walk.nodes > PACK_SCHEMA_LIMITS.maxNodes) {
    report(walk, place.pointer, `the schema has more than ${PACK_SCHEMA_LIMITS.maxNodes} schema nodes`);
    walk.stopped = true;
    return undefined;
  }
  if (value === false) {
    if (place.isRoot)
      report(walk, place.pointer, 'the configuration schema must be an object schema with `type: "object"`');
    return false;
  }
  if (value === true)
    return void report(
      walk,
      place.pointer,
      'the schema `true` accepts anything, open objects included',
      'declare `type` (and close objects with `additionalProperties: false`)',
    );
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return void report(walk, place.pointer, `a schema must be an object or \`false\`, not ${describe(value)}`);
  if (place.level > PACK_SCHEMA_LIMITS.maxDepth)
    return void report(walk, place.pointer, `the schema is nested deeper than ${PACK_SCHEMA_LIMITS.maxDepth} levels`);
  const read = readObject(walk, value);
  if (!read.ok) return void report(walk, place.pointer, `the schema ${read.problem}`);
  return visitKeywords(walk, new Map(read.value), place);
}

function visitKeywords(walk: Walk, schema: Map<string, unknown>, place: Place): Json | undefined {
  const at = (keyword: string) => joinPointer(place.pointer, keyword);
  const out: Array<[string, Json]> = [];
  const keep = (keyword: string, value: Json | undefined) => {
    if (value !== undefined) out.push([keyword, value]);
  };

  for (const keyword of schema.keys()) {
    if (ALLOWED_KEYWORDS.has(keyword)) continue;
    const why = REJECTED_PACK_SCHEMA_KEYWORDS[keyword];
    if (why !== undefined) report(walk, at(keyword), `\`${keyword}\` is not allowed: ${why}`);
    else
      report(
        walk,
        at(keyword),
        `unknown keyword \`${keyword}\`: pack configuration schemas use a closed v1 keyword set, and unknown or future keywords are rejected`,
        `allowed keywords: ${[...ALLOWED_KEYWORDS].join(', ')}`,
      );
  }

  // Types: own, then narrowed against the context exactly as Ajv's strict types do.
  let own: JsonType[] | undefined;
  if (schema.has('type')) {
    own = readType(walk, schema.get('type'), at('type'));
    if (own !== undefined) keep('type', own.length === 1 && typeof schema.get('type') === 'string' ? own[0] : own);
  }
  let types: readonly JsonType[] = place.context;
  if (own !== undefined) {
    if (types.length === 0) types = own;
    else {
      const refused = own.filter((t) => !includesType(types, t));
      if (refused.length > 0)
        report(
          walk,
          at('type'),
          `type ${refused.map((t) => `"${t}"`).join(', ')} is not allowed here: the enclosing schema allows only ${types.map((t) => `"${t}"`).join(', ')}`,
        );
      types = narrow(types, own);
    }
  }
  if (place.isRoot && !(own?.length === 1 && own[0] === 'object'))
    report(
      walk,
      at('type'),
      'the configuration schema describes a node\'s `config`: its `type` must be exactly "object"',
    );
  // A value's schema declares what it is: itself, or (decided once the lists are read, below)
  // through a `oneOf`, `anyOf` or `allOf` each of whose branches declares it.
  const declaresItself = schema.has('type') || schema.has('const') || schema.has('enum');
  const composes = COMPOSITION_LISTS.some((keyword) => schema.has(keyword));
  if (place.describesValue && !declaresItself && !composes) report(walk, place.pointer, UNDECLARED, UNDECLARED_HINT);
  for (const keyword of schema.keys()) {
    const keywordType = KEYWORD_TYPE[keyword];
    if (keywordType !== undefined && !applies(types, keywordType))
      report(
        walk,
        at(keyword),
        `\`${keyword}\` applies to ${keywordType === 'array' || keywordType === 'object' ? 'an' : 'a'} ${keywordType}, but this schema's \`type\` does not include "${keywordType}"`,
      );
  }

  // Object rules.
  const isObjectSchema = (own?.includes('object') ?? false) || schema.has('properties');
  const declared = new Set<string>();
  if (schema.has('properties'))
    keep('properties', visitProperties(walk, schema.get('properties'), at('properties'), place.level, declared));
  if (isObjectSchema && schema.get('additionalProperties') !== false)
    report(walk, at('additionalProperties'), 'every object schema must set `additionalProperties: false`');
  if (schema.has('additionalProperties')) {
    if (schema.get('additionalProperties') === false)
      keep('additionalProperties', visitSchema(walk, false, childPlace(place, 'additionalProperties', false)));
    else if (!isObjectSchema) report(walk, at('additionalProperties'), '`additionalProperties` must be `false`');
  }
  if (schema.has('required'))
    keep('required', readNameList(walk, schema.get('required'), at('required'), declared, '`required`'));
  if (schema.has('dependentRequired'))
    keep(
      'dependentRequired',
      readDependentRequired(walk, schema.get('dependentRequired'), at('dependentRequired'), declared),
    );
  for (const keyword of ['minProperties', 'maxProperties', 'minLength', 'maxLength'])
    if (schema.has(keyword)) keep(keyword, readCount(walk, schema.get(keyword), at(keyword), keyword));

  // Scalars.
  for (const keyword of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']) {
    if (!schema.has(keyword)) continue;
    const bound = schema.get(keyword);
    if (typeof bound === 'number' && Number.isFinite(bound)) keep(keyword, bound);
    else report(walk, at(keyword), `\`${keyword}\` must be a finite number, not ${describe(bound)}`);
  }
  if (schema.has('multipleOf')) {
    const step = schema.get('multipleOf');
    if (typeof step === 'number' && Number.isFinite(step) && step > 0) keep('multipleOf', step);
    else report(walk, at('multipleOf'), '`multipleOf` must be a finite number greater than 0');
  }
  if (schema.has('const')) keep('const', readLiteral(walk, schema.get('const'), at('const'), '`const`'));
  if (schema.has('enum')) keep('enum', readLiteralList(walk, schema.get('enum'), at('enum'), '`enum`', true));

  // Arrays.
  keepAll(out, visitArrayKeywords(walk, schema, place, own));

  // Composition and conditionals: in place, narrowing this schema's types.
  const inPlace = { ...place, context: types };
  const lists = new Map<string, Json | undefined>();
  for (const keyword of COMPOSITION_LISTS)
    if (schema.has(keyword)) {
      lists.set(keyword, visitSchemaList(walk, schema.get(keyword), inPlace, keyword, false));
      keep(keyword, lists.get(keyword));
    }
  if (place.describesValue && !declaresItself && composes && ![...lists.values()].some(everyBranchDeclares))
    report(walk, place.pointer, UNDECLARED, UNDECLARED_HINT);
  for (const keyword of ['not', 'if', 'then', 'else'])
    if (schema.has(keyword)) keep(keyword, visitSchema(walk, schema.get(keyword), childPlace(inPlace, keyword, false)));
  if (schema.has('if') && !schema.has('then') && !schema.has('else'))
    report(walk, at('if'), '`if` needs `then` or `else`');
  for (const keyword of ['then', 'else'])
    if (schema.has(keyword) && !schema.has('if')) report(walk, at(keyword), `\`${keyword}\` needs \`if\``);

  // Annotations.
  for (const keyword of ['title', 'description', '$comment']) {
    if (!schema.has(keyword)) continue;
    const text = schema.get(keyword);
    if (typeof text === 'string') keep(keyword, text);
    else report(walk, at(keyword), `\`${keyword}\` must be a string`);
  }
  for (const keyword of ['deprecated', 'readOnly', 'writeOnly']) {
    if (!schema.has(keyword)) continue;
    const flag = schema.get(keyword);
    if (typeof flag === 'boolean') keep(keyword, flag);
    else report(walk, at(keyword), `\`${keyword}\` must be a boolean`);
  }
  if (schema.has('default')) keep('default', readLiteral(walk, schema.get('default'), at('default'), '`default`'));
  if (schema.has('examples'))
    keep('examples', readLiteralList(walk, schema.get('examples'), at('examples'), '`examples`', false));
  if (schema.has('$schema')) {
    if (!place.isRoot) report(walk, at('$schema'), '`$schema` is allowed only at the root');
    else if (schema.get('$schema') !== PACK_SCHEMA_DRAFT)
      report(walk, at('$schema'), `\`$schema\` must be exactly "${PACK_SCHEMA_DRAFT}"`);
    else keep('$schema', PACK_SCHEMA_DRAFT);
  }
  return Object.fromEntries(out);
}

/** The in-place lists whose branches, all typed, type the value they compose. */
const COMPOSITION_LISTS = ['allOf', 'anyOf', 'oneOf'] as const;
const UNDECLARED = 'a schema describing a value must declare `type`, `const` or `enum`';
const UNDECLARED_HINT =
  'declare it on the schema itself, or in every branch of its `oneOf`, `anyOf` or `allOf` (a branch without one, or `false`, does not count)';

/**
 * Whether a read list (the plain copy, never the input) is a list of schemas each of which
 * declares `type`, `const` or `enum`: then every value the list admits has a declared type.
 */
function everyBranchDeclares(list: Json | undefined): boolean {
  return (
    Array.isArray(list) &&
    list.length > 0 &&
    list.every(
      (branch) =>
        branch !== null &&
        typeof branch === 'object' &&
        !Array.isArray(branch) &&
        (Object.hasOwn(branch, 'type') || Object.hasOwn(branch, 'const') || Object.hasOwn(branch, 'enum')),
    )
  );
}

function keepAll(out: Array<[string, Json]>, entries: Array<[string, Json | undefined]>): void {
  for (const [keyword, value] of entries) if (value !== undefined) out.push([keyword, value]);
}

function childPlace(
  place: Place,
  keyword: string | number,
  describesValue: boolean,
  context: readonly JsonType[] = place.context,
  pointer = joinPointer(place.pointer, keyword),
): Place {
  return { pointer, level: place.level + 1, context, describesValue, isRoot: false };
}

function visitProperties(
  walk: Walk,
  value: unknown,
  path: string,
  level: number,
  declared: Set<string>,
): Json | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return void report(walk, path, `\`properties\` must be an object, not ${describe(value)}`);
  const read = readObject(walk, value);
  if (!read.ok) return void report(walk, path, `\`properties\` ${read.problem}`);
  if (read.value.length > PACK_SCHEMA_LIMITS.maxProperties)
    return void report(
      walk,
      path,
      `\`properties\` declares ${read.value.length} properties, more than the ${PACK_SCHEMA_LIMITS.maxProperties} allowed`,
    );
  const out: Array<[string, Json]> = [];
  for (const [name, member] of read.value) {
    const memberPath = joinPointer(path, name);
    const problem = propertyNameProblem(name);
    if (problem !== undefined) report(walk, memberPath, problem.message, problem.suggestion);
    else declared.add(name);
    const snapshot = visitSchema(walk, member, {
      pointer: memberPath,
      level: level + 1,
      context: [],
      describesValue: true,
      isRoot: false,
    });
    if (snapshot !== undefined) out.push([name, snapshot]);
  }
  return Object.fromEntries(out);
}

/** Why `name` cannot be a configuration property, or `undefined` when it can. */
export function propertyNameProblem(name: string): { message: string; suggestion?: string } | undefined {
  if (!PROPERTY_NAME_PATTERN.test(name)) {
    return {
      message: `property name ${JSON.stringify(name)} is not a normalised ASCII identifier`,
      suggestion:
        'use lowerCamelCase ASCII letters and digits, a letter first, at most 64 characters (e.g. "maxAttempts")',
    };
  }
  if (PROTOTYPE_NAMES.has(name))
    return { message: `property name "${name}" is a member of every JavaScript object and cannot name configuration` };
  const kind = controlFieldKind(name);
  if (kind !== undefined) {
    return {
      message: `property name "${name}" names ${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}: configuration is bounded data and never carries commands, endpoints, credentials, environment, transports, packages, paths, secrets or tokens`,
      suggestion: 'the host supplies such things to its adapter privately; describe only data here',
    };
  }
  return undefined;
}

function readNameList(
  walk: Walk,
  value: unknown,
  path: string,
  declared: ReadonlySet<string>,
  what: string,
): Json | undefined {
  if (!isPlainArray(value)) return void report(walk, path, `${what} must be an array of property names`);
  const read = readArray(walk, value);
  if (!read.ok) return void report(walk, path, `${what} ${read.problem}`);
  const names: string[] = [];
  read.value.forEach((name, index) => {
    if (typeof name !== 'string')
      return report(walk, joinPointer(path, index), `${what} may list only property names (strings)`);
    if (names.includes(name)) return report(walk, joinPointer(path, index), `${what} lists "${name}" twice`);
    if (!declared.has(name))
      return report(
        walk,
        joinPointer(path, index),
        `${what} names "${name}", which this schema's \`properties\` does not declare`,
      );
    names.push(name);
  });
  return names;
}

function readDependentRequired(
  walk: Walk,
  value: unknown,
  path: string,
  declared: ReadonlySet<string>,
): Json | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return void report(walk, path, '`dependentRequired` must be an object of property-name lists');
  const read = readObject(walk, value);
  if (!read.ok) return void report(walk, path, `\`dependentRequired\` ${read.problem}`);
  const out: Array<[string, Json]> = [];
  for (const [name, list] of read.value) {
    const memberPath = joinPointer(path, name);
    if (!declared.has(name))
      report(
        walk,
        memberPath,
        `\`dependentRequired\` names "${name}", which this schema's \`properties\` does not declare`,
      );
    const names = readNameList(walk, list, memberPath, declared, '`dependentRequired`');
    if (names !== undefined) out.push([name, names]);
  }
  return Object.fromEntries(out);
}

function readCount(walk: Walk, value: unknown, path: string, keyword: string): number | undefined {
  if (isNonNegativeInteger(value)) return value;
  return void report(walk, path, `\`${keyword}\` must be a non-negative integer, not ${describe(value)}`);
}

function readLiteralList(walk: Walk, value: unknown, path: string, what: string, nonEmpty: boolean): Json | undefined {
  if (!isPlainArray(value)) return void report(walk, path, `${what} must be an array, not ${describe(value)}`);
  const read = readArray(walk, value);
  if (!read.ok) return void report(walk, path, `${what} ${read.problem}`);
  if (nonEmpty && read.value.length === 0) return void report(walk, path, `${what} must list at least one value`);
  const items: Json[] = [];
  read.value.forEach((item, index) => {
    const literal = readLiteral(walk, item, joinPointer(path, index), `${what} entry`);
    if (literal !== undefined) items.push(literal);
  });
  return items;
}

function visitSchemaList(
  walk: Walk,
  value: unknown,
  place: Place,
  keyword: string,
  describesValue: boolean,
): Json | undefined {
  const path = joinPointer(place.pointer, keyword);
  if (!isPlainArray(value))
    return void report(walk, path, `\`${keyword}\` must be an array of schemas, not ${describe(value)}`);
  const read = readArray(walk, value);
  if (!read.ok) return void report(walk, path, `\`${keyword}\` ${read.problem}`);
  if (read.value.length === 0) return void report(walk, path, `\`${keyword}\` must list at least one schema`);
  const out: Json[] = [];
  read.value.forEach((member, index) => {
    const snapshot = visitSchema(
      walk,
      member,
      childPlace(place, index, describesValue, describesValue ? [] : place.context, joinPointer(path, index)),
    );
    if (snapshot !== undefined) out.push(snapshot);
  });
  return out;
}

function visitArrayKeywords(
  walk: Walk,
  schema: Map<string, unknown>,
  place: Place,
  own: readonly JsonType[] | undefined,
): Array<[string, Json | undefined]> {
  const at = (keyword: string) => joinPointer(place.pointer, keyword);
  const out: Array<[string, Json | undefined]> = [];
  const limit = PACK_SCHEMA_LIMITS.maxArrayItems;
  for (const keyword of ['minItems', 'maxItems', 'minContains', 'maxContains']) {
    if (!schema.has(keyword)) continue;
    const count = readCount(walk, schema.get(keyword), at(keyword), keyword);
    if (count !== undefined && count > limit)
      report(walk, at(keyword), `\`${keyword}\` is ${count}, more than the ${limit} items an array may hold`);
    else out.push([keyword, count]);
  }
  if (schema.has('uniqueItems')) {
    const flag = schema.get('uniqueItems');
    if (typeof flag === 'boolean') out.push(['uniqueItems', flag]);
    else report(walk, at('uniqueItems'), '`uniqueItems` must be a boolean');
  }
  const isArraySchema = own?.includes('array') ?? false;
  if (isArraySchema && !schema.has('maxItems'))
    report(walk, at('maxItems'), `every array schema must set \`maxItems\` (at most ${limit})`);
  if (isArraySchema && !schema.has('items') && !schema.has('prefixItems'))
    report(
      walk,
      at('items'),
      'every array schema must describe its items with `items` (or a closed `prefixItems` tuple)',
    );

  if (schema.has('prefixItems')) {
    const prefixItems = schema.get('prefixItems');
    const tuple = visitSchemaList(walk, prefixItems, place, 'prefixItems', true);
    out.push(['prefixItems', tuple]);
    // Ajv's strict tuples: a tuple is closed, its length exact (the length read once, as compiled).
    const length = Array.isArray(tuple) ? tuple.length : undefined;
    const closed =
      length !== undefined &&
      schema.get('minItems') === length &&
      (schema.get('maxItems') === length || schema.get('items') === false);
    if (!closed)
      report(
        walk,
        at('prefixItems'),
        '`prefixItems` must be a closed tuple: `minItems` equal to its length, and `items: false` or `maxItems` equal to its length',
      );
  }
  if (schema.has('items')) {
    const items = schema.get('items');
    if (items === false && !schema.has('prefixItems'))
      report(walk, at('items'), '`items: false` allows only the empty array; use `maxItems: 0`, or give `prefixItems`');
    else out.push(['items', visitSchema(walk, items, childPlace(place, 'items', true, []))]);
  }
  if (schema.has('contains'))
    out.push(['contains', visitSchema(walk, schema.get('contains'), childPlace(place, 'contains', false, []))]);
  for (const keyword of ['minContains', 'maxContains'])
    if (schema.has(keyword) && !schema.has('contains')) report(walk, at(keyword), `\`${keyword}\` needs \`contains\``);
  const minContains = schema.get('minContains');
  const maxContains = schema.get('maxContains');
  if (schema.has('contains') && minContains === 0 && !schema.has('maxContains'))
    report(walk, at('minContains'), '`minContains: 0` without `maxContains` makes `contains` meaningless');
  // `minContains` defaults to 1 where `contains` is present (JSON Schema 2020-12; Ajv strict refuses the contradiction).
  const effectiveMinContains = typeof minContains === 'number' ? minContains : schema.has('contains') ? 1 : undefined;
  if (effectiveMinContains !== undefined && typeof maxContains === 'number' && effectiveMinContains > maxContains)
    report(
      walk,
      at(typeof minContains === 'number' ? 'minContains' : 'maxContains'),
      `\`minContains\` (${effectiveMinContains}${typeof minContains === 'number' ? '' : ', the default'}) is greater than \`maxContains\`: no array can match`,
    );
  return out;
}

// ---------------------------------------------------------------------------------------------
// The public surface.

function inspect(schema: unknown, pointerBase: string): { findings: Finding[]; snapshot: Json | undefined } {
  const walk: Walk = { findings: [], nodes: 0, seen: new Set(), stopped: false };
  try {
    const snapshot = visitSchema(walk, schema, {
      pointer: pointerBase,
      level: 1,
      context: [],
      describesValue: true,
      isRoot: true,
    });
    return { findings: walk.findings, snapshot };
  } catch {
    // Only a hostile object (a proxy whose traps throw, say) gets here: plain JSON never does.
    return {
      findings: [
        ...walk.findings,
        { rule: PACK_SCHEMA_RULE, path: pointerBase, message: 'the schema could not be read as plain JSON' },
      ],
      snapshot: undefined,
    };
  }
}

/**
 * Every way `schema` leaves the closed v1 pack dialect, as findings located by JSON Pointer
 * (prefixed with `pointerBase`, the schema's own place in its pack). Empty when it conforms.
 */
export function checkPackConfigSchema(schema: unknown, pointerBase = ''): Finding[] {
  return inspect(schema, typeof pointerBase === 'string' ? pointerBase : '').findings;
}

/** A compiled pack configuration schema: the findings for one `config` (empty when it conforms). */
export type PackConfigValidator = (config: unknown) => Finding[];

export type CompiledPackConfigSchema = { ok: true; validate: PackConfigValidator } | { ok: false; findings: Finding[] };

/** Ajv's options: strict in every respect; nothing coerced, defaulted or removed. */
const AJV_OPTIONS = {
  strict: true,
  allErrors: true,
  allowUnionTypes: true,
  validateFormats: false,
  useDefaults: false,
  coerceTypes: false,
  removeAdditional: false,
} as const;

/**
 * Checks `schema` against the dialect and, only when it conforms, compiles the checked plain-JSON
 * copy with Ajv 2020 in strict mode. A schema with any finding never reaches Ajv.
 */
export function compilePackConfigSchema(schema: unknown, pointerBase = ''): CompiledPackConfigSchema {
  const base = typeof pointerBase === 'string' ? pointerBase : '';
  const { findings, snapshot } = inspect(schema, base);
  if (findings.length > 0 || snapshot === undefined)
    return {
      ok: false,
      findings:
        findings.length > 0
          ? findings
          : [{ rule: PACK_SCHEMA_RULE, path: base, message: 'the schema could not be read' }],
    };
  const compiled = compileChecked(snapshot as object);
  if (!compiled.ok)
    return {
      ok: false,
      findings: [
        {
          rule: PACK_SCHEMA_RULE,
          path: base,
          message: `the schema passed the dialect check but Ajv refused it: ${compiled.reason}`,
        },
      ],
    };
  const validator = compiled.validator;
  return { ok: true, validate: (config) => validateConfig(validator, config) };
}

/** How many compiled schemas {@link compileChecked} keeps (a workspace has a handful; a hostile pack cannot grow memory). */
const COMPILED_KEPT = 256;
/** The one Ajv every checked schema compiles in: the 2020-12 meta-schema is compiled once per process, not once per schema. */
let ajv: Ajv2020 | undefined;
/** Compiled validators by the checked copy's JSON text (same text, same validator), oldest first. */
const compiledByText = new Map<string, { schema: object; validator: ValidateFunction }>();

/**
 * Compiles a checked plain-JSON copy, reusing the validator of an identical copy. Schemas share
 * one Ajv safely because the dialect admits no `$id`, `$ref` or `$anchor`: nothing in one schema
 * can name another. The oldest of more than COMPILED_KEPT is removed from Ajv as well.
 */
function compileChecked(schema: object): { ok: true; validator: ValidateFunction } | { ok: false; reason: string } {
  const text = JSON.stringify(schema);
  const known = compiledByText.get(text);
  if (known !== undefined) {
    compiledByText.delete(text);
    compiledByText.set(text, known);
    return { ok: true, validator: known.validator };
  }
  ajv ??= new Ajv2020(AJV_OPTIONS);
  let validator: ValidateFunction;
  try {
    validator = ajv.compile(schema);
  } catch (error) {
    ajv.removeSchema(schema);
    return { ok: false, reason: error instanceof Error ? error.message : 'unknown reason' };
  }
  compiledByText.set(text, { schema, validator });
  if (compiledByText.size > COMPILED_KEPT) {
    const [oldest, entry] = compiledByText.entries().next().value!;
    compiledByText.delete(oldest);
    ajv.removeSchema(entry.schema);
  }
  return { ok: true, validator };
}

function validateConfig(validator: ValidateFunction, config: unknown): Finding[] {
  try {
    if (validator(config)) return [];
    return (validator.errors ?? []).map(configErrorToFinding);
  } catch {
    return [{ rule: 'pack-config', path: '', message: 'the configuration could not be read as plain JSON' }];
  }
}

function configErrorToFinding(error: ErrorObject): Finding {
  const property =
    error.keyword === 'additionalProperties'
      ? String((error.params as { additionalProperty?: unknown }).additionalProperty ?? '')
      : undefined;
  if (property !== undefined)
    return {
      rule: 'pack-config',
      path: joinPointer(error.instancePath, property),
      message: `unknown configuration property ${JSON.stringify(property)}`,
      at: 'key',
    };
  return {
    rule: 'pack-config',
    path: error.instancePath,
    message: `configuration ${error.message ?? 'is invalid'} (${error.keyword})`,
  };
}
