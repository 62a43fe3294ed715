/**
 * Checks an OASF record against the OASF definitions themselves (oasf-definitions.ts), the way
 * the OASF server derives a record schema from them: every `required` attribute of record.json and
 * of each object it reaches is present; no attribute the definitions do not name; each value has
 * its dictionary type (strings within `max_len` and their type's `regex`, integers, arrays where
 * `is_array`, typed maps, nested objects); enum attributes hold a defined value; an object's
 * `at_least_one` / `just_one` constraints hold; a skill, domain or module names an id and a name
 * that exist in its taxonomy and belong to the same class; a module's `data` is the data object
 * its class references (A2A, MCP).
 *
 * Pure over the definitions; never throws: every problem is a failure with a JSON Pointer into the
 * record.
 */
import {
  type OasfAttributeDefinition,
  type OasfDefinitions,
  type OasfDictionaryAttribute,
  type OasfFamily,
  type OasfObjectDefinition,
  oasfDefinitions,
} from './oasf-definitions';

export interface OasfRecordFailure {
  /** JSON Pointer into the record. */
  pointer: string;
  message: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');
const show = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
};

class RecordChecker {
  readonly failures: OasfRecordFailure[] = [];
  constructor(private readonly defs: OasfDefinitions) {}

  fail(pointer: string, message: string): void {
    this.failures.push({ pointer, message });
  }

  /** The attributes of an object definition with those of the objects it extends. */
  attributesOf(definition: OasfObjectDefinition): Record<string, OasfAttributeDefinition> {
    const parent = definition.extends !== undefined ? this.defs.objects.get(definition.extends) : undefined;
    return { ...(parent !== undefined ? this.attributesOf(parent) : {}), ...definition.attributes };
  }

  checkObject(
    value: unknown,
    definition: OasfObjectDefinition,
    pointer: string,
    attributes = this.attributesOf(definition),
  ): void {
    if (!isObject(value)) {
      this.fail(pointer, `${definition.name} must be an object, not ${show(value)}`);
      return;
    }
    for (const [name, attribute] of Object.entries(attributes)) {
      if (attribute.requirement === 'required' && value[name] === undefined)
        this.fail(pointer, `${definition.name} lacks the required attribute "${name}"`);
    }
    for (const [name, item] of Object.entries(value)) {
      const at = `${pointer}/${escapePointer(name)}`;
      const attribute = attributes[name];
      if (attribute === undefined) {
        this.fail(at, `"${name}" is not an attribute of ${definition.name}`);
        continue;
      }
      this.checkAttribute(item, name, attribute, at);
    }
    for (const group of definition.constraints?.at_least_one ? [definition.constraints.at_least_one] : []) {
      if (!group.some((name) => value[name] !== undefined))
        this.fail(pointer, `${definition.name} needs at least one of ${group.join(', ')}`);
    }
    const justOne = definition.constraints?.just_one;
    if (justOne !== undefined && justOne.filter((name) => value[name] !== undefined).length > 1)
      this.fail(pointer, `${definition.name} may have only one of ${justOne.join(', ')}`);
  }

  checkAttribute(value: unknown, name: string, attribute: OasfAttributeDefinition, pointer: string): void {
    const reference = attribute.reference ?? name;
    const object = this.defs.objects.get(reference);
    if (attribute.reference !== undefined && object !== undefined) {
      this.checkObject(value, object, pointer);
      return;
    }
    const entry = this.defs.dictionary.get(reference);
    if (entry === undefined) {
      this.fail(pointer, `the OASF dictionary defines no attribute "${reference}"`);
      return;
    }
    if (entry.is_array === true) {
      if (!Array.isArray(value)) {
        this.fail(pointer, `"${name}" must be an array, not ${show(value)}`);
        return;
      }
      value.forEach((item, i) => this.checkValue(item, name, entry, attribute, `${pointer}/${i}`));
      return;
    }
    this.checkValue(value, name, entry, attribute, pointer);
  }

  checkValue(
    value: unknown,
    name: string,
    entry: OasfDictionaryAttribute,
    attribute: OasfAttributeDefinition,
    pointer: string,
  ): void {
    if (entry.type === 'class_t') {
      this.checkClass(value, entry.family as OasfFamily, pointer);
      return;
    }
    const object = this.defs.objects.get(entry.type);
    if (object !== undefined) {
      this.checkObject(value, object, pointer);
      return;
    }
    this.checkDataType(value, name, entry.type, pointer, (entry as { value_type?: string }).value_type);
    if (attribute.enum !== undefined && !Object.hasOwn(attribute.enum, String(value)))
      this.fail(pointer, `"${name}" ${show(value)} is none of ${Object.keys(attribute.enum).join(', ')}`);
  }

  checkDataType(value: unknown, name: string, typeName: string, pointer: string, valueType?: string): void {
    const type = this.defs.types.get(typeName);
    if (type === undefined) {
      this.fail(pointer, `the OASF dictionary defines no type "${typeName}"`);
      return;
    }
    const base = type.type ?? typeName;
    const wrong = (what: string) => this.fail(pointer, `"${name}" must be ${what} (${typeName}), not ${show(value)}`);
    switch (base) {
      case 'string_t': {
        if (typeof value !== 'string') {
          wrong('a string');
          return;
        }
        const maxLength = type.max_len ?? this.defs.types.get('string_t')?.max_len;
        if (maxLength !== undefined && value.length > maxLength)
          this.fail(pointer, `"${name}" is longer than ${maxLength} characters (${typeName})`);
        if (type.regex !== undefined && !new RegExp(type.regex).test(value)) wrong(`of the form ${typeName} defines`);
        return;
      }
      case 'integer_t':
      case 'long_t': {
        if (typeof value !== 'number' || !Number.isInteger(value)) {
          wrong('an integer');
          return;
        }
        if (type.range !== undefined && (value < type.range[0] || value > type.range[1]))
          this.fail(pointer, `"${name}" ${value} is outside ${type.range[0]}..${type.range[1]} (${typeName})`);
        return;
      }
      case 'float_t':
        if (typeof value !== 'number' || !Number.isFinite(value)) wrong('a number');
        return;
      case 'boolean_t':
        if (typeof value !== 'boolean') wrong('true or false');
        return;
      case 'json_t':
        if (value === undefined) wrong('a JSON value');
        return;
      case 'typed_map_t':
        if (!isObject(value)) {
          wrong('an object');
          return;
        }
        for (const [key, item] of Object.entries(value))
          this.checkDataType(item, key, valueType ?? 'string_t', `${pointer}/${escapePointer(key)}`);
        return;
      default:
        this.fail(pointer, `"${name}" has the type ${typeName}, which this validator cannot check`);
    }
  }

  /** A skill, domain or module: an id and a name that exist and pair, and (modules) its data object. */
  checkClass(value: unknown, family: OasfFamily, pointer: string): void {
    const taxonomy =
      family === 'skill' ? this.defs.skills : family === 'domain' ? this.defs.domains : this.defs.modules;
    if (!isObject(value)) {
      this.fail(pointer, `a ${family} must be an object, not ${show(value)}`);
      return;
    }
    const id = value['id'];
    const name = value['name'];
    const byId = typeof id === 'number' ? taxonomy.byId.get(id) : undefined;
    const byName = typeof name === 'string' ? taxonomy.byName.get(name) : undefined;
    if (id !== undefined && typeof id === 'number' && Number.isInteger(id) && byId === undefined)
      this.fail(`${pointer}/id`, `no OASF ${family} has the id ${id}`);
    if (typeof name === 'string' && byName === undefined)
      this.fail(`${pointer}/name`, `no OASF ${family} is named "${name}"`);
    if (byId !== undefined && byName !== undefined && byId !== byName)
      this.fail(
        pointer,
        `the ${family} id ${byId.id} is "${byId.name}", not "${byName.name}" (whose id is ${byName.id})`,
      );
    const entry = byName ?? byId;
    // The class's attributes over its ancestors' (a2a's `data` references a2a_data; base_module's module_data).
    const attributes: Record<string, OasfAttributeDefinition> = {};
    const chain: OasfObjectDefinition[] = [];
    let current = taxonomy.classes.get(entry?.key ?? `base_${family}`);
    while (current !== undefined && !chain.includes(current)) {
      chain.unshift(current);
      current = current.extends !== undefined ? taxonomy.classes.get(current.extends) : undefined;
    }
    for (const link of chain) Object.assign(attributes, link.attributes);
    const constraints = chain.find((c) => c.constraints !== undefined)?.constraints;
    this.checkObject(
      value,
      {
        name: `${family}${entry !== undefined ? ` ${entry.name}` : ''}`,
        attributes,
        ...(constraints ? { constraints } : {}),
      },
      pointer,
      attributes,
    );
  }
}

/** The failures of `record` against the OASF definitions (empty: it validates). */
export function validateOasfRecord(record: unknown, defs: OasfDefinitions = oasfDefinitions()): OasfRecordFailure[] {
  try {
    const checker = new RecordChecker(defs);
    const definition = defs.objects.get('record');
    if (definition === undefined) return [{ pointer: '', message: 'the OASF definitions have no record object' }];
    checker.checkObject(record, definition, '');
    if (
      isObject(record) &&
      typeof record['schema_version'] === 'string' &&
      record['schema_version'] !== defs.schemaVersion
    )
      checker.fail(
        '/schema_version',
        `schema_version ${show(record['schema_version'])} is not the copied OASF schema's ${defs.schemaVersion}`,
      );
    return checker.failures;
  } catch (error) {
    return [{ pointer: '', message: `the record cannot be checked: ${(error as Error).message}` }];
  }
}
