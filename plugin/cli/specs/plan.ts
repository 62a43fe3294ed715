/** The table of `agentdef plan` (command-spec.ts). */
import type { CommandSpec } from './command-spec';
import { USAGE_OR_IO, RESOLUTION } from './shared-options';

export const PLAN = {
  name: 'plan',
  arguments: [
    {
      name: '<file>',
      description:
        'the AgentDefinition file, or kym://agents/<slug>@<version> for a registry snapshot (checked against the registry index first)',
    },
  ],
  summary: 'resolve the composition and print the flattened compile plan',
  description:
    'Validates the definition, resolves every pinned child (a workspace definition at exactly that version, else the registry snapshot), flattens the tree and chooses the runtime: the plan lists each node with its digest, the runtime class and target chosen and why, and the plan digest. Writes nothing and loads neither esbuild nor ts-morph.',
  options: RESOLUTION,
  exitCodes: [
    'planned',
    'the definition or a child is invalid, a pin does not resolve, or no runtime can host the tree',
    USAGE_OR_IO,
  ],
} as const satisfies CommandSpec;
