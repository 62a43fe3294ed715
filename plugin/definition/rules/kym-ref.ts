/** The KYM reference names exactly this definition: `kym://agents/<slug>@<versionSemver>`. */
import type { Finding } from '../diagnostic';
import type { SemanticRule } from './rule';

const RULE = 'kym-ref';

export const kymRefRule: SemanticRule = {
  name: RULE,
  description: 'identity.kymRef, when present, is exactly kym://agents/<identity.slug>@<identity.versionSemver>.',
  check(definition) {
    const { kymRef, slug, versionSemver } = definition.identity;
    if (kymRef === undefined) return [];
    const expected = `kym://agents/${slug}@${versionSemver}`;
    if (kymRef === expected) return [];
    const findings: Finding[] = [
      {
        rule: RULE,
        path: '/identity/kymRef',
        message: `identity.kymRef "${kymRef}" does not name this definition (slug "${slug}", version ${versionSemver}).`,
        suggestion: `Set identity.kymRef to "${expected}".`,
      },
    ];
    return findings;
  },
};
