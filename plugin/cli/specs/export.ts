/**
 * The table of `agentdef export …` (command-spec.ts): the derived views of a definition, one
 * subcommand each (adding a format is a line in EXPORT_SUBCOMMANDS and its command in
 * ../commands/export.ts).
 */
import { COMPILE_TARGETS } from '../../targets/targets';
import type { CommandGroupSpec, CommandSpec } from './command-spec';
import { FORMAT, USAGE_OR_IO } from './shared-options';

const DEFINITION = { name: '<file>', description: 'the AgentDefinition file to export from' } as const;

export const EXPORT_AGENTFACTS = {
  name: 'export agentfacts',
  arguments: [DEFINITION],
  summary: 'print (or write into the definition) its NANDA AgentFacts projection',
  description:
    "Projects the definition onto NANDA AgentFacts (identity, description, provider, capability tags, skills; the endpoint of the target; an empty reputation) and prints it, writes it to --out, or with --write puts it into the definition's metadata.cardExports.agentFacts, changing only that value (written atomically, the file's mode and formatting kept). The definition must validate apart from a stale agentFacts, which is what regenerating fixes; validate then checks the export against the definition.",
  options: {
    target: {
      type: 'string',
      values: COMPILE_TARGETS,
      required: true,
      description:
        "the compile target whose endpoint the facts name (the Worker's public URL, or the launcher's loopback URL); validate does not compare it",
    },
    'worker-url': {
      type: 'string',
      value: 'url',
      otherwise: 'required for a Worker target',
      description: "the Worker's public https URL (a Worker target)",
    },
    port: {
      type: 'string',
      value: 'n',
      otherwise: "8080, the launcher's default port (a process target)",
      description: 'the loopback port the launcher serves on (a process target)',
    },
    out: {
      type: 'string',
      value: 'file',
      otherwise: 'printed on standard output',
      description: 'write the AgentFacts document to this file, relative to the working folder',
    },
    write: {
      type: 'boolean',
      default: false,
      description: "write the projection into the definition's metadata.cardExports.agentFacts",
    },
    format: FORMAT,
  },
  exitCodes: [
    'exported',
    'the definition does not validate or project (located diagnostics; nothing written)',
    `${USAGE_OR_IO} (a Worker target without --worker-url, a bad --port), or a file that cannot be written`,
  ],
} as const satisfies CommandSpec;

/** Every export, by the word after `agentdef export`. */
export const EXPORT_SUBCOMMANDS = {
  agentfacts: EXPORT_AGENTFACTS,
} as const satisfies Record<string, CommandSpec>;

export const EXPORT = {
  name: 'export',
  summary: "export a definition's derived views (NANDA AgentFacts)",
  description:
    'Generates the derived views a definition carries under metadata.cardExports from the definition itself: never written by hand, checked by validate.',
  subcommands: EXPORT_SUBCOMMANDS,
} as const satisfies CommandGroupSpec;
