/** Options, and words, that several commands' tables share. */
import type { OptionSpec } from './command-spec';

export const USAGE_OR_IO =
  'a usage error (an unknown option, a bad option value, a missing argument) or an input that cannot be read';

export const FORMAT = {
  type: 'string',
  values: ['text', 'json'],
  default: 'text',
  description: 'text for people, json for programs (one JSON document on standard output)',
} as const satisfies OptionSpec;

export const REGISTRY_FOLDER = {
  type: 'string',
  value: 'dir',
  otherwise: 'registry/agents of the workspace',
  description:
    'the folder registry of published snapshots (<dir>/<slug>/<version>.json), relative to the working folder',
} as const satisfies OptionSpec;

export const RESOLUTION = {
  format: FORMAT,
  registry: {
    ...REGISTRY_FOLDER,
    description:
      'the registry a pin resolves in when no workspace definition has its exact version (<dir>/<slug>/<version>.json), relative to the working folder',
  },
  'max-depth': {
    type: 'string',
    value: 'n',
    otherwise: '16',
    description:
      'the deepest a pinned child may sit below the definition (a whole number, at least 1); a deeper tree is an error',
  },
  'max-nodes': {
    type: 'string',
    value: 'n',
    otherwise: '512',
    description: 'the most definitions the resolved tree may hold, the root included (a whole number, at least 1)',
  },
} as const satisfies Record<string, OptionSpec>;

export const PORT = {
  type: 'string',
  value: 'n',
  otherwise: 'any free port',
  description: 'the loopback port to serve on (0 to 65535; 0 is any free port)',
} as const satisfies OptionSpec;

/** `--task-store` of `agentdef run` and `agentdef dev` (plugin/hosts/node/task-store-env.ts). */
export const TASK_STORE = {
  type: 'string',
  value: 'file|url',
  otherwise: 'tasks kept in memory',
  description:
    "where a Node host keeps its A2A tasks: a SQLite file, so they survive a restart (created when missing; a file that is not the agent's task store is refused), or PostgreSQL, shared by replicas behind one URL: a postgres:// connection string or, better, secret:NAME, the connection string kept in the keychain or AGENTDEF_SECRET_NAME (never printed)",
} as const satisfies OptionSpec;

export const LOG_FORMAT = {
  type: 'string',
  values: ['text', 'json'],
  default: 'text',
  description:
    "how the host's events (runs starting and ending, blocked requests, lookups) are printed on standard error: text is one readable line per event, json the host's own JSON line per event (for log collectors); neither ever holds a secret value",
} as const satisfies OptionSpec;

/** `--record` / `--replay` of `agentdef dev` and `agentdef run` (plugin/hosts/model-replay). */
export const MODEL_SESSION = {
  record: {
    type: 'string',
    value: 'dir',
    excludes: 'replay',
    otherwise: 'AGENTDEF_RECORD when set, else live models not recorded',
    description:
      'record every model exchange of the session against the real providers into this folder (one file per exchange, keyed by its request digest, secrets redacted); excludes --replay',
  },
  replay: {
    type: 'string',
    value: 'dir',
    excludes: 'record',
    otherwise: 'AGENTDEF_REPLAY when set, else the live providers',
    description:
      'answer every model request from a folder --record wrote, with no API key and no network; a request it does not hold fails the run (model_request_not_recorded) and is named with the command that records it; excludes --record',
  },
} as const satisfies Record<string, OptionSpec>;

export const SIGNING_AT = {
  type: 'string',
  value: 'date-time',
  description: 'the time to record, as an RFC 3339 date-time with its time zone (2026-01-02T03:04:05Z)',
} as const satisfies OptionSpec;

export const APPLICATION_HOST = {
  artifacts: {
    type: 'string',
    value: 'dir',
    otherwise: 'approved-artifacts',
    description:
      "the reference gateway's folder of approved artifacts, relative to the workspace root; without an approvals.json in it, approved-artifact nodes do not plan",
  },
  host: {
    type: 'string',
    value: 'module',
    description:
      "an embedding host module inside the workspace (an ES module written by the workspace's owner) whose default export admits component packs with their adapters and owner resolvers",
  },
} as const satisfies Record<string, OptionSpec>;

export const LEDGER = {
  type: 'string',
  value: 'file|url',
  otherwise: 'in memory, for this process only',
  description:
    'where the execution ledger is: a SQLite file (its folder is created when missing), so a run repeated with the same idempotency key after a restart replays the recorded run, or PostgreSQL, shared by every host given it: a postgres:// connection string or, better, secret:NAME, the connection string kept in the keychain or AGENTDEF_SECRET_NAME (never printed)',
} as const satisfies OptionSpec;

/** What a plan digest looks like (the help's example). */
export const PLAN_DIGEST_EXAMPLE = '3f1c2a9b8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a';

/** A plan digest as `application plan` prints it: 64 lowercase hexadecimal characters. */
export function planDigestProblem(given: string): string | undefined {
  return /^[0-9a-f]{64}$/.test(given)
    ? undefined
    : 'a plan digest is 64 lowercase hexadecimal characters, as `agentdef application plan` prints it';
}
