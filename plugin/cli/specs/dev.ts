/** The table of `agentdef dev` (command-spec.ts). */
import type { CommandSpec } from './command-spec';
import { servedText } from '../../targets/targets';
import { USAGE_OR_IO, PORT, LOG_FORMAT, MODEL_SESSION, TASK_STORE } from './shared-options';

export const DEV = {
  name: 'dev',
  arguments: [
    { name: '<output folder>', description: 'a compile output of any target (its plan.json names the target)' },
  ],
  summary:
    'serve any compiled output on loopback until Ctrl-C, as its target runs it, printing the card URL and an `agentdef ask` line',
  description: `Serves a compile output on loopback as it runs in production, through its target's own host (${servedText()}). Secrets come from the keychain, else AGENTDEF_SECRET_<NAME>. It prints the card URL and an \`agentdef ask\` line with the card's first example, and serves until Ctrl-C; a process host's events are printed on standard error, one readable line each (their JSON lines with --log-format json).`,
  options: {
    port: PORT,
    watch: {
      type: 'boolean',
      default: false,
      description:
        'recompile (the definition and target plan.json names) on every change the compile would see (definitions, tools.json, mcp.json, tool modules and their imports) and restart on the same port; a failed compile prints its diagnostics and the last good build keeps serving',
    },
    'task-store': TASK_STORE,
    ...MODEL_SESSION,
    'log-format': LOG_FORMAT,
  },
  exitCodes: [
    'served, then stopped',
    'the host could not start (a secret it binds is not set, a recording that cannot be replayed) or ended with an error',
    `${USAGE_OR_IO}, a folder that holds no compile output, or miniflare missing for a Worker output`,
  ],
} as const satisfies CommandSpec;
