/**
 * The compile targets, the host each one runs on, and the shape every adapter implements. The
 * adapters themselves live in `adapters/<target>/`; this file imports none of them, so the
 * runtime choice can name targets without loading an emitter.
 */
import type { Diagnostic } from '../definition/diagnostic';
import type { Host } from '../definition/runtime-hosts';
import type { CompilePlan } from './plan';
import type { ResolvedNode } from './resolve';

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

/** One output file, in memory. `path` is relative to the output folder, posix separators. */
export interface EmittedFile {
  path: string;
  contents: string;
}

export type EmitResult = { files: EmittedFile[]; diagnostics?: undefined } | { files?: undefined; diagnostics: Diagnostic[] };

/** An adapter turns a plan (and the resolved tree it was made from) into files. Pure: no I/O. */
export interface Adapter {
  readonly target: CompileTarget;
  /** The hosts this adapter's output runs on. */
  readonly hosts: readonly Host[];
  emit(plan: CompilePlan, resolved: ResolvedNode): EmitResult;
}
