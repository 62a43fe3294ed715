/** The table of `agentdef registry …` (command-spec.ts). */
import type { CommandGroupSpec } from './command-spec';
import { USAGE_OR_IO, FORMAT, REGISTRY_FOLDER } from './shared-options';

export const REGISTRY = {
  name: 'registry',
  summary:
    "check every registry snapshot against the index's digest and every export's signature; rank candidates by attested reputation",
  description: 'Commands over the folder registry `agentdef publish` writes (registry/agents by default).',
  subcommands: {
    verify: {
      name: 'registry verify',
      arguments: [],
      summary: "check every snapshot against the index's digest and every export's signature",
      description:
        "Checks every snapshot of the folder registry against the digest its index recorded, and every export's signature (card, AgentFacts credential, KYM registration), saying exactly which file failed and why.",
      options: {
        registry: { ...REGISTRY_FOLDER, description: 'the folder registry to check, relative to the working folder' },
        format: FORMAT,
      },
      exitCodes: [
        'every published version verified',
        'a snapshot or export does not verify, or the index is missing',
        `${USAGE_OR_IO}, or no registry folder or an unreadable index`,
      ],
    },
    rank: {
      name: 'registry rank',
      arguments: [],
      summary: 'rank the published versions with a skill tag by the reputation their credentials attest',
      description:
        'Lists every published version whose AgentFacts credential verifies and names the tag among its capability tags, highest attested reputation score first (the receipt-scored attestation `agentdef publish --reputation` signs into the credential); ties go to more receipts counted, then slug, then the higher version. A version with no attestation is listed last, unscored; a credential that does not verify is reported and not ranked.',
      options: {
        skill: {
          type: 'string',
          value: 'tag',
          required: true,
          description: 'the skill or capability tag candidates must have',
        },
        registry: { ...REGISTRY_FOLDER, description: 'the folder registry to rank, relative to the working folder' },
        format: FORMAT,
      },
      exitCodes: [
        'ranked (at least one candidate)',
        'no published version has the tag, or a credential does not verify',
        `${USAGE_OR_IO}, or no registry folder or an unreadable index`,
      ],
    },
  },
} as const satisfies CommandGroupSpec;
