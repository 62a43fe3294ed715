import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isAssignableKind, isPortKind, PORT_KINDS } from './port-kinds';

describe('the port-kind lattice', () => {
  it('is exactly this table (from → to)', () => {
    // biome-ignore format: a table
    const expected: Record<string, string[]> = {
      json:         ['json'],
      text:         ['json', 'text'],
      artifact:     ['json', 'artifact'],
      'agent-plan': ['json', 'agent-plan'],
    };
    for (const from of PORT_KINDS) {
      expect(PORT_KINDS.filter((to) => isAssignableKind(from, to)).sort(), from).toEqual(expected[from]!.sort());
    }
  });

  it('is reflexive, antisymmetric and transitive, with json on top', () => {
    for (const a of PORT_KINDS) {
      expect(isAssignableKind(a, a)).toBe(true);
      expect(isAssignableKind(a, 'json')).toBe(true);
      for (const b of PORT_KINDS) {
        if (a !== b && isAssignableKind(a, b)) expect(isAssignableKind(b, a)).toBe(false);
        for (const c of PORT_KINDS)
          if (isAssignableKind(a, b) && isAssignableKind(b, c)) expect(isAssignableKind(a, c)).toBe(true);
      }
    }
  });

  it('fails closed on any kind outside the lattice, including prototype names and near spellings', () => {
    for (const odd of [
      '',
      'JSON',
      'Text',
      'json ',
      'agent_plan',
      'constructor',
      '__proto__',
      'toString',
      'hasOwnProperty',
      'any',
      '*',
    ]) {
      expect(isPortKind(odd)).toBe(false);
      for (const known of PORT_KINDS) {
        expect(isAssignableKind(odd, known)).toBe(false);
        expect(isAssignableKind(known, odd)).toBe(false);
      }
      expect(isAssignableKind(odd, odd)).toBe(false);
    }
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        if (!isPortKind(a) || !isPortKind(b)) expect(isAssignableKind(a, b)).toBe(false);
      }),
    );
    expect(isPortKind(undefined)).toBe(false);
    expect(isPortKind(1)).toBe(false);
  });
});
