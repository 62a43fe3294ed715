/**
 * The compile targets, the host each one runs on, and the shape every adapter implements. The
 * adapters themselves live in `adapters/<target>/`; this file imports none of them, so the
 * runtime choice can name targets without loading an emitter.
 */
import type { Diagnostic } from '../definition/diagnostic';
import { nearestName } from '../definition/nearest-name';
import type { Host } from '../definition/runtime-hosts';
import type { CompilePlan } from './plan';
import type { ResolvedNode } from './resolve';
import type { Bundler } from './bundler';
import type { WorkspaceConfig } from './workspace-config';

export const COMPILE_TARGETS = ['cloudflare-dynamic-worker', 'hb3', 'local-mac'] as const;
export type CompileTarget = (typeof COMPILE_TARGETS)[number];
export type TargetOption = CompileTarget | 'auto';

export const TARGET_HOST: Readonly<Record<CompileTarget, Host>> = {
  'cloudflare-dynamic-worker': 'worker',
  hb3: 'container',
  'local-mac': 'local',
};

export const HOST_TARGET: Readonly<Record<Host, CompileTarget>> = {
  worker: 'cloudflare-dynamic-worker',
  container: 'hb3',
  local: 'local-mac',
};

export function isCompileTarget(value: unknown): value is CompileTarget {
  return typeof value === 'string' && (COMPILE_TARGETS as readonly string[]).includes(value);
}

export function isTargetOption(value: unknown): value is TargetOption {
  return value === 'auto' || isCompileTarget(value);
}

/** Every value `--target` takes, `auto` first. */
export const TARGET_OPTIONS: readonly TargetOption[] = ['auto', ...COMPILE_TARGETS];

/**
 * The target a value that is none probably means: a host's name (`worker`, `container`, `local`)
 * or a near miss of one means that host's target; else the nearest target name (`hb4` → `hb3`),
 * or a target the value begins (`cloudflare` → `cloudflare-dynamic-worker`). Undefined when
 * nothing is close.
 */
export function suggestTarget(value: string): TargetOption | undefined {
  const hosts = Object.keys(HOST_TARGET) as Host[];
  const nearest = nearestName(value.trim(), [...TARGET_OPTIONS, ...hosts]);
  if (nearest !== undefined) return (hosts as readonly string[]).includes(nearest) ? HOST_TARGET[nearest as Host] : (nearest as TargetOption);
  const lowered = value.trim().toLowerCase();
  return lowered.length >= 3 ? TARGET_OPTIONS.find((target) => target.startsWith(lowered)) : undefined;
}

/** What is wrong with a target value that is none: what it probably means, and the values there are. */
export function unknownTargetProblem(value: string): string {
  const guess = suggestTarget(value);
  const list = `${TARGET_OPTIONS.slice(0, -1).join(', ')} or ${TARGET_OPTIONS.at(-1)}`;
  return guess ? `unknown target "${value}": did you mean ${guess}? The targets are ${list}` : `unknown target "${value}": use ${list}`;
}

/** One output file, in memory. `path` is relative to the output folder, posix separators. */
export interface EmittedFile {
  path: string;
  contents: string;
}

/** `summary`: an optional one-line note for the compile summary (e.g. the Worker bundle's size against its budget). */
export type EmitResult = { files: EmittedFile[]; diagnostics?: undefined; summary?: string } | { files?: undefined; diagnostics: Diagnostic[] };

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
  readonly target: CompileTarget;
  /** The hosts this adapter's output runs on. */
  readonly hosts: readonly Host[];
  emit(plan: CompilePlan, resolved: ResolvedNode, context: EmitContext): Promise<EmitResult>;
}
