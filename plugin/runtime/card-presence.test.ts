/**
 * The card presence table (card-presence.ts) is the A2A v1.0.1 proto's, field for field: every
 * message reachable from AgentCard, every field with its type, container and presence, checked
 * against the derived required-fields file copied in e2e/fixtures/conformance/a2a/.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CARD_MESSAGES } from './card-presence';

interface DerivedField {
  json: string;
  type: string;
  required: boolean;
  optional_keyword: boolean;
  repeated: boolean;
  map: boolean;
}
type Derived = Record<string, { required: string[]; fields: DerivedField[] }>;

const derived = JSON.parse(
  readFileSync(join(__dirname, '../../e2e/fixtures/conformance/a2a/a2a-v1.0.1.required-fields.derived.json'), 'utf8'),
) as Derived;

function elementType(field: DerivedField): string {
  return field.map ? field.type.slice(4, -1).split(',')[1]!.trim() : field.type;
}

function reachable(from: string): string[] {
  const seen: string[] = [];
  const queue = [from];
  while (queue.length > 0) {
    const name = queue.shift()!;
    if (seen.includes(name)) continue;
    seen.push(name);
    for (const field of derived[name]!.fields) if (derived[elementType(field)]) queue.push(elementType(field));
  }
  return seen;
}

describe('card presence table', () => {
  it('has exactly the messages reachable from AgentCard', () => {
    expect(Object.keys(CARD_MESSAGES).sort()).toEqual(reachable('AgentCard').sort());
  });

  it.each(reachable('AgentCard'))('%s: every field with its type, container and presence', (name) => {
    const table = CARD_MESSAGES[name]!;
    expect(Object.keys(table).sort()).toEqual(derived[name]!.fields.map((f) => f.json).sort());
    for (const field of derived[name]!.fields) {
      const type = elementType(field);
      const expectedType = derived[type] ? `message:${type}` : type === 'google.protobuf.Struct' ? 'struct' : type;
      const presence = field.required
        ? 'required'
        : field.optional_keyword
          ? 'optional'
          : field.map
            ? 'map'
            : field.repeated
              ? 'repeated'
              : derived[type] || expectedType === 'struct'
                ? 'explicit'
                : 'implicit';
      const spec = table[field.json]!;
      expect({ field: field.json, type: spec.type, presence: spec.presence, container: spec.container }).toEqual({
        field: field.json,
        type: expectedType,
        presence,
        container: field.map ? 'map' : field.repeated ? 'list' : undefined,
      });
    }
  });
});
