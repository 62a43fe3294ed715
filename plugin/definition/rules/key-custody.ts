/**
 * `runtimeRequirements.keyCustody` says where the agent's keys are held, and every `secret-ref`
 * binding must come from there: `secrets-store` refs are `secrets-store://…`, `vault-ref` refs are
 * `vault://…`, and `session` custody has no secret bindings at all (the host supplies keys for the
 * session from its keychain or environment). A binding from another store is a located error.
 */
import type { Finding } from '../diagnostic';
import type { SemanticRule } from './rule';

const RULE = 'key-custody';

/** The ref scheme each custody admits for a secret-ref binding; `null`: no secret bindings. */
export const CUSTODY_REF_SCHEME: Readonly<Record<'session' | 'vault-ref' | 'secrets-store', string | null>> = {
  session: null,
  'vault-ref': 'vault://',
  'secrets-store': 'secrets-store://',
};

export const keyCustodyRule: SemanticRule = {
  name: RULE,
  description:
    'Every secret-ref binding comes from the keyCustody store: secrets-store:// for secrets-store, vault:// for vault-ref, none for session.',
  check(definition) {
    const custody = definition.runtimeRequirements.keyCustody;
    const scheme = CUSTODY_REF_SCHEME[custody];
    const findings: Finding[] = [];
    definition.runtimeRequirements.bindings.forEach((binding, index) => {
      if (binding.kind !== 'secret-ref') return;
      if (scheme === null) {
        findings.push({
          rule: RULE,
          path: `/runtimeRequirements/bindings/${index}`,
          message: `secret-ref binding "${binding.name}" contradicts keyCustody "session": session keys come from the host's keychain or environment for each session, not from a stored secret.`,
          suggestion:
            'Remove the binding and let the host supply the key, or set keyCustody to "secrets-store" or "vault-ref" to match where the secret is stored.',
        });
        return;
      }
      const ref = typeof binding.ref === 'string' ? binding.ref : '';
      if (!ref.startsWith(scheme)) {
        findings.push({
          rule: RULE,
          path: `/runtimeRequirements/bindings/${index}/ref`,
          message: `secret-ref binding "${binding.name}" is not a ${scheme} reference, but keyCustody "${custody}" keeps every key there.`,
          suggestion: `Reference the secret as ${scheme}<owner>/<name>, or change keyCustody to the store that holds it.`,
          redactSource: true,
        });
      }
    });
    return findings;
  },
};
