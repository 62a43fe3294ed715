import { describe, expect, it } from 'vitest';
import { compareSemver, isExactSemver, sortVersions } from './semver';

describe('semver ordering', () => {
  it('orders by precedence, numerically and with pre-releases first', () => {
    expect(sortVersions(['1.10.0', '1.9.0', '1.0.0', '1.0.0-rc.1', '1.0.0-alpha', '1.0.0-alpha.10', '1.0.0-alpha.2', '0.4.2', '1.0.0-alpha.beta'])).toEqual([
      '0.4.2',
      '1.0.0-alpha',
      '1.0.0-alpha.2',
      '1.0.0-alpha.10',
      '1.0.0-alpha.beta',
      '1.0.0-rc.1',
      '1.0.0',
      '1.9.0',
      '1.10.0',
    ]);
  });

  it('deduplicates and keeps invalid strings last', () => {
    expect(sortVersions(['2.0.0', 'latest', '2.0.0', '^1.0.0'])).toEqual(['2.0.0', '^1.0.0', 'latest']);
    expect(compareSemver('1.0.0+b', '1.0.0+a')).toBeGreaterThan(0);
    expect(compareSemver('1.0.0', '1.0.0')).toBe(0);
  });

  it('accepts exact versions only', () => {
    for (const v of ['0.0.0', '1.2.3', '1.2.3-rc.1+build.5', '10.20.30']) expect(isExactSemver(v)).toBe(true);
    for (const v of ['1.2', '^1.2.3', '~1.2.3', 'latest', '01.2.3', '1.2.3.4', '']) expect(isExactSemver(v)).toBe(false);
  });
});
