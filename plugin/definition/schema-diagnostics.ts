/**
 * Turns the generated validator's errors into findings with messages a person can act on: the
 * schema's own `x-message` where it has one, the allowed values of an enum, the unexpected key.
 */
import schema from '../schema/agent-definition.v1.schema.json';
import type { ValidationError } from '../schema/generated/agent-definition.validator';
import type { Finding } from './diagnostic';
import { getAtPointer, joinPointer } from './json-pointer';
import { nearestName } from './nearest-name';
import { highEntropyBlob, secretKinds } from './rules/secrets';
import { allowedFieldsAt } from './schema-location';

type SchemaNode = Record<string, unknown>;

/** Which schema a validator error comes from, and what its whole document is called in messages. */
export interface SchemaSubject {
  schema: unknown;
  /** e.g. `the definition`, `the application manifest`. */
  documentName: string;
}

export const AGENT_DEFINITION: SchemaSubject = { schema, documentName: 'the definition' };

/** The schema node a validator error's `schemaPath` points into (the keyword's parent). */
function schemaNodeAt(root: unknown, schemaPath: string): SchemaNode | undefined {
  const pointer = schemaPath.replace(/^#/, '').split('/').slice(0, -1).join('/');
  const node = getAtPointer(root, pointer);
  return node && typeof node === 'object' ? (node as SchemaNode) : undefined;
}

/** What a value that looks like a credential is called instead of being quoted (schema messages never echo a secret). */
function secretLooking(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const kinds = secretKinds(value);
  if (kinds.length > 0) return `what looks like ${kinds.join(' and ')} (the value is not shown)`;
  const blob = highEntropyBlob(value);
  return blob === undefined ? undefined : `${blob} that may be a key (the value is not shown)`;
}

function quote(value: unknown): string {
  const secret = secretLooking(value);
  if (secret !== undefined) return secret;
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** The fields the object at `error.instancePath` allows (an `additionalProperties` error's object). */
function allowedFieldsOf(error: ValidationError, data: unknown, subject: SchemaSubject): string[] {
  // Walked from the document's path, as `schemaPath` is relative to a `$ref`'d definition.
  const walked = allowedFieldsAt(subject.schema, data, error.instancePath);
  return walked.length > 0
    ? walked
    : Object.keys((schemaNodeAt(subject.schema, error.schemaPath)?.properties as SchemaNode | undefined) ?? {});
}

const fieldKey = (objectPath: string, field: string) => `${objectPath}\u0000${field}`;

/**
 * The required fields that a misspelled key of the same object stands for (`descripton` for a
 * missing `description`): object path and field → the key as written. Such a pair is one mistake,
 * reported once, at the key (schemaErrorToFinding folds the missing-field error into the unknown
 * field's). A discriminated object without its tag (`kidn` for `kind`) gets no unknown-field error
 * (no branch is chosen): its own keys are compared with the tag.
 */
export function misspelledRequiredFields(
  errors: readonly ValidationError[],
  data: unknown,
  subject: SchemaSubject = AGENT_DEFINITION,
): ReadonlyMap<string, string> {
  const missing = new Set<string>();
  for (const error of errors) {
    if (error.keyword === 'required') missing.add(fieldKey(error.instancePath, String(error.params.missingProperty)));
    if (error.keyword === 'discriminator' && error.params.error === 'tag')
      missing.add(fieldKey(error.instancePath, String(error.params.tag)));
  }
  const found = new Map<string, string>();
  const pair = (objectPath: string, key: string, candidates: readonly string[]) => {
    if (secretLooking(key) !== undefined || candidates.includes(key)) return;
    const guess = nearestName(key, candidates);
    const id = guess === undefined ? undefined : fieldKey(objectPath, guess);
    if (id !== undefined && missing.has(id) && !found.has(id)) found.set(id, key);
  };
  for (const error of errors) {
    if (error.keyword === 'additionalProperties')
      pair(error.instancePath, String(error.params.additionalProperty), allowedFieldsOf(error, data, subject));
    if (error.keyword === 'discriminator' && error.params.error === 'tag') {
      const object = getAtPointer(data, error.instancePath);
      const tag = String(error.params.tag);
      if (object !== null && typeof object === 'object' && !Array.isArray(object))
        for (const key of Object.keys(object)) pair(error.instancePath, key, [tag]);
    }
  }
  return found;
}

/** The one finding for a misspelled key that stands for a required field. */
function misspelledFinding(
  objectPath: string,
  key: string,
  field: string,
  fieldName: (pointer: string) => string,
  listed?: string,
): Finding {
  return {
    rule: 'schema',
    path: joinPointer(objectPath, key),
    at: 'key',
    message: `unknown field \`${key}\` in ${fieldName(objectPath)}: did you mean \`${field}\`? (\`${field}\` is required and missing)`,
    suggestion: `rename \`${key}\` to \`${field}\`${listed ? `; ${listed}` : ''}`,
  };
}

/**
 * One validator error as a finding, or undefined when another error says it better. With
 * `misspelled` (misspelledRequiredFields of the same errors), a missing required field that a
 * misspelled key stands for is reported once, as that key's unknown-field finding.
 */
export function schemaErrorToFinding(
  error: ValidationError,
  data: unknown,
  subject: SchemaSubject = AGENT_DEFINITION,
  misspelled: ReadonlyMap<string, string> = new Map(),
): Finding | undefined {
  const node = schemaNodeAt(subject.schema, error.schemaPath);
  const fieldName = (pointer: string): string => (pointer === '' ? subject.documentName : `\`${pointer}\``);
  const path = error.instancePath;
  const params = error.params;
  const base = { rule: 'schema' as const, path };
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      const secretKey = secretLooking(key);
      if (secretKey !== undefined)
        return {
          ...base,
          redactSource: true,
          message: `${fieldName(path)} has an unknown field whose name is ${secretKey}`,
          suggestion: 'remove it, and rotate the credential',
        };
      const allowed = allowedFieldsOf(error, data, subject);
      const guess = nearestName(key, allowed);
      const listed = allowed.length > 0 ? `${fieldName(path)} allows: ${allowed.join(', ')}` : 'remove it';
      if (guess !== undefined && misspelled.get(fieldKey(path, guess)) === key)
        return misspelledFinding(path, key, guess, fieldName, listed);
      return {
        ...base,
        path: joinPointer(path, key),
        at: 'key',
        message: `unknown field \`${key}\` in ${fieldName(path)}`,
        suggestion: guess ? `did you mean \`${guess}\`? ${listed}` : listed,
      };
    }
    case 'required':
      // Folded into the unknown field that misspells it.
      if (misspelled.has(fieldKey(path, String(params.missingProperty)))) return undefined;
      return {
        ...base,
        message: `${fieldName(path)} is missing the required field \`${String(params.missingProperty)}\``,
        suggestion: `add \`${String(params.missingProperty)}\``,
      };
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).map((v) => String(v));
      const value = getAtPointer(data, path);
      const guess = typeof value === 'string' ? nearestName(value, allowed) : undefined;
      return {
        ...base,
        ...(secretLooking(value) !== undefined ? { redactSource: true } : {}),
        message: `${fieldName(path)} is ${quote(value)}; it must be one of ${allowed.map((v) => `"${v}"`).join(', ')}`,
        ...(guess ? { suggestion: `did you mean "${guess}"?` } : {}),
      };
    }
    case 'const':
      return {
        ...base,
        message: `${fieldName(path)} must be ${quote(params.allowedValue)}`,
        suggestion: `set it to ${quote(params.allowedValue)}`,
      };
    case 'pattern': {
      const custom =
        typeof node?.['x-message'] === 'string'
          ? (node['x-message'] as string)
          : `must match the pattern ${String(params.pattern)}`;
      const value = getAtPointer(data, path);
      return {
        ...base,
        ...(secretLooking(value) !== undefined ? { redactSource: true } : {}),
        message: `${fieldName(path)} is ${quote(value)}: it ${custom}`,
      };
    }
    case 'discriminator': {
      // The enum on `kind` reports the same problem with the allowed values; keep that one.
      if (params.error === 'mapping') return undefined;
      const tag = String(params.tag);
      const key = misspelled.get(fieldKey(path, tag));
      return key !== undefined
        ? misspelledFinding(path, key, tag, fieldName)
        : { ...base, message: `${fieldName(path)} needs a \`${tag}\`` };
    }
    case 'oneOf':
    case 'anyOf':
      return undefined; // the branch errors say what is wrong
    case 'type':
      return {
        ...base,
        message: `${fieldName(path)} must be ${String(params.type).replace(/,/g, ' or ')}, not ${describeType(getAtPointer(data, path))}`,
      };
    default:
      return { ...base, message: `${fieldName(path)} ${error.message ?? 'is invalid'}` };
  }
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * The findings of one validation's errors: `anyOf` branch noise folded into one finding per value
 * (naming the reference page of the subject's fields), a misspelled required field reported once at
 * its key, exact repeats dropped.
 */
export function schemaErrorsToFindings(
  errors: readonly ValidationError[],
  value: unknown,
  subject: SchemaSubject,
  referencePage: string,
): Finding[] {
  const anyOfs = errors.filter((e) => e.keyword === 'anyOf');
  const isBranchNoise = (e: ValidationError) =>
    anyOfs.some(
      (a) =>
        a !== e &&
        e.instancePath === a.instancePath &&
        e.schemaPath.startsWith(a.schemaPath.replace(/\/anyOf$/, '/anyOf/')),
    );
  // A misspelled required field is one mistake: one finding, at the key.
  const misspelled = misspelledRequiredFields(errors, value, subject);
  const findings: Finding[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    if (isBranchNoise(error)) continue;
    const finding =
      error.keyword === 'anyOf'
        ? {
            rule: 'schema',
            path: error.instancePath,
            message: `\`${error.instancePath}\` has none of the allowed shapes`,
            suggestion: `see ${referencePage} for the field`,
          }
        : schemaErrorToFinding(error, value, subject, misspelled);
    if (!finding) continue;
    const key = `${finding.path}\u0000${finding.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    findings.push(finding);
  }
  return findings;
}
