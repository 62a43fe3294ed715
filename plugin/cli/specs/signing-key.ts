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
