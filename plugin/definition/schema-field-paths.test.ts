import { describe, expect, it } from 'vitest';
import { schemaFieldPaths } from './schema-field-paths';

describe('schemaFieldPaths', () => {
  it('follows $refs, arrays of objects and oneOf branches down to the leaves', () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        owner: { $ref: '#/$defs/Owner' },
        pins: { type: 'array', items: { $ref: '#/$defs/Pin' } },
        tags: { type: 'array', items: { type: 'string' } },
        bindings: {
          type: 'array',
          items: {
            properties: { kind: { type: 'string' } },
            oneOf: [
              { properties: { kind: { const: 'kv' }, name: { type: 'string' }, id: { type: 'string' } } },
              { $ref: '#/$defs/Queue' },
            ],
          },
        },
        'a/b~c': { type: 'boolean' },
        notes: { type: 'object', additionalProperties: true },
      },
      $defs: {
        Owner: { type: 'object', properties: { kind: { type: 'string' }, id: { type: 'string' } } },
        Pin: { type: 'object', properties: { tier: { type: 'string' }, sampling: { $ref: '#/$defs/Sampling' } } },
        Sampling: { type: 'object', properties: { topK: { type: 'integer' } } },
        Queue: { properties: { kind: { const: 'queue' }, name: { type: 'string' }, queue: { type: 'string' } } },
      },
    };
    expect(schemaFieldPaths(schema)).toEqual([
      '/name',
      '/owner/kind',
      '/owner/id',
      '/pins/*/tier',
      '/pins/*/sampling/topK',
      '/tags',
      '/bindings/*/kind',
      '/bindings/*/name',
      '/bindings/*/id',
      '/bindings/*/queue',
      '/a~1b~0c',
      '/notes',
    ]);
  });

  it('stops at a $ref cycle instead of looping', () => {
    const schema = {
      properties: { node: { $ref: '#/$defs/Node' } },
      $defs: { Node: { properties: { label: { type: 'string' }, next: { $ref: '#/$defs/Node' } } } },
    };
    expect(schemaFieldPaths(schema)).toEqual(['/node/label']);
  });
});
