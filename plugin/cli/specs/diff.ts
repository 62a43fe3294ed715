/** The table of `agentdef diff` (command-spec.ts). */
import type { CommandSpec } from './command-spec';
import { USAGE_OR_IO, FORMAT } from './shared-options';

export const DIFF = {
  name: 'diff',
  arguments: [
    { name: '<old file>', description: 'the earlier definition' },
    { name: '<new file>', description: 'the later definition' },
  ],
  summary: 'classify every change between two definitions (major, minor, patch) and check the version bump',
  description:
    "Lists every change between two AgentDefinition files, each classified by the semver policy (major, minor or patch, and why), and checks that the new file's versionSemver is at least the bump the changes require.",
  options: { format: FORMAT },
  exitCodes: [
    'the new version is a big enough bump',
    'it is not',
    `${USAGE_OR_IO}, or a file without an exact versionSemver`,
  ],
} as const satisfies CommandSpec;
