/**
 * Names the host contract repeats from layers it may not import (the architecture keeps deploy and
 * host-contract off the definition layer and off runtime values): each must stay the same as the
 * original, or a deploy would name the wrong secret or refuse (or accept) the wrong agent.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSlug, SLUG_MAX_LENGTH } from '../definition/workspace-definitions';
import { CARD_SIGNING_KEY_BINDING } from '../runtime/agent-card';
import { CARD_SIGNING_KEY_SECRET } from './container-contract';
import { isServiceSlug } from './service-templates';

describe('names the host contract mirrors', () => {
  it('the card signing secret is the binding the runtime reads', () => {
    expect(CARD_SIGNING_KEY_SECRET).toBe(CARD_SIGNING_KEY_BINDING);
  });

  it('isServiceSlug accepts exactly the slugs the schema accepts', () => {
    const edge = [
      'a',
      'a-b',
      'a--b',
      '-a',
      'a-',
      'A',
      'a.b',
      'a/b',
      '..',
      'a\nb',
      'a b',
      '',
      'é',
      'a'.repeat(SLUG_MAX_LENGTH),
      'a'.repeat(SLUG_MAX_LENGTH + 1),
      '0-9',
    ];
    for (const value of edge) expect(isServiceSlug(value), JSON.stringify(value)).toBe(isSlug(value));
    const slugish = fc.stringMatching(/^[a-z0-9-]{0,70}$/);
    fc.assert(
      fc.property(fc.oneof(slugish, fc.string({ maxLength: 70 })), (value) => isServiceSlug(value) === isSlug(value)),
      { numRuns: 2000 },
    );
  });
});
