/**
 * Sandboxing: the declared runtimeCapabilityClass must be able to host every tool and every model
 * pin of this file (children are resolved by the compiler, not here), and to provide every
 * binding it declares (a KV namespace on a class that runs only in a container would be dropped
 * without a word). The host table lives in runtime-hosts.ts, shared with the compiler.
 */
import type { Finding } from '../diagnostic';
import { ERROR_CODES } from '../diagnostic';
import {
  CLASS_HOSTS,
  HOST_CLASS,
  bindingHosts,
  describeHosts,
  intersectHosts,
  pinHosts,
  toolHosts,
  type HostRequirement,
  type RuntimeCapabilityClass,
} from '../runtime-hosts';
import type { SemanticRule } from './rule';

const RULE = 'sandboxing';

const CLASS_ORDER: readonly RuntimeCapabilityClass[] = [
  'workers-only',
  'workers-preferred',
  'container-required',
  'local-host-required',
];

/** The class to suggest: one that hosts this requirement and, if possible, every other one too. */
function suggestClass(
  requirement: HostRequirement,
  all: readonly HostRequirement[],
): { cls: RuntimeCapabilityClass; hostsAll: boolean } {
  const hostsAll = (cls: RuntimeCapabilityClass) =>
    all.every((r) => intersectHosts(CLASS_HOSTS[cls], r.hosts).length > 0);
  // Prefer the strict class of the requirement's own hosts, in its order of preference.
  for (const host of requirement.hosts) {
    const cls = HOST_CLASS[host];
    if (hostsAll(cls)) return { cls, hostsAll: true };
  }
  const any = CLASS_ORDER.find(
    (cls) => intersectHosts(CLASS_HOSTS[cls], requirement.hosts).length > 0 && hostsAll(cls),
  );
  if (any !== undefined) return { cls: any, hostsAll: true };
  const first = requirement.hosts[0];
  return { cls: first === undefined ? 'container-required' : HOST_CLASS[first], hostsAll: false };
}

export const sandboxingRule: SemanticRule = {
  name: RULE,
  description:
    "The declared runtimeCapabilityClass can host every tool and model pin of the definition (native tools and tuned weights need a container or the local host, MCP over stdio and local models the local host) and provide every binding it declares (only Workers provide KV, D1, queue, service and custom bindings; R2 is a Worker binding or a container's weights source).",
  check(definition) {
    const findings: Finding[] = [];
    const cls = definition.runtimeRequirements.runtimeCapabilityClass;
    const classHostList = CLASS_HOSTS[cls];

    const items: { path: string; what: string; requirement: HostRequirement }[] = [
      ...definition.modelSet.map((pin, index) => ({
        path: `/modelSet/${index}`,
        what: `modelSet[${index}]`,
        requirement: pinHosts(pin),
      })),
      ...definition.toolInventory.map((tool, index) => ({
        path: `/toolInventory/${index}`,
        what: `toolInventory[${index}]`,
        requirement: toolHosts(tool),
      })),
    ];
    const all = items.map((i) => i.requirement);

    for (const { path, what, requirement } of items) {
      if (intersectHosts(classHostList, requirement.hosts).length > 0) continue;
      const suggestion = suggestClass(requirement, all);
      findings.push({
        rule: RULE,
        code: ERROR_CODES.runtimeMismatch,
        path,
        message: `${what}: ${requirement.reason}, but runtimeCapabilityClass "${cls}" runs only on ${describeHosts(classHostList)}.`,
        suggestion: suggestion.hostsAll
          ? `Declare runtimeRequirements.runtimeCapabilityClass "${suggestion.cls}" (it runs on ${describeHosts(CLASS_HOSTS[suggestion.cls])}), or replace ${what} with one that ${describeHosts(classHostList)} can host.`
          : `No single class hosts every tool and pin of this definition; ${what} needs ${describeHosts(requirement.hosts)} (runtimeCapabilityClass "${suggestion.cls}"), so split it into a child agent or replace it.`,
      });
    }
    definition.runtimeRequirements.bindings.forEach((binding, index) => {
      const requirement = bindingHosts(binding);
      if (intersectHosts(classHostList, requirement.hosts).length > 0) return;
      const provides = (c: RuntimeCapabilityClass) => intersectHosts(CLASS_HOSTS[c], requirement.hosts).length > 0;
      const hostsAll = (c: RuntimeCapabilityClass) =>
        all.every((r) => intersectHosts(CLASS_HOSTS[c], r.hosts).length > 0);
      const suggested = CLASS_ORDER.find((c) => provides(c) && hostsAll(c)) ?? CLASS_ORDER.find(provides)!;
      findings.push({
        rule: RULE,
        code: ERROR_CODES.runtimeMismatch,
        path: `/runtimeRequirements/bindings/${index}`,
        message: `runtimeRequirements.bindings[${index}]: ${requirement.reason}, but runtimeCapabilityClass "${cls}" runs only on ${describeHosts(classHostList)}, which would not provide it.`,
        suggestion: `Remove runtimeRequirements.bindings[${index}], or declare runtimeCapabilityClass "${suggested}" (it runs on ${describeHosts(CLASS_HOSTS[suggested])}).`,
      });
    });
    return findings;
  },
};
