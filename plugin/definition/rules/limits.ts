/**
 * `runtimeRequirements.limits` reach a host that enforces them. `cpuMs` is the CPU-time limit
 * Cloudflare Workers enforce (`limits.cpu_ms`); container and local hosts do not meter CPU time,
 * so a class that never compiles for a Worker (`container-required`, `local-host-required`) may
 * not declare it. A Worker isolate has 128 MiB whatever `memoryMb` says, so a `workers-only`
 * agent may not declare more (a `workers-preferred` one may: its container fallback gets it).
 */
import type { Finding } from '../diagnostic';
import { CLASS_TARGET_HOSTS, describeHosts } from '../runtime-hosts';
import type { SemanticRule } from './rule';

const RULE = 'limits';

/** The memory of a Cloudflare Worker isolate, in MiB (Workers platform limits). */
export const WORKER_ISOLATE_MEMORY_MB = 128;

export const limitsRule: SemanticRule = {
  name: RULE,
  description:
    'Every limit reaches a host that enforces it: cpuMs only for a class that runs on a Worker, and no more memoryMb than a Worker isolate has (128) for workers-only.',
  check(definition) {
    const findings: Finding[] = [];
    const cls = definition.runtimeRequirements.runtimeCapabilityClass;
    const { cpuMs, memoryMb } = definition.runtimeRequirements.limits;
    const hosts = CLASS_TARGET_HOSTS[cls];
    if (cpuMs !== undefined && !hosts.includes('worker')) {
      findings.push({
        rule: RULE,
        path: '/runtimeRequirements/limits/cpuMs',
        at: 'key',
        message: `limits.cpuMs is the CPU-time limit Cloudflare Workers enforce, but runtimeCapabilityClass "${cls}" never runs on a Worker (only ${describeHosts(hosts)}), and those hosts do not meter CPU time: the limit would change nothing.`,
        suggestion: 'Remove cpuMs; bound the run with wallClockMs, which every host enforces.',
      });
    }
    if (memoryMb !== undefined && cls === 'workers-only' && memoryMb > WORKER_ISOLATE_MEMORY_MB) {
      findings.push({
        rule: RULE,
        path: '/runtimeRequirements/limits/memoryMb',
        message: `limits.memoryMb (${memoryMb} MiB) is more than the ${WORKER_ISOLATE_MEMORY_MB} MiB a Cloudflare Worker isolate has, and runtimeCapabilityClass "workers-only" runs only on a Worker: the agent would never get it.`,
        suggestion: `Lower memoryMb to ${WORKER_ISOLATE_MEMORY_MB} or less, or declare runtimeCapabilityClass "workers-preferred" or "container-required" so the agent can run where it gets the memory.`,
      });
    }
    return findings;
  },
};
