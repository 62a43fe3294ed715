/**
 * The NetworkPolicy of an agent's pods, mirroring its egress allow-list as far as a NetworkPolicy
 * can: it selects by IP block and port, never by host name, so it allows DNS (port 53) and the
 * ports of the allow-listed origins to any address, and carries the origins themselves in an
 * annotation. The host names are enforced inside the process by the Node host's network guard
 * (every connection and DNS query checked against the same list); loopback origins (a tuned
 * pin's in-pod inference server) never leave the pod and need no rule. Ingress is left open.
 * A served agent's pods also reach their task store's database (PostgreSQL, shared by the
 * replicas): TCP {@link TASK_STORE_DATABASE_PORT}, PostgreSQL's port, named in its own annotation
 * (a database listening elsewhere: change both). The host's guard lets only the store's own
 * sockets reach it, never the agent's tools.
 */
import { egressAllowList } from '../../runtime/egress';
import type { RuntimeConfig } from '../../runtime/runtime-config';
import { dnsLabel } from './names';

export const EGRESS_ANNOTATION = 'agentdef.dev/egress-allow';
export const TASK_STORE_PORT_ANNOTATION = 'agentdef.dev/task-store-port';
/** PostgreSQL's port: where a served agent's replicas reach their shared task store. */
export const TASK_STORE_DATABASE_PORT = 5432;
const DNS_PORT = 53;

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/** The origins every node of the tree may reach, sorted (the root's pod runs them all). */
export function treeEgress(configs: Record<string, RuntimeConfig>): string[] {
  return [...new Set(Object.values(configs).flatMap((config) => egressAllowList(config)))].sort();
}

/** The TCP ports of the origins that leave the pod, ascending. */
export function egressPorts(origins: readonly string[]): number[] {
  const ports = new Set<number>();
  for (const origin of origins) {
    const url = new URL(origin);
    if (isLoopback(url.hostname)) continue;
    ports.add(url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80);
  }
  return [...ports].sort((a, b) => a - b);
}

export function networkPolicy(input: {
  agentName: string;
  labels: Record<string, string>;
  podSelector: Record<string, string>;
  origins: readonly string[];
  /** The pods keep their A2A tasks in the shared database (a served agent). */
  taskStore?: boolean;
}): Record<string, unknown> {
  const ports = egressPorts(input.origins);
  if (input.taskStore && !ports.includes(TASK_STORE_DATABASE_PORT)) ports.push(TASK_STORE_DATABASE_PORT);
  ports.sort((a, b) => a - b);
  const egress =
    ports.length === 0
      ? []
      : [
          {
            ports: [
              { protocol: 'UDP', port: DNS_PORT },
              { protocol: 'TCP', port: DNS_PORT },
            ],
          },
          { ports: ports.map((port) => ({ protocol: 'TCP', port })) },
        ];
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: {
      name: dnsLabel(`${input.agentName}-egress`),
      labels: input.labels,
      annotations: {
        [EGRESS_ANNOTATION]: input.origins.join(','),
        ...(input.taskStore ? { [TASK_STORE_PORT_ANNOTATION]: String(TASK_STORE_DATABASE_PORT) } : {}),
      },
    },
    spec: { podSelector: { matchLabels: input.podSelector }, policyTypes: ['Egress'], egress },
  };
}
