/** The table of `agentdef promote` (command-spec.ts). */
import { LIFECYCLE_STAGES } from '../../definition/rules/lifecycle-gates';
import type { CommandSpec } from './command-spec';
import { USAGE_OR_IO, FORMAT, REGISTRY_FOLDER, SIGNING_AT } from './shared-options';
import { SIGNING_KEY } from './signing-key';

export const PROMOTE = {
  name: 'promote',
  arguments: [{ name: '<file>', description: 'the AgentDefinition file to move' }],
  summary:
    'move a definition one lifecycle stage up (gates checked) or any stages down, appending a signed transition receipt',
  description:
    "Changes only the definition's lifecycleState (written atomically, its mode kept) after checking the gates of the stage it moves to, and appends the signed transition receipt to lifecycle.receipts.jsonl beside it. Up is one stage at a time, passing only a stage that does not apply to the definition (a leaf skips composed; the receipt lists what it skipped); down any number. marketplace-published needs the AgentFacts credential publish wrote; with --require-eval (or the Nx plugin option requireEval), tool-shipped and mcp-resident need a passing signed eval receipt of this exact definition; tool-shipped always needs signed tool benchmark events of it (agentdef bench-tool first) with an event for every declared tool.",
  options: {
    to: {
      type: 'string',
      value: 'stage',
      values: LIFECYCLE_STAGES,
      required: true,
      description: 'the lifecycle stage to move to',
    },
    key: { ...SIGNING_KEY, description: 'the key that signs the transition receipt' },
    at: {
      ...SIGNING_AT,
      otherwise: 'now',
      description:
        'the time the transition records (RFC 3339 date-time with its time zone); given, the promotion is reproducible',
    },
    credential: {
      type: 'string',
      value: 'file',
      otherwise: 'the one publish wrote, <registry>/<slug>/<version>.agentfacts.vc.json',
      description: 'the AgentFacts credential marketplace-published checks',
    },
    registry: {
      ...REGISTRY_FOLDER,
      description:
        'the registry publish wrote the credential to (<dir>/<slug>/<version>.agentfacts.vc.json), relative to the working folder',
    },
    'require-eval': {
      type: 'boolean',
      default: false,
      description:
        'promoting to tool-shipped or mcp-resident needs a passing eval receipt (agentdef eval) of exactly this definition, signed by the promoting key; missing, failing, for another definition or not verifying, the promotion is refused (located)',
    },
    'eval-receipt': {
      type: 'string',
      value: 'file',
      otherwise: 'the one agentdef eval wrote, dist/eval/<slug>/eval.receipt.json of the workspace',
      description: 'the eval receipt --require-eval checks (giving it implies --require-eval)',
    },
    'bench-events': {
      type: 'string',
      value: 'file',
      otherwise:
        'the one agentdef bench-tool wrote, dist/bench/<slug>/tool-benchmark-events.json of the workspace, else dist/eval/<slug>/tool-benchmark-events.json',
      description:
        'the signed tool benchmark events (agentdef bench-tool) every promotion to tool-shipped needs: of exactly this definition, signed by the promoting key, with an event for every declared tool; missing, for another definition or version, unsigned, edited or lacking a tool, the promotion is refused (located)',
    },
    format: FORMAT,
  },
  exitCodes: [
    'moved',
    'refused: a gate is not met, or the move is not one stage up or any stages down (located diagnostics)',
    `${USAGE_OR_IO}, a missing or unusable key, or a file or receipts file agentdef must not write`,
  ],
} as const satisfies CommandSpec;
