import { describe, expect, it } from 'vitest';
import { backtrackingHazard, compileSafeRegex, MAX_BACKTRACKING_INPUT, MAX_LINEAR_INPUT } from './safe-regex';

describe('compileSafeRegex', () => {
  it('runs a pattern with only m/s flags on the linear-time engine, even one that backtracks catastrophically elsewhere', () => {
    const compiled = compileSafeRegex('(a+)+$');
    expect(compiled.ok).toBe(true);
    if (!compiled.ok) return;
    expect(compiled.value.engine).toBe('linear');
    expect(compiled.value.maxInput).toBe(MAX_LINEAR_INPUT);
    // 100,000 characters of the classic exponential input: linear, so it simply answers.
    expect(compiled.value.regex.test(`${'a'.repeat(100_000)}!`)).toBe(false);
    const cubic = compileSafeRegex('\\s*\\s*x');
    expect(cubic.ok && cubic.value.engine).toBe('linear');
    if (cubic.ok) expect(cubic.value.regex.test(' '.repeat(200_000))).toBe(false);
  });

  it('matches as JavaScript does on the linear engine', () => {
    const compiled = compileSafeRegex('^total: \\d+$', 'm');
    expect(compiled.ok && compiled.value.regex.test('x\ntotal: 42\ny')).toBe(true);
    const dotAll = compileSafeRegex('a.b', 's');
    expect(dotAll.ok && dotAll.value.regex.test('a\nb')).toBe(true);
  });

  it('accepts a simple case-insensitive pattern on the backtracking engine, with its input bound', () => {
    const compiled = compileSafeRegex('hello,? world.*', 'i');
    expect(compiled.ok).toBe(true);
    if (!compiled.ok) return;
    expect(compiled.value.engine).toBe('backtracking');
    expect(compiled.value.maxInput).toBe(MAX_BACKTRACKING_INPUT);
    expect(compiled.value.regex.test('HELLO WORLD!')).toBe(true);
  });

  it.each([
    ['(a+)+$', 'i', 'nested quantifier'],
    ['(a|a)*$', 'i', 'alternation'],
    ['(?:x*y)*', 'u', 'nested quantifier'],
    ['\\s*\\s*x', 'i', 'unbounded quantifier'],
    ['a{1,1000}b{1,1000}', 'i', 'unbounded quantifier'],
    ['(a)\\1', '', 'backreference'],
    ['(?<n>a)\\k<n>', 'i', 'backreference'],
    ['(?=a)(a*)+', '', 'nested quantifier'],
  ])('refuses %s (flags %s) on the backtracking engine: %s', (pattern, flags, why) => {
    const compiled = compileSafeRegex(pattern, flags);
    expect(compiled.ok).toBe(false);
    if (!compiled.ok) {
      expect(compiled.message).toContain(why);
      expect(compiled.suggestion).toMatch(/linear-time engine/);
    }
  });

  it('refuses an invalid pattern, bad flags and an overlong pattern with a message, never a throw', () => {
    const invalid = compileSafeRegex('(unclosed');
    expect(invalid.ok).toBe(false);
    if (!invalid.ok) expect(invalid.message).toMatch(/not a valid regular expression/);
    const flags = compileSafeRegex('a', 'gy');
    expect(flags.ok).toBe(false);
    const twice = compileSafeRegex('a', 'ii');
    expect(twice.ok).toBe(false);
    const long = compileSafeRegex('a'.repeat(1001));
    expect(long.ok).toBe(false);
    if (!long.ok) expect(long.message).toMatch(/1001 characters/);
  });
});

describe('backtrackingHazard', () => {
  it('passes star-height-1 patterns and sees through classes and escapes', () => {
    expect(backtrackingHazard('[(+*]+abc')).toBeUndefined();
    expect(backtrackingHazard('(ab)+c?d{2,5}')).toBeUndefined();
    expect(backtrackingHazard('\\(a+\\)+')).toBe('has more than 1 unbounded quantifier (`*`, `+`, `{n,}`)');
    expect(backtrackingHazard('(?:foo|bar) baz')).toBeUndefined();
    expect(backtrackingHazard('((a)+)')).toBeUndefined();
    expect(backtrackingHazard('((a)+)+')).toMatch(/nested quantifier/);
  });
});
