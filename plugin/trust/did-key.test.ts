/** did:key resolution and Multikey / base58btc round trips. */
import * as ed from '@noble/ed25519';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base58btcDecode, base58btcEncode } from './base58btc';
import { didKeyOf, didKeyVerificationMethod, resolveDidKey } from './did-key';
import { decodeEd25519PublicMultikey, encodeEd25519PublicMultikey, publicJwkOfBytes } from './multikey';

const VECTOR_DID = 'did:key:z6MkrJVnaZkeFzdQyMZu1cgjg7k1pZZ6pvBQ7XJPt4swbTQ2';

describe('base58btc', () => {
  it('round-trips any bytes, leading zeros included', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
        expect([...(base58btcDecode(base58btcEncode(bytes)) ?? [])]).toEqual([...bytes]);
      }),
    );
  });
  it('refuses characters outside the alphabet', () => {
    expect(base58btcDecode('0OIl')).toBeUndefined();
  });
});

describe('resolveDidKey', () => {
  it('resolves the W3C vector did:key and its #fragment verification method to the same key', () => {
    const bare = resolveDidKey(VECTOR_DID);
    const url = resolveDidKey(didKeyVerificationMethod(VECTOR_DID));
    expect(bare.ok && url.ok).toBe(true);
    if (!bare.ok || !url.ok) return;
    expect(url.verificationMethod).toBe(`${VECTOR_DID}#z6MkrJVnaZkeFzdQyMZu1cgjg7k1pZZ6pvBQ7XJPt4swbTQ2`);
    expect(url.publicJwk).toEqual(bare.publicJwk);
    expect(didKeyOf(bare.publicJwk)).toBe(VECTOR_DID);
  });

  it('round-trips generated keys', async () => {
    for (let i = 0; i < 5; i++) {
      const pub = await ed.getPublicKeyAsync(ed.utils.randomSecretKey());
      const did = didKeyOf(pub)!;
      expect(did.startsWith('did:key:z6Mk')).toBe(true);
      const resolved = resolveDidKey(did);
      expect(resolved.ok && [...resolved.publicKey]).toEqual([...pub]);
      expect(didKeyOf(publicJwkOfBytes(pub))).toBe(did);
    }
  });

  it('refuses other methods, wrong fragments, other multicodecs and bad lengths, with a reason', () => {
    const cases: unknown[] = [
      'did:web:example.com',
      `${VECTOR_DID}#key-1`,
      'did:key:zDnaegE6RR3atJtHKwTRTWHsJ3kNHqFwv7n9YjTgmU7TyfU76', // P-256 (0x1200)
      'did:key:z6Mk',
      'did:key:mABC',
      'did:key:z0OIl',
      42,
    ];
    for (const input of cases) {
      const result = resolveDidKey(input);
      expect(result.ok, String(input)).toBe(false);
      if (!result.ok) expect(result.reason.length).toBeGreaterThan(10);
    }
    const p256 = decodeEd25519PublicMultikey('zDnaegE6RR3atJtHKwTRTWHsJ3kNHqFwv7n9YjTgmU7TyfU76');
    expect(!p256.ok && p256.reason).toContain('0x8024');
  });

  it('encodes a Multikey that decodes back', () => {
    const key = new Uint8Array(32).fill(7);
    const decoded = decodeEd25519PublicMultikey(encodeEd25519PublicMultikey(key));
    expect(decoded.ok && [...decoded.bytes]).toEqual([...key]);
  });
});
