/**
 * The deployment targets: one line each. Everything that names targets (the values of `--target`,
 * `auto`'s choice per host, the messages that list them, the CLI's help, the executor schemas, the
 * graph's descriptions) is derived from this table; a target's own folder holds everything else.
 * The order is `auto`'s preference among targets on one host, and the order lists are printed in.
 */
import type { Host } from '../definition/runtime-hosts';
import { nearestName } from '../definition/nearest-name';
import { cloudflareDynamicWorkerTarget } from './cloudflare-dynamic-worker/target';
import { hb3Target } from './hb3/target';
import { kubernetesTarget } from './kubernetes/target';
import { localMacTarget } from './local-mac/target';
import type { DeployOptionName, TargetDescriptor } from './target';

// One line per target (adding one is a folder and a line here).
export const TARGETS = [
  cloudflareDynamicWorkerTarget,
  hb3Target,
  kubernetesTarget,
  localMacTarget,
] as const satisfies readonly TargetDescriptor[];

export type CompileTarget = (typeof TARGETS)[number]['id'];
export type TargetOption = CompileTarget | 'auto';

/** Every target id, in table order. */
export const COMPILE_TARGETS: readonly CompileTarget[] = TARGETS.map((target) => target.id);

/** Every value `--target` takes, `auto` first. */
export const TARGET_OPTIONS: readonly TargetOption[] = ['auto', ...COMPILE_TARGETS];

export function isCompileTarget(value: unknown): value is CompileTarget {
  return typeof value === 'string' && (COMPILE_TARGETS as readonly string[]).includes(value);
}

export function isTargetOption(value: unknown): value is TargetOption {
  return value === 'auto' || isCompileTarget(value);
}

/** The descriptor of a target id. */
export function targetFor(id: CompileTarget): TargetDescriptor {
  return TARGETS.find((target) => target.id === id)!;
}

/** The target `auto` compiles for when it chooses `host`: the first in the table on that host. */
export function targetForHost(host: Host): CompileTarget {
  const found = TARGETS.find((target) => target.host === host);
  if (found === undefined) throw new Error(`no target runs on the ${host} host`);
  return found.id;
}

/** The host a target's output runs on. */
export function hostOf(id: CompileTarget): Host {
  return targetFor(id).host;
}

/** `a, b or c` */
export function listText(items: readonly string[], conjunction = 'or'): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} ${conjunction} ${items.at(-1)}`;
}

/** The targets that take one of `agentdef deploy`'s target-only options. */
export function deployOptionTargets(option: DeployOptionName): CompileTarget[] {
  return TARGETS.filter((target) => (target.deployOptions as readonly DeployOptionName[]).includes(option)).map(
    (target) => target.id,
  );
}

/** The targets whose output `agentdef run` runs as a process on this machine. */
export function processTargets(): TargetDescriptor[] {
  return TARGETS.filter((target: TargetDescriptor) => target.runs !== undefined);
}

/**
 * The target a value that is none probably means: a host's name (`worker`, `container`, `local`)
 * or a near miss of one means that host's target; else the nearest target name (`hb4` → `hb3`),
 * or a target the value begins (`cloudflare` → `cloudflare-dynamic-worker`). Undefined when
 * nothing is close.
 */
export function suggestTarget(value: string): TargetOption | undefined {
  const hosts: string[] = [...new Set(TARGETS.map((target) => target.host))];
  const nearest = nearestName(value.trim(), [...TARGET_OPTIONS, ...hosts]);
  if (nearest !== undefined)
    return hosts.includes(nearest) ? targetForHost(nearest as Host) : (nearest as TargetOption);
  const lowered = value.trim().toLowerCase();
  return lowered.length >= 3 ? TARGET_OPTIONS.find((target) => target.startsWith(lowered)) : undefined;
}

/** What is wrong with a target value that is none: what it probably means, and the values there are. */
export function unknownTargetProblem(value: string): string {
  const guess = suggestTarget(value);
  const list = listText(TARGET_OPTIONS);
  return guess
    ? `unknown target "${value}": did you mean ${guess}? The targets are ${list}`
    : `unknown target "${value}": use ${list}`;
}

/** `auto|<id>|…`: the values of `--target`, as an option's description shows them. */
export function targetChoices(): string {
  return TARGET_OPTIONS.join('|');
}

/** `<id>: <what serves it>; …` for help texts and descriptions. */
export function servedText(): string {
  return TARGETS.map((target) => `${target.id}: ${target.served}`).join('; ');
}

/** `<id>: <what deploys it>; …` for help texts and descriptions. */
export function deploysText(): string {
  return TARGETS.map((target) => `${target.id}: ${target.deploys}`).join('; ');
}
