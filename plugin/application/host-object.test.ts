/**
 * Reading host objects: own data properties only, located findings for accessors, Proxies,
 * non-objects, sparse or oversized arrays, and no code of the value ever runs.
 */
import { describe, expect, it } from 'vitest';
import { describeHostValue, readHostArray, readHostMembers } from './host-object';

const RULE = 'test-rule';

describe('readHostMembers', () => {
  it('reads own data properties and reports absent ones as absent', () => {
    const execute = () => 1;
    const read = readHostMembers({ a: 1, execute }, '/x', 'the object', ['a', 'execute', 'missing'], RULE);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.members.get('a')).toEqual({ present: true, value: 1 });
    expect(read.members.get('execute')).toEqual({ present: true, value: execute });
    expect(read.members.get('missing')).toEqual({ present: false });
  });

  it('never reads the prototype chain', () => {
    class Host {
      execute() {
        return 1;
      }
    }
    const read = readHostMembers(new Host(), '', 'the object', ['execute', 'toString'], RULE);
    expect(read.ok && read.members.get('execute')).toEqual({ present: false });
    expect(read.ok && read.members.get('toString')).toEqual({ present: false });
  });

  it('refuses accessors at their place without calling them', () => {
    let runs = 0;
    const value = Object.defineProperty({}, 'owner', {
      get: () => {
        runs++;
        return 'x';
      },
      enumerable: true,
    });
    const read = readHostMembers(value, '/adapters/3', 'the adapter', ['owner'], RULE);
    expect(read).toEqual({
      ok: false,
      findings: [{ rule: RULE, path: '/adapters/3/owner', message: expect.stringMatching(/accessor.*never called/) }],
    });
    expect(runs).toBe(0);
  });

  it('refuses Proxies (revoked or not) without touching them, and non-objects', () => {
    let traps = 0;
    const proxy = new Proxy(
      {},
      {
        getOwnPropertyDescriptor: () => {
          traps++;
          return undefined;
        },
      },
    );
    const revocable = Proxy.revocable({}, {});
    revocable.revoke();
    for (const value of [proxy, revocable.proxy]) {
      const read = readHostMembers(value, '/p', 'the object', ['a'], RULE);
      expect(read.ok).toBe(false);
      if (!read.ok) expect(read.findings[0]?.message).toMatch(/Proxy/);
    }
    expect(traps).toBe(0);
    for (const value of [null, undefined, 1, 'x', [], () => 1]) {
      const read = readHostMembers(value, '/p', 'the object', ['a'], RULE);
      expect(read.ok).toBe(false);
      if (!read.ok)
        expect(read.findings[0]).toMatchObject({ path: '/p', message: expect.stringMatching(/must be an object/) });
    }
  });
});

describe('readHostArray', () => {
  it('returns the elements of a plain dense array within the bound', () => {
    expect(readHostArray([1, 'a'], '/xs', 'the list', 2, RULE)).toEqual({ ok: true, items: [1, 'a'] });
  });

  it('refuses an array over the bound before reading any element, with the caller wording when given', () => {
    let runs = 0;
    const list = [1, 2, 3];
    Object.defineProperty(list, 0, {
      get: () => {
        runs++;
        return 1;
      },
    });
    expect(readHostArray(list, '/xs', 'the list', 2, RULE)).toEqual({
      ok: false,
      findings: [{ rule: RULE, path: '/xs', message: 'the list has 3 entries; at most 2 are admitted' }],
    });
    expect(
      readHostArray(new Array(2 ** 32 - 1), '/xs', 'the list', 2, RULE, (n) => ({
        rule: 'limit',
        path: '/xs',
        message: `${n} is too many`,
      })),
    ).toEqual({
      ok: false,
      findings: [{ rule: 'limit', path: '/xs', message: '4294967295 is too many' }],
    });
    expect(runs).toBe(0);
  });

  it('refuses holes, accessors, Proxies, foreign prototypes and non-arrays at their place', () => {
    const sparse = [1, 2, 3];
    delete sparse[1];
    expect(readHostArray(sparse, '/xs', 'the list', 5, RULE)).toMatchObject({
      ok: false,
      findings: [{ path: '/xs/1', message: expect.stringMatching(/hole/) }],
    });
    const getter = [1];
    Object.defineProperty(getter, 0, { get: () => 1 });
    expect(readHostArray(getter, '/xs', 'the list', 5, RULE)).toMatchObject({
      ok: false,
      findings: [{ path: '/xs/0', message: expect.stringMatching(/accessor/) }],
    });
    expect(readHostArray(new Proxy([], {}), '/xs', 'the list', 5, RULE)).toMatchObject({
      ok: false,
      findings: [{ path: '/xs', message: expect.stringMatching(/Proxy/) }],
    });
    expect(readHostArray(Object.setPrototypeOf([], null), '/xs', 'the list', 5, RULE)).toMatchObject({
      ok: false,
      findings: [{ path: '/xs', message: expect.stringMatching(/custom prototype/) }],
    });
    expect(readHostArray({ length: 0 }, '/xs', 'the list', 5, RULE)).toMatchObject({
      ok: false,
      findings: [{ path: '/xs', message: 'the list must be an array, not an object' }],
    });
  });
});

describe('describeHostValue', () => {
  it('names a value by kind only', () => {
    const revocable = Proxy.revocable([], {});
    revocable.revoke();
    expect([null, undefined, [], {}, () => 1, 1, 'secret-value', revocable.proxy].map(describeHostValue)).toEqual([
      'null',
      'undefined',
      'an array',
      'an object',
      'a function',
      'a number',
      'a string',
      'a Proxy',
    ]);
  });
});
