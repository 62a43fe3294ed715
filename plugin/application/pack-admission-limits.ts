/**
 * The limits of component pack admission (the composition seed's numbers) and their findings:
 *
 * - at most 16 packs;
 * - at most 16 components in one pack;
 * - at most 100 components in the whole catalog: the 5 built-ins plus every pack's components;
 * - at most 256 KiB per pack, counted as the UTF-8 bytes of its canonical JSON
 *   (`stableApplicationJson`, source digest included).
 *
 * Each check is "at most": exactly at a limit is admitted, one over is refused. A limit is checked
 * before the work it bounds, so an oversized input is refused without being inspected further.
 */
import type { Finding } from '../definition/diagnostic';
import { joinPointer } from '../definition/json-pointer';
import { canonicalText, type JsonValue } from './stable-json';

export const PACK_LIMITS = Object.freeze({
  /** Packs one registry admits. */
  maxPacks: 16,
  /** Components one pack defines. */
  maxComponentsPerPack: 16,
  /** Components in the catalog: the built-ins plus every admitted pack's. */
  maxComponentsTotal: 100,
  /** UTF-8 bytes of one pack's canonical JSON (stableApplicationJson). */
  maxPackBytes: 256 * 1024,
});

export const PACK_LIMIT_RULE = 'component-pack-limit';

/** More packs than the limit: one finding at `/packs`. */
export function packCountFinding(count: number): Finding | undefined {
  if (count <= PACK_LIMITS.maxPacks) return undefined;
  return {
    rule: PACK_LIMIT_RULE,
    path: '/packs',
    message: `${count} component packs are given; at most ${PACK_LIMITS.maxPacks} are admitted`,
    suggestion: 'admit fewer packs, or merge related components into one pack',
  };
}

/** More components in one pack than the limit: one finding at the pack's `components`. */
export function packComponentCountFinding(count: number, packPointer: string): Finding | undefined {
  if (count <= PACK_LIMITS.maxComponentsPerPack) return undefined;
  return {
    rule: PACK_LIMIT_RULE,
    path: joinPointer(packPointer, 'components'),
    message: `the pack defines ${count} components; a pack defines at most ${PACK_LIMITS.maxComponentsPerPack}`,
    suggestion: 'split the pack into several packs (each with its own id, revision and source)',
  };
}

/** More components in the catalog (built-ins plus packs) than the limit: one finding at `/packs`. */
export function totalComponentCountFinding(builtinCount: number, packComponentCount: number): Finding | undefined {
  const total = builtinCount + packComponentCount;
  if (total <= PACK_LIMITS.maxComponentsTotal) return undefined;
  return {
    rule: PACK_LIMIT_RULE,
    path: '/packs',
    message: `the catalog would hold ${total} components (${builtinCount} built-in and ${packComponentCount} from packs); at most ${PACK_LIMITS.maxComponentsTotal} are admitted in all`,
    suggestion: `admit packs with at most ${PACK_LIMITS.maxComponentsTotal - builtinCount} components in all`,
  };
}

/** The UTF-8 bytes of a pack's canonical JSON, or undefined when it has none. */
export function canonicalPackBytes(pack: JsonValue): number | undefined {
  const text = canonicalText(pack);
  return text.ok ? Buffer.byteLength(text.text, 'utf8') : undefined;
}

/** A pack whose canonical JSON is over the limit: one finding at the pack. */
export function packBytesFinding(pack: JsonValue, packPointer: string): Finding | undefined {
  const bytes = canonicalPackBytes(pack);
  if (bytes === undefined || bytes <= PACK_LIMITS.maxPackBytes) return undefined;
  return {
    rule: PACK_LIMIT_RULE,
    path: packPointer,
    message: `the pack's canonical JSON is ${bytes} bytes; a pack is at most ${PACK_LIMITS.maxPackBytes} bytes (256 KiB)`,
    suggestion: 'shorten descriptions and configuration schemas, or split the pack',
  };
}
