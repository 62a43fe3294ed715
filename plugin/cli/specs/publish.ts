/** The table of `agentdef publish` (command-spec.ts). */
import type { CommandSpec } from './command-spec';
import { USAGE_OR_IO, REGISTRY_FOLDER, SIGNING_AT } from './shared-options';
import { REPUTATION_TRUST, REPUTATION_WINDOW } from './reputation';
import { PREVIOUS_SIGNING_KEY, SIGNING_KEY } from './signing-key';

export const PUBLISH = {
  name: 'publish',
  arguments: [{ name: '<file>', description: 'the committed AgentDefinition file to publish' }],
  summary:
    'publish a committed definition to the registry: immutable snapshot, signed card, AgentFacts credential and KYM registration, index entry',
  description:
    'Plans the definition (it must validate and resolve), refuses uncommitted changes, and writes to the folder registry: the immutable snapshot (created exclusively, never over another), the signed A2A card, the AgentFacts credential, the KYM registration and the index entry. A version signed by another key than the previous one also gets <version>.rotation.json, the hand-over signed by the previous key (docs/keys.md). Publishing the same content again changes nothing; the time is --at, else the commit time of HEAD, so it is byte-identical.',
  options: {
    registry: {
      ...REGISTRY_FOLDER,
      description: 'the folder registry to publish into, relative to the working folder',
    },
    key: { ...SIGNING_KEY, description: 'the key that signs the card and the credential' },
    'previous-key': {
      ...PREVIOUS_SIGNING_KEY,
      otherwise:
        "found in the key store: the previous version's identity.signingKeyRef, else the key whose public file has the previous signer's kid",
      description:
        'the key that signed the previous version, when this one is signed by another: it signs the hand-over <version>.rotation.json that registry verify requires (a keyref:<name>, or a private JWK file, mode 0600); without it publish refuses and writes nothing',
    },
    at: {
      ...SIGNING_AT,
      otherwise: 'the commit time of HEAD',
      description: 'the publication time (RFC 3339 date-time with its time zone)',
    },
    'worker-url': {
      type: 'string',
      value: 'url',
      otherwise:
        "the publish target's workerUrl option under Nx; a Worker definition published without it is refused (exit 2): agentdef never guesses the URL a signed card names",
      description:
        "the Worker's public URL the card advertises (a Worker target; https://<slug>.<your-subdomain>.workers.dev once deployed)",
    },
    port: {
      type: 'string',
      value: 'n',
      otherwise: 'the container port (a process target)',
      description: 'the port the card advertises for a process host',
    },
    reputation: {
      type: 'string',
      multiple: true,
      value: 'receipts',
      otherwise: 'the credential attests no reputation (an empty reputation.attestations)',
      description:
        "receipt files or folders scored as `agentdef reputation` scores them, in the window ending at the publication time: this version's score, the receipt counts and the window go into the AgentFacts credential's reputation.attestations, signed with it; refused when no receipt for this version counts",
    },
    window: { ...REPUTATION_WINDOW, description: `with --reputation: ${REPUTATION_WINDOW.description}` },
    trust: { ...REPUTATION_TRUST, description: `with --reputation: ${REPUTATION_TRUST.description}` },
  },
  exitCodes: [
    'published, or already published with identical content',
    'refused (uncommitted changes, the definition does not plan, no signing key named or none in the key store, a changed signing key whose previous key cannot be found, other content for the same version, an insufficient version bump)',
    `${USAGE_OR_IO} (a malformed --key, --at or --port; a Worker without --worker-url), or a registry that cannot be written`,
  ],
} as const satisfies CommandSpec;
