/** The table of `agentdef application …` (command-spec.ts). */
import type { CommandGroupSpec, OptionSpec } from './command-spec';
import {
  USAGE_OR_IO,
  FORMAT,
  APPLICATION_HOST,
  LEDGER,
  planDigestProblem,
  PLAN_DIGEST_EXAMPLE,
} from './shared-options';

const MANIFEST = {
  name: '<manifest file>',
  description: 'the application manifest (application.json or application.yaml)',
} as const;

const MODE = {
  type: 'string',
  values: ['dry-run', 'live'],
  default: 'dry-run',
  description: 'dry-run plans and runs without external effects; live lets external components act',
} as const satisfies OptionSpec;

export const APPLICATION = {
  name: 'application',
  summary:
    'application manifests: write the source digest, list the catalog, plan, execute step by step, run the local verification',
  description:
    'An application manifest composes exact component revisions (inputs, prompt templates, registered agents, approved artifacts, outputs, and the components of admitted packs) into a typed graph. These commands seal, plan, execute and check one.',
  subcommands: {
    digest: {
      name: 'application digest',
      arguments: [MANIFEST],
      summary: 'write the source digest (source.sha256) into the manifest',
      description:
        "Computes the manifest's source digest and writes it in place of the 64 characters of source.sha256, every other byte unchanged (atomically, the file's mode kept, never through a link). Assemble a new manifest with 64 zeros there, then digest it.",
      options: {
        check: {
          type: 'boolean',
          default: false,
          description: 'write nothing; exit 1 when the stored digest is stale',
        },
      },
      exitCodes: [
        'written, or up to date',
        'the manifest is invalid, or (with --check) its digest is stale',
        USAGE_OR_IO,
      ],
    },
    catalog: {
      name: 'application catalog',
      arguments: [],
      summary: 'list the active catalog: its digests and components',
      description:
        'Prints the active component catalog and adapter-policy digests a manifest is written against, and every component with its revision, modes and side effect.',
      options: { format: FORMAT, ...APPLICATION_HOST },
      exitCodes: ['listed', 'never', `${USAGE_OR_IO}, or an application host that cannot start`],
    },
    plan: {
      name: 'application plan',
      arguments: [MANIFEST],
      summary: 'verify a manifest against the catalog and print its plan and plan digest',
      description:
        'Validates the manifest and checks it against the active catalog, then prints the exact plan (steps, owners, entrypoints, outputs, bounds) and its digest, or located diagnostics.',
      options: { mode: MODE, format: FORMAT, ...APPLICATION_HOST },
      exitCodes: [
        'planned',
        'the manifest is invalid or does not plan (located diagnostics)',
        `${USAGE_OR_IO}, or an application host that cannot start`,
      ],
    },
    execute: {
      name: 'application execute',
      arguments: [MANIFEST],
      summary: 'plan, then execute step by step through the execution ledger',
      description:
        'Plans the manifest (or takes --expect, the plan digest the caller accepted), then executes it step by step through the execution ledger with the entrypoint values given, printing each step and the outputs. A run with the same idempotency key replays the recorded one.',
      options: {
        mode: MODE,
        input: {
          type: 'string',
          multiple: true,
          value: 'node.port=json',
          description: 'an entrypoint value, e.g. request.value=\'{"topic":"x"}\' (repeatable)',
        },
        inputs: {
          type: 'string',
          value: 'file',
          otherwise: 'inputs.json beside the manifest, when there is one and no --input is given',
          description:
            'a JSON file of entrypoint values: a list of { node, port, value }, or an object keyed node.port',
        },
        key: {
          type: 'string',
          value: 'k',
          otherwise: 'a fresh key: every call is a new run',
          description: 'the idempotency key of the run',
        },
        expect: {
          type: 'string',
          value: 'digest',
          check: planDigestProblem,
          example: PLAN_DIGEST_EXAMPLE,
          otherwise: 'the digest of the plan made now',
          description: 'the plan digest the caller accepted; a manifest or catalog that changed since is refused',
        },
        format: FORMAT,
        ...APPLICATION_HOST,
        ledger: LEDGER,
      },
      exitCodes: [
        'the run succeeded (or replayed a success)',
        'the manifest does not plan, or the run stopped or was refused',
        `${USAGE_OR_IO}, or an application host that cannot start`,
      ],
    },
    check: {
      name: 'application check',
      arguments: [MANIFEST],
      summary: 'run the local verification of one application, offline',
      description:
        'Runs the local verification offline (no model call, no external write): the manifest plans, a dry-run executes with the entrypoint values, a repeated run replays, and `agentdef mcp` started as a child process lists the three tools and plans the manifest to the same digest over stdio.',
      options: {
        ...APPLICATION_HOST,
        inputs: {
          type: 'string',
          value: 'file',
          otherwise: 'inputs.json beside the manifest, when there is one',
          description:
            "the dry-run's entrypoint values: a JSON list of { node, port, value }, or an object keyed node.port",
        },
      },
      exitCodes: ['every check passed', 'a check failed', `${USAGE_OR_IO}, or an application host that cannot start`],
    },
  },
} as const satisfies CommandGroupSpec;
