/** Tests for the RFC 7638 JWK thumbprint, with the RFC 8037 Appendix A.3 example. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { jwkThumbprint, jwkThumbprintInput } from './jwk-thumbprint';
import { generateReceiptKeyPair } from './receipts';

// RFC 8037 Appendix A.1 / A.3.
const RFC8037_X = '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo';
const RFC8037_D = 'nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A';
const RFC8037_THUMBPRINT = 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k';

describe('jwkThumbprint (RFC 7638)', () => {
  it('matches the RFC 8037 Appendix A.3 example', async () => {
    expect(await jwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x: RFC8037_X })).toBe(RFC8037_THUMBPRINT);
  });

  it('hashes only the required members in lexicographic order', () => {
    expect(jwkThumbprintInput({ kty: 'OKP', crv: 'Ed25519', x: RFC8037_X })).toBe(
      `{"crv":"Ed25519","kty":"OKP","x":"${RFC8037_X}"}`,
    );
  });

  it('gives the same kid for the private JWK and for extra members', async () => {
    const withExtras = {
      kty: 'OKP',
      crv: 'Ed25519',
      x: RFC8037_X,
      d: RFC8037_D,
      alg: 'Ed25519',
      key_ops: ['verify'],
      ext: true,
    };
    expect(await jwkThumbprint(withExtras)).toBe(RFC8037_THUMBPRINT);
  });

  it('agrees with node:crypto SHA-256 for a generated key', async () => {
    const { publicJwk } = await generateReceiptKeyPair();
    const expected = createHash('sha256')
      .update(`{"crv":"Ed25519","kty":"OKP","x":"${publicJwk.x}"}`, 'utf8')
      .digest('base64url');
    expect(await jwkThumbprint(publicJwk)).toBe(expected);
  });

  it('refuses keys that are not Ed25519 OKP keys', async () => {
    await expect(jwkThumbprint({ kty: 'EC', crv: 'P-256', x: RFC8037_X })).rejects.toThrow(/kty/);
    await expect(jwkThumbprint({ kty: 'OKP', crv: 'X25519', x: RFC8037_X })).rejects.toThrow(/crv/);
    await expect(jwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x: 'AAAA' })).rejects.toThrow(/32 bytes/);
    await expect(jwkThumbprint({ kty: 'OKP', crv: 'Ed25519' })).rejects.toThrow(/x must/);
  });
});
