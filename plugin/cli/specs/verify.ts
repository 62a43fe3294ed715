/** The table of `agentdef verify` (command-spec.ts). */
import type { CommandSpec } from './command-spec';
import { USAGE_OR_IO, FORMAT, SIGNING_AT } from './shared-options';

export const VERIFY = {
  name: 'verify',
  arguments: [
    {
      name: '<file>',
      description: 'a credential, a signed agent card, a receipt or lifecycle receipt, or a JSON Lines file of them',
    },
  ],
  summary:
    'verify a credential (eddsa-jcs-2022, did:key), a signed A2A card or receipts (one, or a JSONL file line by line)',
  description:
    "Verifies what agentdef signs: a document with a DataIntegrityProof (eddsa-jcs-2022; a Verifiable Credential also gets its VC 2.0 checks and validity window; did:key resolves offline), an A2A card's JWS signatures, run receipts and lifecycle transition receipts (in a JSON Lines file each line, and each transition must start where the one before it ended). It says what failed and where (line, JSON Pointer).",
  options: {
    key: {
      type: 'string',
      value: 'public-jwk-file',
      otherwise:
        'neither --key nor --keys: each kid is looked up in the local key store (the public keys `agentdef keys generate` wrote), and the output says which keyref verified',
      description:
        'the public Ed25519 JWK to verify cards and receipts with, whatever their kid (a private key is refused and never printed)',
    },
    keys: {
      type: 'string',
      value: 'dir',
      description:
        'a folder of public JWK files; each signature is verified with the one whose thumbprint or kid is its kid',
    },
    at: {
      ...SIGNING_AT,
      otherwise: 'now',
      description:
        "the time a credential's validity window is checked at (RFC 3339 date-time with its time zone); a proof created after it fails",
    },
    'any-signature': {
      type: 'boolean',
      default: false,
      description:
        'a card with several signatures verifies when one of them does (each is still reported); without it every signature must verify',
    },
    format: FORMAT,
  },
  exitCodes: ['verified', 'not verified (a signature, digest, chain or validity window fails)', USAGE_OR_IO],
} as const satisfies CommandSpec;
