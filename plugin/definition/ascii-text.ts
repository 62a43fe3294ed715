/**
 * Whether text is all ASCII (every UTF-16 code unit below U+0080), answered without a scan in
 * JavaScript: a string's UTF-8 length equals its length exactly then (any other code unit, a
 * surrogate included, takes two bytes or more per unit). Lets the fast path's checks of whole
 * texts for rarer characters (surrogates, C1 and bidi controls) stop at once. Pure.
 */
import { Buffer } from 'node:buffer';

export function isAsciiText(text: string): boolean {
  return Buffer.byteLength(text, 'utf8') === text.length;
}
