/** The table of `agentdef deploy` (command-spec.ts). */
import type { CommandSpec } from './command-spec';
import { USAGE_OR_IO } from './shared-options';

export const DEPLOY = {
  name: 'deploy',
  arguments: [{ name: '<output folder>', description: 'a compile output (wrangler.jsonc, hb3-job.json or launcher.json says which target)' }],
  summary: 'deploy a compiled output: wrangler deploy (Worker), docker build and push with the job spec (HB3), the user service (local-mac); --dry-run prints',
  description:
    "Deploys with the target's own tool: `wrangler deploy` for a Worker (secrets listed by name only), docker or podman build and push plus the job spec for HB3, a LaunchAgent or systemd user unit for local-mac. Options that only one target takes are refused for the others. With --dry-run nothing changes: the commands and files are printed.",
  options: {
    'dry-run': { type: 'boolean', default: false, description: 'print what would run and be written; change nothing' },
    into: { type: 'string', value: 'dir', otherwise: "the user's service folder (~/Library/LaunchAgents, ~/.config/systemd/user)", description: 'local-mac: the folder the service file is written to' },
    uninstall: { type: 'boolean', default: false, description: 'local-mac: remove the service file agentdef installed before (only one it wrote) instead of installing it' },
    service: { type: 'string', values: ['launchd', 'systemd'], otherwise: 'launchd on macOS, systemd on Linux', description: 'local-mac: the service manager to write for' },
    port: { type: 'string', value: 'n', otherwise: 'a stable port per agent', description: 'local-mac: the loopback port written into the service file (0 to 65535)' },
    registry: { type: 'string', value: 'host/path', description: 'hb3: the registry prefix the image is tagged and pushed under (ghcr.io/acme)' },
  },
  exitCodes: ['deployed (or printed, with --dry-run)', "the target's tool failed", `${USAGE_OR_IO}, or an option the output's target does not take`],
} as const satisfies CommandSpec;
