/** The "did you mean" helper: distance with adjacent swaps, case-insensitive matching, the threshold, ties. */
import { describe, expect, it } from 'vitest';
import { editDistance, nearestName, typoThreshold } from './nearest-name';

describe('nearestName', () => {
  it('counts a swap of two neighbours as one edit, like a typist makes it', () => {
    expect(editDistance('temprature', 'temperature')).toBe(1);
    expect(editDistance('teh', 'the')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });

  it('ignores case, and returns the candidate as it is spelled', () => {
    expect(nearestName('OpenAI', ['anthropic', 'openai', 'google'])).toBe('openai');
    expect(nearestName('Small', ['frontier', 'small', 'tuned', 'local'])).toBe('small');
    expect(nearestName('outputroot', ['outputRoot', 'registryRoot'])).toBe('outputRoot');
  });

  it('suggests nothing when no candidate is a plausible typo', () => {
    expect(
      nearestName('kubernetes', ['workers-only', 'workers-preferred', 'container-required', 'local-host-required']),
    ).toBeUndefined();
    expect(nearestName('x', [])).toBeUndefined();
    expect(typoThreshold(3)).toBe(2);
    expect(typoThreshold(12)).toBe(4);
    expect(nearestName('abcdef', ['abcxyz'], 2)).toBeUndefined();
    expect(nearestName('abcdef', ['abcxyz'], 3)).toBe('abcxyz');
  });

  it('breaks ties by candidate order, so the answer depends only on its arguments', () => {
    expect(nearestName('cat', ['bat', 'hat'])).toBe('bat');
    expect(nearestName('cat', ['hat', 'bat'])).toBe('hat');
  });
});
