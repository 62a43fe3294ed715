/**
 * `readBodyText` against hostile bodies: whatever the chunking, a body within the limit reads as
 * the Encoding standard's UTF-8 decode reads it, which is what `request.text()` does (split
 * multi-byte characters, a BOM, invalid UTF-8; Node 20's undici strips a second BOM too, against
 * the standard, which a JSON body cannot start with either way), one past the limit
 * is refused having pulled at most one chunk beyond it, and a stream that fails, gives strings or
 * other views, or was already read is `unreadable` rather than a crash or an unbounded read.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readBodyText } from './request-guard';

/** A POST whose body is `chunks`, pulled one at a time; `pulled()` counts the pulls. */
function chunked(chunks: readonly unknown[]): { request: Request; pulled: () => number; canceled: () => boolean } {
  let pulls = 0;
  let canceled = false;
  const body = new ReadableStream({
    pull(controller) {
      if (pulls >= chunks.length) return controller.close();
      controller.enqueue(chunks[pulls++]);
    },
    cancel() {
      canceled = true;
    },
  });
  return {
    request: new Request('http://x/', {
      method: 'POST',
      body: body as ReadableStream<Uint8Array>,
      duplex: 'half',
    } as RequestInit),
    pulled: () => pulls,
    canceled: () => canceled,
  };
}

/** Splits `bytes` at the given cut points (sorted, deduplicated). */
function split(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const parts: Uint8Array[] = [];
  let start = 0;
  for (const point of [...points, bytes.length]) {
    parts.push(bytes.slice(start, point));
    start = point;
  }
  return parts;
}

const BOM = [0xef, 0xbb, 0xbf];
const hostileBytes = fc.oneof(
  fc.uint8Array({ maxLength: 64 }),
  fc.string({ unit: 'binary', maxLength: 24 }).map((text) => new TextEncoder().encode(text)),
  fc
    .tuple(
      fc.constantFrom(new Uint8Array(BOM), new Uint8Array([...BOM, ...BOM])),
      fc.string({ unit: 'binary', maxLength: 12 }),
    )
    .map(([bom, text]) => new Uint8Array([...bom, ...new TextEncoder().encode(text)])),
  // Truncated and overlong sequences, lone surrogates encoded as UTF-8, bytes that never start a character.
  fc
    .array(
      fc.constantFrom(
        [0xe2, 0x82],
        [0xc0, 0xaf],
        [0xed, 0xa0, 0x80],
        [0xff],
        [0xf0, 0x9f, 0x98, 0x80],
        [0x7b],
        [0xc3, 0xa9],
      ),
      { maxLength: 12 },
    )
    .map((parts) => new Uint8Array(parts.flat())),
);

describe('readBodyText', () => {
  it('reads any bytes, cut anywhere, as UTF-8 decode does within the limit, and refuses them past it', async () => {
    await fc.assert(
      fc.asyncProperty(
        hostileBytes,
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.integer({ min: 0, max: 80 }),
        async (bytes, cuts, maxBytes) => {
          const parts = split(bytes, cuts);
          const { request, pulled, canceled } = chunked(parts);
          const read = await readBodyText(request, maxBytes);
          if (bytes.length > maxBytes) {
            expect(read).toBe('too-large');
            expect(canceled()).toBe(true);
            // Pulled up to the chunk that crossed the limit, not the rest.
            let seen = 0;
            const crossing = parts.findIndex((part) => (seen += part.length) > maxBytes);
            expect(pulled()).toBe(crossing + 1);
          } else {
            expect(read).toBe(new TextDecoder().decode(bytes));
            const text = await new Response(bytes).text();
            if (read !== text) expect(read).toBe(`\ufeff${text}`);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('refuses a body of many small chunks past the limit after pulling just past it', async () => {
    const { request, pulled } = chunked(Array.from({ length: 10_000 }, () => new Uint8Array(10)));
    expect(await readBodyText(request, 1000)).toBe('too-large');
    expect(pulled()).toBe(101);
  });

  it('holds nothing for empty chunks, and an empty body is empty text', async () => {
    expect(await readBodyText(chunked([new Uint8Array(0), new Uint8Array(0)]).request, 0)).toBe('');
    expect(await readBodyText(chunked([]).request, 0)).toBe('');
    expect(
      await readBodyText(chunked([new Uint8Array(0), new Uint8Array([0x7b, 0x7d]), new Uint8Array(0)]).request, 2),
    ).toBe('{}');
    expect(await readBodyText(new Request('http://x/', { method: 'POST', body: '' }), 0)).toBe('');
  });

  it('answers unreadable, having cancelled the stream, for a stream of strings, of other views, or of ArrayBuffers', async () => {
    for (const chunk of ['x'.repeat(1000), new Uint16Array([0x4141]), new ArrayBuffer(4), { byteLength: 1 }, null]) {
      const body = chunked(Array.from({ length: 1000 }, () => chunk));
      expect(await readBodyText(body.request, 100), String(chunk)).toBe('unreadable');
      expect(body.pulled()).toBe(1);
      expect(body.canceled()).toBe(true);
    }
  });

  it('answers unreadable for a stream that fails mid-body, and for a body already read', async () => {
    let pulls = 0;
    const failing = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulls++ === 0) controller.enqueue(new Uint8Array([0x7b]));
        else controller.error(new Error('connection reset'));
      },
    });
    expect(
      await readBodyText(
        new Request('http://x/', { method: 'POST', body: failing, duplex: 'half' } as RequestInit),
        100,
      ),
    ).toBe('unreadable');
    const used = new Request('http://x/', { method: 'POST', body: '{}' });
    await used.text();
    expect(await readBodyText(used, 100)).toBe('unreadable');
  });
});
