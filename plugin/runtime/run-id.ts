/**
 * Run identifiers: ULID-shaped (26 Crockford base32 characters: 48 bits of milliseconds, then 80
 * random bits from `crypto.getRandomValues`), so they sort by start time and never collide in
 * practice. The random source is injectable for deterministic tests.
 */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export type RandomFill = (bytes: Uint8Array<ArrayBuffer>) => Uint8Array<ArrayBuffer>;

export const webRandom: RandomFill = (bytes) => crypto.getRandomValues(bytes);

export function newRunId(nowMs: number = Date.now(), random: RandomFill = webRandom): string {
  if (!Number.isInteger(nowMs) || nowMs < 0 || nowMs > 0xffff_ffff_ffff)
    throw new RangeError('newRunId: time out of range');
  let time = '';
  let t = nowMs;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD.charAt(t % 32) + time;
    t = Math.floor(t / 32);
  }
  const bytes = random(new Uint8Array(10));
  // 80 bits -> 16 base32 characters, 5 bits at a time.
  let bits = 0;
  let acc = 0;
  let rand = '';
  for (const byte of bytes) {
    acc = (acc << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      rand += CROCKFORD.charAt((acc >>> (bits - 5)) & 31);
      bits -= 5;
    }
    acc &= (1 << bits) - 1;
  }
  return time + rand;
}

export const RUN_ID_PATTERN = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;
