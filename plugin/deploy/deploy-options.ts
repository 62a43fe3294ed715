/**
 * What every deploy target takes (`agentdef deploy`, the `deploy` executor) and the exit codes it
 * answers with. Paths are absolute; everything printed goes through `stdout`/`stderr`.
 */

export type ServiceKind = 'launchd' | 'systemd';

export interface DeployOptions {
  /** The compile output folder (absolute). */
  outDir: string;
  /** The workspace root (absolute): printed paths are relative to it, tools run in it. */
  workspaceRoot: string;
  /** Print (and for a Worker, run wrangler's own dry run) without deploying anything. */
  dryRun: boolean;
  /** local-mac: the folder the service file goes in (default: the platform's user folder). */
  into?: string;
  /** local-mac: remove the service file installed before (only one agentdef wrote). */
  uninstall?: boolean;
  /** local-mac: the service kind (default: launchd on macOS, systemd elsewhere). */
  service?: ServiceKind;
  /** local-mac: the port written into the service file (default: a stable port per agent). */
  port?: number;
  /** hb3: the registry prefix the image is tagged and pushed under (`ghcr.io/acme`). */
  registry?: string;
  /**
   * Set by the deploy gate (deploy-gate.ts) for `--allow-unregistered`: the target marks the
   * deployment's served card unregistered.
   */
  unregistered?: boolean;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  stdout(text: string): void;
  stderr(text: string): void;
}

/** 0 deployed (or printed), 1 the deploy could not be done (a tool failed, no engine, a refusal), 2 bad input. */
export const DEPLOY_EXIT = { ok: 0, failed: 1, usage: 2 } as const;
