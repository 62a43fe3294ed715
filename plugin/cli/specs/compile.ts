/** The table of `agentdef compile` (command-spec.ts). */
import { suggestTarget, TARGET_OPTIONS } from '../../targets/targets';
import type { CommandSpec } from './command-spec';
import { USAGE_OR_IO, RESOLUTION } from './shared-options';

export const COMPILE = {
  name: 'compile',
  arguments: [{ name: '<file>', description: 'the AgentDefinition file (agent.json or agent.yaml)' }],
  summary: 'compile an agent for its chosen (or the given) runtime target',
  description:
    "Plans the definition as `agentdef plan` does, reads the workspace's tools.json and mcp.json, emits the target's files (bundling the runtime and the tool modules with esbuild) and writes them, with plan.json, into the output folder in one atomic step. The folder is replaced only when agentdef wrote it (its .agentdef-output.json marker lists its files) or it is empty or missing; anything else is refused before a byte moves. A target the tree cannot run on fails closed and writes nothing.",
  options: {
    target: {
      type: 'string',
      values: TARGET_OPTIONS,
      suggest: suggestTarget,
      default: 'auto',
      description:
        "the runtime target: auto takes the plan's choice; an explicit target the definition's tree cannot run on is an error (runtime_capability_mismatch)",
    },
    out: {
      type: 'string',
      value: 'dir',
      otherwise: 'dist/agents/<slug>',
      description: 'the output folder, relative to the working folder',
    },
    ...RESOLUTION,
  },
  exitCodes: [
    'compiled',
    'the definition is invalid or the target cannot host it',
    `${USAGE_OR_IO}, or an output folder agentdef did not write`,
  ],
} as const satisfies CommandSpec;
