/** A content hash for cache keys (the inference cache, the validated-definition store): SHA-256 over the parts, each length-prefixed. */
import { createHash, type Hash } from 'node:crypto';

export function hashArray(parts: readonly string[]): string {
  return hashArrayPrefix(parts).digest('hex');
}

/**
 * The state of {@link hashArray} after `parts`, to continue from (never digested itself): keys
 * that share their first parts hash those once.
 */
export function hashArrayPrefix(parts: readonly string[]): Hash {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(`${part.length}:`).update(part);
  return hash;
}

/** `hashArray([...prefix's parts, ...parts])`, continuing a copy of `prefix` (left as it is). */
export function hashArrayAfter(prefix: Hash, parts: readonly string[]): string {
  const hash = prefix.copy();
  for (const part of parts) hash.update(`${part.length}:`).update(part);
  return hash.digest('hex');
}
