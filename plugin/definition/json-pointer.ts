/**
 * JSON Pointers (RFC 6901): how every layer of agentdef names a place in a definition.
 */

/** Escapes one reference token: `~` becomes `~0`, `/` becomes `~1`. */
export function escapePointerSegment(segment: string): string {
  if (!segment.includes('~') && !segment.includes('/')) return segment;
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The pointer to `segment` (a property name or an array index) inside the value at `base`. */
export function joinPointer(base: string, segment: string | number): string {
  return `${base}/${typeof segment === 'number' ? segment : escapePointerSegment(segment)}`;
}

/**
 * The unescaped reference tokens of a pointer: `""` is `[]`, `"/a~1b/0"` is `["a/b", "0"]`.
 * Never throws: a pointer missing its leading `/` is read as if it had one, and a `~` that is
 * not followed by `0` or `1` is kept as it is.
 */
export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  const body = pointer.startsWith('/') ? pointer.slice(1) : pointer;
  return body.split('/').map(unescapeSegment);
}

function unescapeSegment(segment: string): string {
  // One pass, so `~01` decodes to `~1` and not to `/`.
  return segment.includes('~') ? segment.replace(/~[01]/g, (m) => (m === '~0' ? '~' : '/')) : segment;
}

const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/;

/**
 * The value at `pointer`, or `undefined` when there is none. Reads own data properties only: it
 * never walks a prototype chain, never calls a getter, and reads arrays by canonical index only.
 */
export function getAtPointer(value: unknown, pointer: string): unknown {
  let current = value;
  for (const segment of parsePointer(pointer)) {
    if (typeof current !== 'object' || current === null) return undefined;
    if (Array.isArray(current) && !ARRAY_INDEX.test(segment)) return undefined;
    const property = Object.getOwnPropertyDescriptor(current, segment);
    if (property === undefined || !('value' in property)) return undefined;
    current = property.value;
  }
  return current;
}
