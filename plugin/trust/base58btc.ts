/**
 * Base58 with the Bitcoin alphabet, and its Multibase form (`z` prefix), as Multikey values,
 * `did:key` identifiers and Data Integrity `proofValue`s use it. Leading zero bytes are leading
 * `1`s. Decoding returns undefined for any character outside the alphabet: no throw.
 */
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const DIGIT = new Map([...ALPHABET].map((char, index) => [char, index]));

export function base58btcEncode(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  const digits: number[] = [];
  for (let i = zeros; i < bytes.length; i++) {
    let carry = bytes[i]!;
    for (let j = 0; j < digits.length; j++) {
      carry += digits[j]! << 8;
      digits[j] = carry % 58;
      carry = Math.floor(carry / 58);
    }
    while (carry > 0) {
      digits.push(carry % 58);
      carry = Math.floor(carry / 58);
    }
  }
  return (
    '1'.repeat(zeros) +
    digits
      .reverse()
      .map((d) => ALPHABET[d])
      .join('')
  );
}

export function base58btcDecode(text: string): Uint8Array<ArrayBuffer> | undefined {
  let zeros = 0;
  while (zeros < text.length && text[zeros] === '1') zeros++;
  const bytes: number[] = [];
  for (let i = zeros; i < text.length; i++) {
    const digit = DIGIT.get(text[i]!);
    if (digit === undefined) return undefined;
    let carry = digit;
    for (let j = 0; j < bytes.length; j++) {
      carry += bytes[j]! * 58;
      bytes[j] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      bytes.push(carry & 0xff);
      carry >>= 8;
    }
  }
  const out = new Uint8Array(zeros + bytes.length);
  out.set(bytes.reverse(), zeros);
  return out;
}

/** `z` + base58btc: the Multibase base58btc form. */
export function multibaseBase58btcEncode(bytes: Uint8Array): string {
  return `z${base58btcEncode(bytes)}`;
}

/** The bytes of a Multibase base58btc value, or undefined when it is not one (wrong prefix, bad character). */
export function multibaseBase58btcDecode(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (typeof text !== 'string' || !text.startsWith('z')) return undefined;
  return base58btcDecode(text.slice(1));
}
