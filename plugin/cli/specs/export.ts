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

export const EXPORT_OASF = {
  name: 'export oasf',
  arguments: [{ name: '<definition>', description: 'the AgentDefinition file to export' }],
  summary: 'print or write the OASF record of a definition, validated against the OASF schema',
  description:
    "Plans the definition (it must validate and resolve) and projects its OASF record: name, version, the OASF schema_version, description, authors, created_at from the definition's commit, skills and domains from the OASF taxonomy (an oasf:skill/<name or id> tag chooses one; otherwise a fixed table maps tags), locators for the source, the card and the Worker or image, modules for the A2A card and the MCP tools. Every record is validated against the OASF definitions agentdef ships; a skill that maps to no OASF skill is a located error naming the nearest ones, and nothing is written.",
  options: {
    out: {
      type: 'string',
      value: 'file',
      otherwise: 'standard output',
      description: 'the file to write the record to, relative to the working folder',
    },
    'worker-url': {
      type: 'string',
      value: 'url',
      otherwise: 'a Worker agent gets no A2A card module and no card or Worker locator',
      description:
        "the Worker's public URL (a Worker target): the card and Worker locators and the card module name it",
    },
    port: {
      type: 'string',
      value: 'n',
      otherwise: 'the container port (a process target)',
      description: 'the port the card advertises for a process host',
    },
    image: {
      type: 'string',
      value: 'ref',
      otherwise: 'no container image locator',
      description: 'the container image the agent runs from (a container_image locator)',
    },
  },
  exitCodes: [
    'the record was printed or written',
    'the definition does not plan, or a skill maps to no OASF skill (nothing written)',
    `${USAGE_OR_IO} (a malformed --port), or --out cannot be written`,
  ],
} as const satisfies CommandSpec;

/** Every export, by the word after `agentdef export`. */
export const EXPORT_SUBCOMMANDS = {
  agentfacts: EXPORT_AGENTFACTS,
  oasf: EXPORT_OASF,
} as const satisfies Record<string, CommandSpec>;

export const EXPORT = {
  name: 'export',
  summary: "export a definition's derived views (NANDA AgentFacts, OASF record)",
  description:
    "Generates the derived views of a definition from the definition itself, each validated against its format's own definitions: the AgentFacts that metadata.cardExports carries (never written by hand, checked by validate) and the OASF record for agent directories.",
  subcommands: EXPORT_SUBCOMMANDS,
} as const satisfies CommandGroupSpec;
