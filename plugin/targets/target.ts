/**
 * What a deployment target is: the descriptor each `plugin/targets/<id>/target.ts` exports (what it
 * is called, the host it runs on, what its output holds, the deploy options it takes) and the
 * shapes of the parts it loads lazily (the adapter that emits, the server `dev` runs, the runner
 * `run` starts, the deploy). `targets.ts` holds the table. This file imports only types, so the
 * table loads no emitter, host or deploy tool until a command calls one.
 */
import type { Diagnostic } from '../definition/diagnostic';
import type { Host } from '../definition/runtime-hosts';
import type { DeployOptions } from '../deploy/deploy-options';
import type { LogFormat } from '../hosts/node/event-text';
import type { ModelSession } from '../hosts/model-replay/model-session';
import type { RunOutputOptions } from '../hosts/node/run-output';
import type { SecretSource } from '../hosts/node/secret-source';
import type { CompilePlan } from '../compiler/plan';
import type { ResolvedNode } from '../compiler/resolve';
import type { Bundler } from '../compiler/bundler';
import type { WorkspaceConfig } from '../compiler/workspace-config';

/** One output file, in memory. `path` is relative to the output folder, posix separators. */
export interface EmittedFile {
  path: string;
  contents: string;
}

/** `summary`: an optional one-line note for the compile summary (e.g. the Worker bundle's size against its budget). */
export type EmitResult =
  | { files: EmittedFile[]; diagnostics?: undefined; summary?: string }
  | { files?: undefined; diagnostics: Diagnostic[] };

/**
 * What an adapter may use besides the plan: the workspace's declarations, in memory, and the
 * bundler port. Adapters never read the disk and never name a path of it.
 */
export interface EmitContext {
  /** tools.json and mcp.json, already loaded and checked. */
  workspace: WorkspaceConfig;
  /** Bundles generated modules with agentdef's runtime, hosts and the workspace's tool modules. */
  bundler: Bundler;
  /** Adapter options from the plugin options / CLI (e.g. `maxBundleBytes`). */
  options: AdapterOptions;
}

export interface AdapterOptions {
  /** Cloudflare bundle size budget in bytes (default 3 MiB, the free plan's limit). */
  maxBundleBytes?: number;
}

/**
 * An adapter turns a plan (and the resolved tree it was made from) into files in memory, bundling
 * through the context's bundler; it never reads or writes the disk: the pipeline checks the
 * target, adds plan.json and writes atomically.
 * Same inputs, same bytes: no clocks, no absolute paths, no host names in what it returns.
 */
export interface Adapter {
  /** The id of the target it emits for (its descriptor's `id`). */
  readonly target: string;
  /** The hosts this adapter's output runs on. */
  readonly hosts: readonly Host[];
  emit(plan: CompilePlan, resolved: ResolvedNode, context: EmitContext): Promise<EmitResult>;
}

/** The options of `agentdef deploy` that only some targets take (the rest every target takes). */
/** `allow-unregistered`: the targets whose deploy can mark the served card of an unregistered deployment (deploy-gate.ts). */
export type DeployOptionName = 'into' | 'uninstall' | 'service' | 'port' | 'registry' | 'allow-unregistered';

/** The exit codes a server or runner answers with when it cannot start: 1 it could not (a missing secret, a host that failed), 2 bad input. */
export const SERVE_EXIT = { ok: 0, invalid: 1, usage: 2 } as const;

/** What `agentdef dev` hands a target's server: the output, where to print, and where secrets and models come from. */
export interface ServeRequest {
  outDir: string;
  workspaceRoot: string;
  cwd: string;
  stdout(text: string): void;
  stderr(text: string): void;
  /** Where secrets come from (default: the keychain, then `AGENTDEF_SECRET_<NAME>` of `env`). */
  secrets?: SecretSource;
  /** The environment the hosts read (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** A record/replay model session, when `dev` runs under one. */
  session?: ModelSession;
  logFormat: LogFormat;
}

/** One build of an output, serving: `stop` ends it; `ended` resolves with its exit code when it ends (on its own, or stopped). */
export interface RunningHost {
  url: string;
  stop(): Promise<void>;
  ended: Promise<number>;
}

/** Starts the output's host on `port` (any free one when undefined); a number is the exit code when it could not (the reason printed). `restart`: the banner is not printed again. */
export type HostStarter = (port: number | undefined, restart: boolean) => Promise<RunningHost | number>;

/** A target's server for `agentdef dev`. */
export type ServeOutput = (request: ServeRequest) => HostStarter;

/** A target's runner for `agentdef run` (a process on this machine); 0 when it ran, else the exit code. */
export type RunOutput = (options: RunOutputOptions) => Promise<number>;

/** What a compile output needs from the machine that serves it: the secrets it binds (its model keys among them), and whether it may reach only local models. */
export interface OutputNeeds {
  secretNames: string[];
  localOnly: boolean;
}

/** A target's deploy: 0 deployed (or printed), 1 could not, 2 bad input. */
export type DeployOutput = (options: DeployOptions) => Promise<number>;

/**
 * One deployment target. Adding a target is one folder `plugin/targets/<id>/` whose `target.ts`
 * exports one of these, plus one line in `TARGETS` (targets.ts).
 */
export interface TargetDescriptor {
  /** The value of `--target` and of `plan.json`'s `target`. */
  readonly id: string;
  /** The host class its output runs on (the seed's sandboxing table, definition/runtime-hosts.ts). */
  readonly host: Host;
  /** What its output is, for help texts and descriptions: `a Worker through miniflare`. */
  readonly served: string;
  /** What its deploy does, for help texts: `wrangler deploy (Worker)`. */
  readonly deploys: string;
  /** What its card names as the agent's endpoint: a public https URL (given at publish) or a loopback port. */
  readonly endpoint: 'public-url' | 'loopback-port';
  /** The options of `agentdef deploy` that only this target takes. */
  readonly deployOptions: readonly DeployOptionName[];
  /** The file of its output that `agentdef run` starts (undefined: `run` cannot run it as a process). */
  readonly runs?: string;
  /** Loaded on first use. */
  adapter(): Promise<Adapter>;
  /** Reads what an output of this target needs (a record/replay session asks). */
  needs(): Promise<(outDir: string) => OutputNeeds>;
  serve(): Promise<ServeOutput>;
  run?(): Promise<RunOutput>;
  deploy(): Promise<DeployOutput>;
}
