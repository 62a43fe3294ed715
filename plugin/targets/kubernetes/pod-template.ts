/**
 * One HB3 job spec (hb3-job.v1, docs/hb3.md) as a Kubernetes pod template: the same image,
 * command, environment and mounts, with every secret as `valueFrom.secretKeyRef` (never a value),
 * resources from the job's (the definition's `limits.memoryMb`), and for a job that serves A2A its
 * probes (below). Plain data for the manifests.
 */
import { CONTAINER_WEIGHTS_ROOT, PUBLIC_ORIGIN_ENV } from '../../host-contract/container-contract';
import type { Hb3Job } from '../../host-contract/hb3-job';
import { secretsSecretName, TASK_STORE_ENV, TASK_STORE_KEY, taskStoreSecretName, weightsClaimName } from './names';

/** The image's `node` user (node:20-bookworm-slim), which the Dockerfile runs as. */
const NODE_USER_ID = 1000;
/** The GPU resource name of NVIDIA's device plugin, the one most clusters run. */
export const GPU_RESOURCE = 'nvidia.com/gpu';

export interface PodTemplateInput {
  job: Hb3Job;
  /** The root job's name: the Secrets are named after it. */
  agentName: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  /** The pod reads `AGENTDEF_TASK_STORE` from the task store's Secret (replicas share tasks). */
  taskStore: boolean;
  /** The process takes its one task on stdin (a quarantined child's job, agentdef-child/v1). */
  stdin: boolean;
  /** The origin clients reach the pod at, when it is not the job's own (its Service is named otherwise). */
  publicOrigin?: string;
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

function envOf(input: PodTemplateInput): Record<string, unknown>[] {
  const secret = secretsSecretName(input.agentName);
  const env: Record<string, unknown>[] = input.job.env.map((variable) =>
    'secretRef' in variable
      ? {
          name: variable.name,
          valueFrom: {
            secretKeyRef: {
              name: secret,
              key: variable.secretRef.name,
              ...(variable.secretRef.optional ? { optional: true } : {}),
            },
          },
        }
      : {
          name: variable.name,
          value: variable.name === PUBLIC_ORIGIN_ENV && input.publicOrigin ? input.publicOrigin : variable.value,
        },
  );
  if (input.taskStore)
    env.push({
      name: TASK_STORE_ENV,
      valueFrom: { secretKeyRef: { name: taskStoreSecretName(input.agentName), key: TASK_STORE_KEY } },
    });
  return env;
}

/**
 * The probes of a job that serves A2A (none for a child): startup and readiness on its AgentCard
 * URL (a pod that cannot serve its card, or is busy, gets no traffic), liveness on the job's health
 * route (`/healthz`, exempt from the busy limit: a replica busy with runs is not restarted mid-run).
 */
function probesOf(job: Hb3Job): Record<string, unknown> {
  if (job.interface.kind !== 'a2a-http' || job.healthCheck === null) return {};
  // The host answers only its own names: a probe names loopback with the served port (docs/hb3.md).
  const host = [{ name: 'Host', value: `127.0.0.1:${job.interface.port}` }];
  const card = { path: job.interface.cardPath, port: 'http', httpHeaders: host };
  const health = { path: job.healthCheck.http.path, port: 'http', httpHeaders: host };
  const check = job.healthCheck;
  const timing = {
    periodSeconds: seconds(check.periodMs),
    timeoutSeconds: seconds(check.timeoutMs),
    failureThreshold: check.failureThreshold,
  };
  return {
    startupProbe: { httpGet: card, ...timing, failureThreshold: Math.ceil(job.timeouts.startupMs / check.periodMs) },
    readinessProbe: { httpGet: card, ...timing },
    livenessProbe: { httpGet: health, ...timing },
  };
}

function resourcesOf(input: PodTemplateInput): Record<string, unknown> {
  const { resources } = input.job;
  const amounts = { cpu: String(resources.cpu), memory: `${resources.memoryMb}Mi` };
  return {
    requests: amounts,
    limits: { ...amounts, ...(resources.gpu ? { [GPU_RESOURCE]: String(resources.gpu.count) } : {}) },
  };
}

function mountsOf(job: Hb3Job): { mounts: Record<string, unknown>[]; volumes: Record<string, unknown>[] } {
  const mounts: Record<string, unknown>[] = [];
  const volumes: Record<string, unknown>[] = [];
  for (const mount of job.mounts) {
    if (mount.source.kind === 'checkpoint') {
      mounts.push({
        name: 'weights',
        mountPath: mount.mountPath,
        subPath: mount.mountPath.slice(CONTAINER_WEIGHTS_ROOT.length + 1),
        readOnly: true,
      });
    } else {
      mounts.push({ name: mount.name, mountPath: mount.mountPath });
      volumes.push({ name: mount.name, emptyDir: {} });
    }
  }
  return { mounts, volumes };
}

export function podTemplate(input: PodTemplateInput): Record<string, unknown> {
  const { job } = input;
  const { mounts, volumes } = mountsOf(job);
  if (job.mounts.some((m) => m.source.kind === 'checkpoint'))
    volumes.unshift({
      name: 'weights',
      persistentVolumeClaim: { claimName: weightsClaimName(input.agentName), readOnly: true },
    });
  const container: Record<string, unknown> = {
    name: 'agent',
    image: `${job.image.name}:${job.image.tag}`,
    imagePullPolicy: 'IfNotPresent',
    command: job.command,
    workingDir: job.image.workdir,
    ...(job.interface.kind === 'a2a-http'
      ? { ports: [{ name: 'http', containerPort: job.interface.port, protocol: 'TCP' }] }
      : {}),
    env: envOf(input),
    resources: resourcesOf(input),
    ...probesOf(job),
    ...(mounts.length > 0 ? { volumeMounts: mounts } : {}),
    ...(input.stdin ? { stdin: true, stdinOnce: true } : {}),
    securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
  };
  return {
    metadata: { labels: input.labels, annotations: input.annotations },
    spec: {
      automountServiceAccountToken: false,
      enableServiceLinks: false,
      restartPolicy: job.restartPolicy,
      terminationGracePeriodSeconds: seconds(job.timeouts.terminationGraceMs),
      securityContext: {
        runAsNonRoot: true,
        runAsUser: NODE_USER_ID,
        runAsGroup: NODE_USER_ID,
        fsGroup: NODE_USER_ID,
        seccompProfile: { type: 'RuntimeDefault' },
      },
      containers: [container],
      ...(volumes.length > 0 ? { volumes } : {}),
    },
  };
}
