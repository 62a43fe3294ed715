import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapePointerSegment, getAtPointer, joinPointer, parsePointer } from './json-pointer';

describe('escapePointerSegment / joinPointer', () => {
  it('escapes ~ before /', () => {
    expect(escapePointerSegment('a/b~c')).toBe('a~1b~0c');
    expect(escapePointerSegment('~1')).toBe('~01');
    expect(escapePointerSegment('plain')).toBe('plain');
  });

  it('joins names and indexes', () => {
    expect(joinPointer('', 'tools')).toBe('/tools');
    expect(joinPointer('/tools', 0)).toBe('/tools/0');
    expect(joinPointer('/a', 'x/y')).toBe('/a/x~1y');
    expect(joinPointer('', '')).toBe('/');
  });
});

describe('parsePointer', () => {
  it('splits and unescapes', () => {
    expect(parsePointer('')).toEqual([]);
    expect(parsePointer('/')).toEqual(['']);
    expect(parsePointer('/a~1b/0')).toEqual(['a/b', '0']);
    expect(parsePointer('/m~0n')).toEqual(['m~n']);
  });

  it('decodes ~01 as ~1, not as /', () => {
    expect(parsePointer('/~01')).toEqual(['~1']);
  });

  it('is lenient with malformed pointers instead of throwing', () => {
    expect(parsePointer('a/b')).toEqual(['a', 'b']);
    expect(parsePointer('/x~2')).toEqual(['x~2']);
  });

  it('round-trips any segments through joinPointer', () => {
    fc.assert(
      fc.property(fc.array(fc.string()), (segments) => {
        const pointer = segments.reduce<string>((p, s) => joinPointer(p, s), '');
        expect(parsePointer(pointer)).toEqual(segments);
      }),
    );
  });
});

describe('getAtPointer', () => {
  // The example document of RFC 6901, section 5.
  const doc = JSON.parse(`{
    "foo": ["bar", "baz"], "": 0, "a/b": 1, "c%d": 2, "e^f": 3,
    "g|h": 4, "i\\\\j": 5, "k\\"l": 6, " ": 7, "m~n": 8 }`) as unknown;

  it('resolves the RFC 6901 examples', () => {
    expect(getAtPointer(doc, '')).toBe(doc);
    expect(getAtPointer(doc, '/foo')).toEqual(['bar', 'baz']);
    expect(getAtPointer(doc, '/foo/0')).toBe('bar');
    expect(getAtPointer(doc, '/')).toBe(0);
    expect(getAtPointer(doc, '/a~1b')).toBe(1);
    expect(getAtPointer(doc, '/c%d')).toBe(2);
    expect(getAtPointer(doc, '/e^f')).toBe(3);
    expect(getAtPointer(doc, '/g|h')).toBe(4);
    expect(getAtPointer(doc, '/i\\j')).toBe(5);
    expect(getAtPointer(doc, '/k"l')).toBe(6);
    expect(getAtPointer(doc, '/ ')).toBe(7);
    expect(getAtPointer(doc, '/m~0n')).toBe(8);
  });

  it('returns undefined for what is not there', () => {
    expect(getAtPointer(doc, '/missing')).toBeUndefined();
    expect(getAtPointer(doc, '/foo/2')).toBeUndefined();
    expect(getAtPointer(doc, '/foo/0/x')).toBeUndefined();
    expect(getAtPointer(null, '/a')).toBeUndefined();
  });

  it('reads arrays by canonical index only', () => {
    expect(getAtPointer(['a', 'b'], '/1')).toBe('b');
    expect(getAtPointer(['a', 'b'], '/01')).toBeUndefined();
    expect(getAtPointer(['a', 'b'], '/-')).toBeUndefined();
    expect(getAtPointer(['a', 'b'], '/length')).toBeUndefined();
  });

  it('never walks the prototype chain', () => {
    expect(getAtPointer({}, '/constructor')).toBeUndefined();
    expect(getAtPointer({}, '/__proto__')).toBeUndefined();
    expect(getAtPointer({}, '/toString')).toBeUndefined();
    expect(getAtPointer([], '/map')).toBeUndefined();
    const inherited = Object.create({ secret: 1 }) as object;
    expect(getAtPointer(inherited, '/secret')).toBeUndefined();
  });

  it('reads __proto__ when it is an own data key', () => {
    const value = Object.create(null) as Record<string, unknown>;
    value['__proto__'] = { x: 1 };
    expect(getAtPointer(value, '/__proto__/x')).toBe(1);
    const parsed = JSON.parse('{"__proto__": {"x": 2}}') as unknown;
    expect(getAtPointer(parsed, '/__proto__/x')).toBe(2);
  });

  it('does not call getters', () => {
    let called = false;
    const value = {
      get trap() {
        called = true;
        return 1;
      },
    };
    expect(getAtPointer(value, '/trap')).toBeUndefined();
    expect(called).toBe(false);
  });
});
