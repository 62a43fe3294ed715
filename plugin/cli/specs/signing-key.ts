/**
 * `--key keyref:<name>`, the signing key of publish and promote: its form is checked from the table
 * (a malformed ref is a usage error, exit 2, before anything runs). Apart from shared-options.ts so
 * that only these two tables (and the help, which reads every table) load the key ref's syntax.
 */
import { parseKeyRef } from '../../hosts/node/key-ref';
import type { OptionSpec } from './command-spec';

/** `--key keyref:<name>`: the signing key of publish and promote; a malformed ref is a usage error. */
export const SIGNING_KEY = {
  type: 'string',
  value: 'keyref:name',
  otherwise: "the definition's identity.signingKeyRef",
  example: 'keyref:acme-agents',
  check: (given) => {
    const ref = parseKeyRef(given);
    return ref.ok ? undefined : ref.message;
  },
  description: 'the key that signs',
} as const satisfies OptionSpec;

/**
 * `--previous-key keyref:<name>|<file>` of publish: the key that signed the previous version; a
 * value that starts `keyref:` must be a well-formed ref, anything else a `.json` file (else a
 * usage error that does not repeat the value: it may be key material).
 */
export const PREVIOUS_SIGNING_KEY = {
  type: 'string',
  value: 'keyref:name|file',
  example: 'keyref:acme-agents',
  check: (given) => {
    if (!given.startsWith('keyref:'))
      return /\.json$/i.test(given)
        ? undefined
        : 'give keyref:<name> or the path of a private JWK file (*.json); the value given is not shown';
    const ref = parseKeyRef(given);
    return ref.ok ? undefined : ref.message;
  },
  description: 'the key that signed the previous version',
} as const satisfies OptionSpec;
