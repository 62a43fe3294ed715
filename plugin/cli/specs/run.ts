/** The table of `agentdef run` (command-spec.ts). */
import type { CommandSpec } from './command-spec';
import { listText, processTargets } from '../../targets/targets';
import { TASK_STORE, USAGE_OR_IO, PORT, LOG_FORMAT, MODEL_SESSION } from './shared-options';

const RUNNABLE = listText(processTargets().map((target) => target.id));
const RUNNABLE_FILES = listText(processTargets().map((target) => target.runs!));

export const RUN = {
  name: 'run',
  arguments: [
    {
      name: '<output folder>',
      description: `a compile output of a target that runs as a process: ${RUNNABLE} (${RUNNABLE_FILES})`,
    },
  ],
  summary: 'run a compiled HB3 job or local launcher on this machine, serving A2A on loopback',
  description:
    'Runs an HB3 job as its container would, as a local process (its environment from the job spec, every secretRef read from the keychain, else AGENTDEF_SECRET_<NAME>, its weights mount mapped to --weights, its wall clock enforced from outside), or starts a local launcher, and serves A2A on loopback, printing the URL. A Job ends after its first task unless --serve is given; Ctrl-C stops it. Its host events are printed on standard error, one readable line each (its JSON lines with --log-format json).',
  options: {
    port: PORT,
    weights: {
      type: 'string',
      value: 'dir',
      description:
        "the local folder the job's weights root (/weights) maps to; needed when the job mounts tuned checkpoints",
    },
    receipts: {
      type: 'string',
      value: 'file',
      otherwise: '$XDG_STATE_HOME/agentdef/<slug>/receipts.jsonl',
      description:
        'the JSON Lines file signed run receipts are appended to (never a link, a folder or a file holding anything else)',
    },
    'task-store': TASK_STORE,
    serve: { type: 'boolean', default: false, description: 'keep a Job serving after its first task' },
    ...MODEL_SESSION,
    'log-format': LOG_FORMAT,
  },
  exitCodes: [
    'the host ran and stopped cleanly',
    'the host could not start (a secret the job references is not set, no --weights for a job that mounts checkpoints, a recording that cannot be replayed) or failed, or a run was killed for exceeding its wall clock',
    `${USAGE_OR_IO}, or a folder that is no ${RUNNABLE} output`,
  ],
} as const satisfies CommandSpec;
