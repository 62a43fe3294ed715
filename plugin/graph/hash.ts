/** A content hash for inference cache keys (SHA-256 over the parts, each length-prefixed). */
import { createHash } from 'node:crypto';

export function hashArray(parts: readonly string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(`${part.length}:`).update(part);
  return hash.digest('hex');
}
