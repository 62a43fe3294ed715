/** The table of `agentdef mcp` (command-spec.ts). */
import type { CommandSpec } from './command-spec';
import { USAGE_OR_IO, APPLICATION_HOST, LEDGER } from './shared-options';

export const MCP = {
  name: 'mcp',
  arguments: [],
  summary: 'serve agentdef.application.catalog, .plan and .execute as a stdio MCP server',
  description:
    'Serves the three application tools (agentdef.application.catalog, .plan, .execute) as an MCP server over standard input and output until the client closes its input. Standard output carries the protocol only; messages go to standard error. Packs and operator authority are host API only: nothing here takes them from the command line or a tool call.',
  options: {
    workspace: {
      type: 'string',
      value: 'dir',
      otherwise: 'the workspace the working folder is in',
      description: 'the workspace manifests and registered agents are read from',
    },
    ...APPLICATION_HOST,
    ledger: LEDGER,
  },
  exitCodes: ['the client closed the connection', 'never', `${USAGE_OR_IO}, or an application host that cannot start`],
} as const satisfies CommandSpec;
