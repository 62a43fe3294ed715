/**
 * The sandboxing table of the seed: which hosts can run each tool, each model pin and each
 * runtime capability class. The semantic rule (one file on its own) and the compiler's runtime
 * choice (the whole resolved tree) both read it, so they never disagree.
 */
import type { AgentDefinition, BindingRef, LlmPin, ToolRef } from '../schema/generated/agent-definition.types';

export type Host = 'worker' | 'container' | 'local';
export type RuntimeCapabilityClass = AgentDefinition['runtimeRequirements']['runtimeCapabilityClass'];

export const ALL_HOSTS: readonly Host[] = ['worker', 'container', 'local'];

/**
 * The hosts a declared class names for the definition's own tools and pins (the seed's rules:
 * a stdio MCP tool or a local-ollama pin needs `local-host-required`; workers-preferred may
 * degrade to a container for weights or native binaries).
 */
export const CLASS_HOSTS: Readonly<Record<RuntimeCapabilityClass, readonly Host[]>> = {
  'workers-only': ['worker'],
  'workers-preferred': ['worker', 'container'],
  'container-required': ['container'],
  'local-host-required': ['local'],
};

/**
 * The hosts a compile may target for a declared class, in the order `auto` prefers them. Wider
 * than CLASS_HOSTS: the user's own machine can run anything that is not bound to Workers, so a
 * workers-preferred or container-required agent may still be compiled for the local host, and
 * a workers-preferred tree whose child needs the local host degrades there.
 */
export const CLASS_TARGET_HOSTS: Readonly<Record<RuntimeCapabilityClass, readonly Host[]>> = {
  'workers-only': ['worker'],
  'workers-preferred': ['worker', 'container', 'local'],
  'container-required': ['container', 'local'],
  'local-host-required': ['local'],
};

/** The strict class that corresponds to running on one host. */
export const HOST_CLASS: Readonly<Record<Host, RuntimeCapabilityClass>> = {
  worker: 'workers-only',
  container: 'container-required',
  local: 'local-host-required',
};

export interface HostRequirement {
  hosts: readonly Host[];
  /** Why: a short phrase such as `native tool "rg" needs a container or the local host`. */
  reason: string;
}

export const LOCAL_PROVIDERS: ReadonlySet<string> = new Set(['local-ollama']);

/**
 * The hosts a tool may run on: its provenance decides (the seed: skill packages → Workers, native
 * binaries → HB3, MCP over stdio → local-mac only), and its risk narrows it: a `critical` tool runs
 * in its own process (a container or the local host), never in a Worker isolate beside other code.
 */
export function toolHosts(tool: ToolRef): HostRequirement {
  const byProvenance = provenanceHosts(tool);
  if (tool.risk !== 'critical' || !byProvenance.hosts.includes('worker')) return byProvenance;
  const hosts = byProvenance.hosts.filter((h) => h !== 'worker');
  return { hosts, reason: `critical-risk tool "${tool.id}" runs in its own process: ${describeHosts(hosts)}` };
}

function provenanceHosts(tool: ToolRef): HostRequirement {
  const label = `tool "${tool.id}"`;
  switch (tool.provenance) {
    case 'native':
      return { hosts: ['container', 'local'], reason: `native ${label} runs a binary: a container or the local host` };
    case 'mcp':
      if (tool.mcpTransport === 'stdio')
        return { hosts: ['local'], reason: `MCP ${label} over stdio runs on the local host only` };
      return { hosts: ALL_HOSTS, reason: `MCP ${label} over HTTP is reachable from any host` };
    case 'skill-package':
      return { hosts: ALL_HOSTS, reason: `skill-package ${label} is bundled; a Worker suffices` };
    case 'scripted':
      return { hosts: ALL_HOSTS, reason: `scripted ${label} is bundled; a Worker suffices` };
  }
}

export function pinHosts(pin: LlmPin): HostRequirement {
  const label = `model pin "${pin.modelId}" (${pin.role})`;
  if (LOCAL_PROVIDERS.has(pin.providerId) || pin.tier === 'local') {
    return { hosts: ['local'], reason: `${label} runs on the local machine (${pin.providerId}): the local host only` };
  }
  if (pin.tier === 'tuned') {
    return {
      hosts: ['container', 'local'],
      reason: `tuned ${label} loads checkpoint weights: a container or the local host`,
    };
  }
  return { hosts: ALL_HOSTS, reason: `${label} is a remote API call from any host` };
}

/**
 * The hosts that provide a declared binding. Cloudflare Workers provide every kind (wrangler and
 * the Worker Loader); the container and local hosts give the agent its secrets (by name, from the
 * host's environment or key store) and nothing else, except that an HB3 container fetches tuned
 * weights from an `r2` bucket (targets/hb3/weights-lock.ts). Any other binding would be dropped
 * there without a word, so a class that runs only on such hosts may not declare it. Only the
 * sandboxing rule reads this: the runtime choice does not, so a workers-preferred tree that falls
 * back to a container still compiles, without its Worker-only bindings (the schema says so).
 */
export function bindingHosts(binding: BindingRef): HostRequirement {
  const label = `${binding.kind} binding "${binding.name}"`;
  switch (binding.kind) {
    case 'secret-ref':
      return { hosts: ALL_HOSTS, reason: `${label} is a secret every host supplies by name` };
    case 'r2':
      return {
        hosts: ['worker', 'container'],
        reason: `${label} is provided by a Worker, and on a container only as the source of tuned weights`,
      };
    default:
      return { hosts: ['worker'], reason: `${label} is provided by Cloudflare Workers only` };
  }
}

export function intersectHosts(a: readonly Host[], b: readonly Host[]): Host[] {
  return a.filter((h) => b.includes(h));
}

export function describeHosts(hosts: readonly Host[]): string {
  if (hosts.length === 0) return 'no host';
  const names: Record<Host, string> = { worker: 'a Worker', container: 'a container', local: 'the local host' };
  return hosts.map((h) => names[h]).join(' or ');
}
