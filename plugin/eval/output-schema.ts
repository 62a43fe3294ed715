/**
 * The JSON Schema of a `json-schema` assertion: user input, compiled once when the case file is
 * loaded (a schema that does not compile is a located diagnostic there). Draft 2020-12, strict
 * (an unknown keyword is an error, not ignored), the standard formats, no remote references. Every
 * `pattern` and `patternProperties` name must pass safe-regex.ts, and Ajv runs them through the
 * same safe engine, so no schema can make validation backtrack catastrophically; a string longer
 * than the engine's bound fails validation, saying so.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { joinPointer } from '../definition/json-pointer';
import { compileSafeRegex } from './safe-regex';

export interface OutputSchemaProblem {
  /** JSON Pointer inside the schema. */
  pointer: string;
  message: string;
  suggestion: string;
}

/** Thrown by a pattern test on a string longer than the safe engine reads; caught by `checkOutput`. */
class InputTooLong extends Error {
  constructor(readonly limit: number) {
    super(`a string is longer than ${limit} characters, more than a schema pattern is matched against`);
  }
}

/**
 * The flags a schema pattern runs with. JSON Schema patterns are ECMA-262 with Unicode semantics;
 * they differ from the default ones only for `\p{…}`, `\P{…}`, `\u{…}` and characters beyond
 * U+FFFF, so only such a pattern needs `u` (and with it the backtracking engine's shape rules).
 */
export function schemaPatternFlags(pattern: string): '' | 'u' {
  return /\\[pP]\{|\\u\{|[\uD800-\uDFFF]/.test(pattern) ? 'u' : '';
}

/** A schema pattern compiled safely, or why it cannot be (it must also be valid with `u`). */
function compileSchemaPattern(pattern: string) {
  try {
    new RegExp(pattern, 'u');
  } catch (error) {
    return {
      ok: false as const,
      message: `the pattern is not a valid regular expression with Unicode semantics: ${(error as Error).message.replace(/^Invalid regular expression: /, '')}`,
      suggestion: 'fix the pattern (ECMA-262 syntax, as JSON Schema requires)',
    };
  }
  return compileSafeRegex(pattern, schemaPatternFlags(pattern));
}

function safeRegExp(pattern: string): { test: (text: string) => boolean; toString: () => string } {
  const compiled = compileSchemaPattern(pattern);
  // Unreachable for a checked schema (every pattern was checked first); refuse rather than run it.
  if (!compiled.ok) throw new Error(compiled.message);
  const { regex, maxInput } = compiled.value;
  return {
    // Ajv keys its compiled patterns by this text.
    toString: () => `safe:${String(regex)}`,
    test(text: string) {
      if (text.length > maxInput) throw new InputTooLong(maxInput);
      regex.lastIndex = 0;
      return regex.test(text);
    },
  };
}

function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    // Unknown keywords and formats are errors (a misspelt keyword never silently passes), but a
    // schema need not repeat `type` beside `properties` or list `required` members in `properties`.
    strict: true,
    strictTypes: false,
    strictTuples: false,
    strictRequired: false,
    allowUnionTypes: true,
    code: { regExp: safeRegExp as never },
    loadSchema: undefined,
  });
  addFormats(ajv);
  return ajv;
}

/** Every `pattern` value and `patternProperties` name in a schema that is unsafe, with its pointer. */
function patternProblems(schema: unknown): OutputSchemaProblem[] {
  const problems: OutputSchemaProblem[] = [];
  const stack: { node: unknown; pointer: string }[] = [{ node: schema, pointer: '' }];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const { node, pointer } = stack.pop()!;
    if (node === null || typeof node !== 'object' || seen.has(node)) continue;
    seen.add(node);
    for (const [key, value] of Object.entries(node)) {
      const at = joinPointer(pointer, key);
      if (!Array.isArray(node) && key === 'pattern' && typeof value === 'string') {
        const compiled = compileSchemaPattern(value);
        if (!compiled.ok) problems.push({ pointer: at, message: compiled.message, suggestion: compiled.suggestion });
      }
      if (!Array.isArray(node) && key === 'patternProperties' && value !== null && typeof value === 'object') {
        for (const name of Object.keys(value)) {
          const compiled = compileSchemaPattern(name);
          if (!compiled.ok)
            problems.push({
              pointer: joinPointer(at, name),
              message: compiled.message,
              suggestion: compiled.suggestion,
            });
        }
      }
      stack.push({ node: value, pointer: at });
    }
  }
  return problems.sort((a, b) => (a.pointer < b.pointer ? -1 : a.pointer > b.pointer ? 1 : 0));
}

export type OutputSchemaResult =
  | { ok: true; validate: ValidateFunction }
  | { ok: false; problems: OutputSchemaProblem[] };

/** Compiles an assertion's schema, or says what is wrong with it (never throws). */
export function compileOutputSchema(schema: unknown): OutputSchemaResult {
  const unsafe = patternProblems(schema);
  if (unsafe.length > 0) return { ok: false, problems: unsafe };
  try {
    return { ok: true, validate: createAjv().compile(schema as object) };
  } catch (error) {
    const message = String((error as Error).message ?? error).slice(0, 300);
    return {
      ok: false,
      problems: [
        {
          pointer: '',
          message: `the schema is not a valid JSON Schema (draft 2020-12): ${message}`,
          suggestion:
            'fix the schema: only draft 2020-12 keywords, known formats, and `$ref`s to its own `$defs` (no remote references)',
        },
      ],
    };
  }
}

/** Whether `value` satisfies a compiled schema, and the first errors when not. */
export function checkOutput(validate: ValidateFunction, value: unknown): { ok: boolean; detail: string } {
  try {
    if (validate(value)) return { ok: true, detail: 'the output matches the schema' };
    const errors = (validate.errors ?? [])
      .slice(0, 3)
      .map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`);
    return { ok: false, detail: `the output does not match the schema: ${errors.join('; ')}` };
  } catch (error) {
    if (error instanceof InputTooLong) return { ok: false, detail: error.message };
    return { ok: false, detail: 'the output could not be checked against the schema' };
  }
}
