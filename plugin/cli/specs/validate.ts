/** The table of `agentdef validate` (command-spec.ts). */
import type { CommandSpec } from './command-spec';
import { USAGE_OR_IO, FORMAT } from './shared-options';

export const VALIDATE = {
  name: 'validate',
  arguments: [
    {
      name: '<file or dir>...',
      description:
        'definition files and application manifests, or folders searched for agent.json, agent.yaml, application.json and application.yaml',
    },
  ],
  summary: 'check definitions and application manifests against their schema and rules',
  description:
    "Checks each AgentDefinition (agent.json / agent.yaml) against the JSON Schema and the semantic rules, and each application manifest (application.json / application.yaml, or a file whose schemaVersion says it is one) as an application. Across the files it also reports duplicate slugs and ids, pins that resolve to nothing in the workspace or its registry (warnings), and scripted or skill-package tools the workspace's tools.json does not map. Every problem is located (file:line:column, JSON Pointer) and says what to do; nothing is written, and no compiler is loaded. A manifest is checked on its own; `agentdef application plan` also checks it against the component catalog.",
  options: { format: FORMAT },
  exitCodes: ['every file is valid (warnings allowed)', 'a definition or manifest is invalid', USAGE_OR_IO],
} as const satisfies CommandSpec;
