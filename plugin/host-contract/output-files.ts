/**
 * The names of the files a compile output holds, shared by the adapters that write them and the
 * hosts and supervisors that read them (`agentdef run`, the launcher, the loader). Relative to
 * the output folder, posix.
 */

/** Every target: the plan the output was compiled from (its `target` names the target). */
export const PLAN_FILE = 'plan.json';

/** HB3: the root job, the workflow of a dag, the image's build context and its entrypoint. */
export const JOB_FILE = 'hb3-job.json';
export const WORKFLOW_FILE = 'hb3-workflow.json';
export const IMAGE_DIR = 'image';
export const ENTRYPOINT_FILE = 'entrypoint.mjs';
/** HB3: every node's runtime config, by node id. */
export const RUNTIME_CONFIGS_FILE = 'runtime-configs.json';
/** HB3: the checkpoints the tree loads, pinned by digest. */
export const WEIGHTS_LOCK_FILE = 'weights.lock.json';

/** Local host: the bundled launcher, the manifest `agentdef run` starts it from, the MCP servers it starts. */
export const LAUNCH_FILE = 'launch.mjs';
export const LAUNCHER_MANIFEST = 'launcher.json';
export const LAUNCHER_VERSION = 'agentdef-launcher/v1';
export const MCP_SERVERS_FILE = 'mcp-servers.json';

/** `launcher.json`: what `agentdef run` needs to start the launcher. */
export interface LauncherManifest {
  launcherVersion: typeof LAUNCHER_VERSION;
  /** `slug@version` */
  agent: string;
  planDigest: string;
  /** The launcher file, relative to the output folder. */
  entry: string;
  heapMb?: number;
  localOnly: boolean;
  mcpServers: string[];
  secrets: string[];
  services: { launchd: string; systemd: string };
}
