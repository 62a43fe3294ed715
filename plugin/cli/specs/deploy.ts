/** The table of `agentdef deploy` (command-spec.ts). */
import type { CommandSpec } from './command-spec';
import { deployOptionTargets, deploysText, listText } from '../../targets/targets';
import type { DeployOptionName } from '../../targets/target';
import { REGISTRY_FOLDER, USAGE_OR_IO } from './shared-options';

/** The targets an option is for, as its description begins. */
const only = (option: DeployOptionName): string => listText(deployOptionTargets(option));

export const DEPLOY = {
  name: 'deploy',
  arguments: [{ name: '<output folder>', description: 'a compile output (its plan.json names the target)' }],
  summary: "deploy a compiled output with its target's own tool; --dry-run prints",
  description: `Deploys with the target's own tool (${deploysText()}). Options that only some targets take are refused for the others. With --dry-run nothing changes: the commands and files are printed. An agentic agent (a model anywhere in its tree) deploys only when its compile recorded a commit from a clean worktree, the worktree is still clean, and that exact definition is published in the registry (agentdef publish); otherwise deploy refuses and changes nothing (a dry run prints what it would refuse and goes on). Tool-only agents are not gated.`,
  options: {
    'dry-run': { type: 'boolean', default: false, description: 'print what would run and be written; change nothing' },
    into: {
      type: 'string',
      value: 'dir',
      otherwise: "the user's service folder (~/Library/LaunchAgents, ~/.config/systemd/user)",
      description: `${only('into')}: the folder the service file is written to`,
    },
    uninstall: {
      type: 'boolean',
      default: false,
      description: `${only('uninstall')}: remove the service file agentdef installed before (only one it wrote) instead of installing it`,
    },
    service: {
      type: 'string',
      values: ['launchd', 'systemd'],
      otherwise: 'launchd on macOS, systemd on Linux',
      description: `${only('service')}: the service manager to write for`,
    },
    port: {
      type: 'string',
      value: 'n',
      otherwise: 'a stable port per agent',
      description: `${only('port')}: the loopback port written into the service file (0 to 65535)`,
    },
    'allow-unregistered': {
      type: 'boolean',
      default: false,
      description: `${only('allow-unregistered')}: development: deploy an agentic agent the KYM gate refuses (unpublished, uncommitted), with a warning; its served card is marked unregistered`,
    },
    'registry-folder': {
      ...REGISTRY_FOLDER,
      description: 'the folder registry an agentic agent must be published in, relative to the working folder',
    },
    registry: {
      type: 'string',
      value: 'host/path',
      description: `${only('registry')}: the registry prefix the image is tagged and pushed under (ghcr.io/acme)`,
    },
  },
  exitCodes: [
    'deployed (or printed, with --dry-run)',
    "the target's tool failed, or the deploy gate refused (unpublished or uncommitted agentic agent)",
    `${USAGE_OR_IO}, or an option the output's target does not take`,
  ],
} as const satisfies CommandSpec;
