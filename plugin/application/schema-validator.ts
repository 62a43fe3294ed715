/**
 * The application layer's JSON Schemas (the manifest's, the pack's) compiled on first use by one
 * Ajv 2020 configuration, the same as the generated agent-definition validator's: every error,
 * strict mode, Unicode regular expressions, union types, and the `x-message` annotation.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';

const compiled = new WeakMap<object, ValidateFunction>();

export function schemaValidator(schema: object): ValidateFunction {
  let validate = compiled.get(schema);
  if (validate === undefined) {
    const ajv = new Ajv2020({ allErrors: true, strict: true, unicodeRegExp: true, allowUnionTypes: true });
    ajv.addKeyword({ keyword: 'x-message', schemaType: 'string' });
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}
