/**
 * The table of `agentdef export …` (command-spec.ts): one subcommand per exported format. Each
 * format's table is its own constant, so adding a format is adding a constant and a row.
 */
import type { CommandGroupSpec, CommandSpec } from './command-spec';
import { USAGE_OR_IO } from './shared-options';

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

export const EXPORT = {
  name: 'export',
  summary: 'export a definition to another agent format (OASF record)',
  description:
    "Commands that project an AgentDefinition into another ecosystem's format, validated against that format's own definitions.",
  subcommands: {
    oasf: EXPORT_OASF,
  },
} as const satisfies CommandGroupSpec;
