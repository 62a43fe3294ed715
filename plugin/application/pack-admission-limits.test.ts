/**
 * The pack admission limits: the seed's numbers, and each check admitting exactly at its limit and
 * refusing one over, located where the limit applies.
 */
import { describe, expect, it } from 'vitest';
import {
  canonicalPackBytes,
  PACK_LIMIT_RULE,
  PACK_LIMITS,
  packBytesFinding,
  packComponentCountFinding,
  packCountFinding,
  totalComponentCountFinding,
} from './pack-admission-limits';

describe('PACK_LIMITS', () => {
  it('holds the seed numbers and cannot be changed', () => {
    expect(PACK_LIMITS).toEqual({
      maxPacks: 16,
      maxComponentsPerPack: 16,
      maxComponentsTotal: 100,
      maxPackBytes: 262_144,
    });
    expect(Object.isFrozen(PACK_LIMITS)).toBe(true);
  });
});

describe('the limit findings', () => {
  it('packs: 16 admitted, 17 refused at /packs', () => {
    expect(packCountFinding(16)).toBeUndefined();
    expect(packCountFinding(17)).toMatchObject({
      rule: PACK_LIMIT_RULE,
      path: '/packs',
      message: '17 component packs are given; at most 16 are admitted',
    });
  });

  it('components per pack: 16 admitted, 17 refused at the pack components', () => {
    expect(packComponentCountFinding(16, '/packs/2')).toBeUndefined();
    expect(packComponentCountFinding(17, '/packs/2')).toMatchObject({
      path: '/packs/2/components',
      message: expect.stringMatching(/17 components; a pack defines at most 16/),
    });
  });

  it('components in all: 100 admitted with the built-ins, 101 refused', () => {
    expect(totalComponentCountFinding(5, 95)).toBeUndefined();
    expect(totalComponentCountFinding(5, 96)).toMatchObject({
      path: '/packs',
      message: expect.stringMatching(/101 components \(5 built-in and 96 from packs\)/),
      suggestion: expect.stringMatching(/at most 95/),
    });
  });

  it('bytes: the UTF-8 length of the canonical JSON, 262144 admitted, 262145 refused at the pack', () => {
    const overhead = canonicalPackBytes({ d: '' }) as number; // {"d":""}
    expect(overhead).toBe(8);
    const exact = { d: 'x'.repeat(PACK_LIMITS.maxPackBytes - overhead) };
    expect(canonicalPackBytes(exact)).toBe(262_144);
    expect(packBytesFinding(exact, '/packs/0')).toBeUndefined();
    const over = { d: 'x'.repeat(PACK_LIMITS.maxPackBytes - overhead + 1) };
    expect(packBytesFinding(over, '/packs/0')).toMatchObject({
      path: '/packs/0',
      message: expect.stringMatching(/262145 bytes; a pack is at most 262144 bytes/),
    });
    // A three-byte character counts three times.
    expect(canonicalPackBytes({ d: '€' })).toBe(overhead + 3);
    // Key order does not matter: the canonical form sorts keys.
    expect(canonicalPackBytes({ b: 1, a: [1, 2] })).toBe(canonicalPackBytes({ a: [1, 2], b: 1 }));
  });
});
