/**
 * How A2A v1.0 request parameters are read: as ProtoJSON (A2A §5.5, the proto is normative), whose
 * parsers accept more than one spelling of a value:
 * - `null` for a field is the field unset ("null is accepted for all field types and treated as the
 *   default value of the corresponding field type"), except for a `google.protobuf.Value` field
 *   (a part's `data`), where null is the JSON value null;
 * - an int32 is a JSON number or a string holding a decimal integer, within the int32 range.
 * Every parameter reader goes through these, so each method reads the same spelling the same way.
 */
const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;
const DECIMAL_INTEGER = /^-?(?:0|[1-9]\d*)$/;

/** A copy of `value` without the members set to null (ProtoJSON: unset); `values` names the `google.protobuf.Value` members, whose null is kept. */
export function withoutNullFields(
  value: Record<string, unknown>,
  values: readonly string[] = [],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) if (member !== null || values.includes(key)) out[key] = member;
  return out;
}

/** `value` without its null members when it is an object; anything else as it is (for the caller's own check). */
export function withoutNullFieldsIfObject(value: unknown, values: readonly string[] = []): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? withoutNullFields(value as Record<string, unknown>, values)
    : value;
}

/** An int32 as ProtoJSON reads it (a JSON integer, or a decimal string of one, within the int32 range); undefined for anything else. */
export function readInt32(value: unknown): number | undefined {
  const number =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && DECIMAL_INTEGER.test(value)
        ? Number(value)
        : Number.NaN;
  return Number.isInteger(number) && number >= INT32_MIN && number <= INT32_MAX ? number : undefined;
}

/** An optional int32 parameter: absent (undefined), its value, or `'invalid'`; `min` bounds it below. */
export function optionalInt32(value: unknown, min = 0): number | undefined | 'invalid' {
  if (value === undefined) return undefined;
  const number = readInt32(value);
  return number === undefined || number < min ? 'invalid' : number;
}
