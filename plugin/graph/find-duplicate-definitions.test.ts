/** Duplicate slugs and ids among definitions: who keeps the value, who is reported, and how. */
import { describe, expect, it } from 'vitest';
import { findDuplicateDefinitions } from './find-duplicate-definitions';

describe('findDuplicateDefinitions', () => {
  it('finds nothing when every slug and id is its own (and ignores missing ones)', () => {
    expect(
      findDuplicateDefinitions([
        { file: 'a/agent.json', slug: 'a', id: 'A' },
        { file: 'b/agent.json', slug: 'b', id: 'B' },
        { file: 'c/agent.json' },
        { file: 'd/agent.json' },
      ]),
    ).toEqual([]);
  });

  it('reports each later file against the first, with both locations, the pointer and what to change', () => {
    const found = findDuplicateDefinitions([
      {
        file: 'a/agent.json',
        slug: 'writer',
        slugAt: { line: 5, column: 13 },
        id: 'ID1',
        idAt: { line: 4, column: 11 },
      },
      { file: 'b/agent.yaml', slug: 'writer', slugAt: { line: 3, column: 9 }, id: 'ID2' },
      { file: 'c/agent.json', slug: 'writer', id: 'ID1', idAt: { line: 4, column: 11 } },
      { file: 'd/agent.json', slug: 'reader', id: 'ID1', idAt: { line: 4, column: 11 } },
    ]);
    expect(found.map((d) => [d.field, d.pointer, d.value, d.first.file, d.duplicate.file])).toEqual([
      ['identity.slug', '/identity/slug', 'writer', 'a/agent.json', 'b/agent.yaml'],
      ['identity.slug', '/identity/slug', 'writer', 'a/agent.json', 'c/agent.json'],
      // c states a's slug and id (one agent twice: the slug report covers it); d only its id
      ['identity.id', '/identity/id', 'ID1', 'a/agent.json', 'd/agent.json'],
    ]);
    expect(found[0]!.message).toBe(
      'b/agent.yaml:3:9: identity.slug "writer" is already stated by a/agent.json:5:13; each agent is one Nx project named by its slug and pins resolve by it, so change /identity/slug in one of the two files (and the pins that mean it)',
    );
    // Without a position the file alone is named.
    expect(
      found[1]!.message.startsWith('c/agent.json: identity.slug "writer" is already stated by a/agent.json:5:13;'),
    ).toBe(true);
    expect(found[2]!.message).toBe(
      'd/agent.json:4:11: identity.id "ID1" is already stated by a/agent.json:4:11; an id names exactly one agent, so give one of the two files a new ULID in /identity/id',
    );
  });
});
