import { describe, expect, it } from 'vitest';
import { inputSchemaDifference } from './tool-schema-diff';

const declared = {
  type: 'object',
  properties: {
    text: { type: 'string' },
    limit: { type: 'integer' },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['text'],
};

describe('inputSchemaDifference', () => {
  it('accepts the same arguments whatever the descriptions, $schema and additionalProperties say', () => {
    const offered = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      additionalProperties: false,
      properties: {
        limit: { type: 'integer', description: 'x', minimum: 1 },
        text: { type: 'string', minLength: 1 },
        tags: { type: 'array', items: { type: 'string' } },
      },
      required: ['text'],
    };
    expect(inputSchemaDifference(declared, offered)).toBeUndefined();
  });

  it.each([
    [
      {
        properties: { text: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
        required: ['text'],
      },
      'the server has no argument "limit"',
    ],
    [
      {
        properties: {
          text: { type: 'string' },
          limit: { type: 'number' },
          tags: { type: 'array', items: { type: 'string' } },
        },
        required: ['text'],
      },
      'argument "limit" is number on the server, integer in the inventory',
    ],
    [
      {
        properties: {
          text: { type: 'string' },
          limit: { type: 'integer' },
          tags: { type: 'array', items: { type: 'number' } },
        },
        required: ['text'],
      },
      'argument "tags" is array<number> on the server, array<string> in the inventory',
    ],
    [
      {
        properties: {
          text: { type: 'string' },
          limit: { type: 'integer' },
          tags: { type: 'array', items: { type: 'string' } },
          extra: {},
        },
        required: ['text'],
      },
      'the server has an extra argument "extra"',
    ],
    [
      {
        properties: {
          text: { type: 'string' },
          limit: { type: 'integer' },
          tags: { type: 'array', items: { type: 'string' } },
        },
        required: ['limit', 'text'],
      },
      'required arguments differ (server: limit, text; inventory: text)',
    ],
    [undefined, 'the server has no argument "limit"'],
  ])('names the first difference (%#)', (offered, expected) => {
    expect(inputSchemaDifference(declared, offered)).toBe(expected);
  });
});
