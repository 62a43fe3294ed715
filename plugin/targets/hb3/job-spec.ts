/**
 * `hb3-job.json` (schema: plugin/schema/hb3-job.v1.schema.json): how HB3 runs one process of a
 * compiled agent. The root's job serves A2A over HTTP (`Job` for request/response agents,
 * `Service` for long-lived ones); each quarantined child is its own `Job` that takes one task on
 * stdin (`--child <nodeId>`). All jobs of a tree share one image. The spec names secrets only by
 * reference (`secretRef`), never by value; the root's card signing key is an optional one.
 */
import { LOCAL_INFERENCE_BASE_URL, RPC_PATH } from '../../compiler/runtime-config';
import { AGENT_CARD_PATH, CARD_SIGNING_KEY_BINDING } from '../../runtime/agent-card';
import { resolveLimits } from '../../runtime/runtime-config';
import type { NodeHostSpec } from '../../host-contract/node-host-spec';
import { agentKey, hostedNodes, secretsOf, subtreeNodes } from '../../host-contract/node-host-spec';
import { heapLimitMb } from '../../host-contract/heap-limit';
import { HB3_API_VERSION, RECEIPTS_DIR, type EnvVar, type Hb3Job } from '../../host-contract/hb3-job';
import { ENTRYPOINT_FILE, IMAGE_DIR } from '../../host-contract/output-files';
import {
  CONTAINER_PORT,
  CONTAINER_RECEIPTS_FILE,
  PUBLIC_ORIGIN_ENV,
  CONTAINER_WEIGHTS_ROOT,
  IMAGE_TOOLS_DIR,
  childJobFile,
  nodeFileStem,
} from '../../host-contract/container-contract';
import type { AgentDefinition } from '../../schema/generated/agent-definition.types';
import { tunedPins } from '../../compiler/node-host-spec';

export const IMAGE_WORKDIR = '/app';
export const DEFAULT_MEMORY_MB = 512;
export const KILL_GRACE_MS = 2000;
export const STARTUP_MS = 30_000;
export const TERMINATION_GRACE_MS = 10_000;

export { childJobFile, nodeFileStem };

/** A DNS-label-like job name: lower case, `[a-z0-9-]`, at most 63 characters. */
export function jobName(text: string): string {
  const name = text
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
  return (name || 'agent').slice(0, 63).replace(/-$/, '');
}

export interface JobSpecInput {
  host: NodeHostSpec;
  nodeId: string;
  definitions: Record<string, AgentDefinition>;
  definitionDigests: Record<string, string>;
  planDigest: string;
  image: Hb3Job['image'];
}

export function buildJobSpec(input: JobSpecInput): Hb3Job {
  const { host, nodeId } = input;
  const spec = host.nodes[nodeId]!;
  const isRoot = nodeId === host.rootId;
  const hosted = hostedNodes(host, nodeId);
  const subtree = subtreeNodes(host, nodeId);
  const memoryMb = spec.memoryMb ?? DEFAULT_MEMORY_MB;
  const heapMb = heapLimitMb(memoryMb);
  const tuned = hosted.flatMap((n) => tunedPins(input.definitions[n.nodeId]!).map((p) => ({ node: n, pin: p })));
  const checkpoints = hosted.flatMap((n) => n.checkpoints);
  const runMs = resolveLimits(spec.config.limits).wallClockMs;
  const kind: Hb3Job['kind'] = isRoot ? host.kind : 'Job';
  const receipts = spec.config.receipts;

  const name = jobName(
    isRoot
      ? spec.config.agent.slug
      : `${host.nodes[host.rootId]!.config.agent.slug}-${nodeFileStem(host.rootId, nodeId)}`,
  );
  const env: EnvVar[] = [{ name: 'NODE_ENV', value: 'production' }];
  // The root is reached at its job name (the service name) on its port: the only Host it accepts
  // besides loopback, and the origin its card advertises. A gateway in front sets its own.
  if (isRoot)
    env.push(
      { name: 'HOST', value: '0.0.0.0' },
      { name: 'PORT', value: String(CONTAINER_PORT) },
      { name: PUBLIC_ORIGIN_ENV, value: `http://${name}:${CONTAINER_PORT}` },
    );
  env.push({ name: 'AGENTDEF_NODE', value: nodeId });
  if (receipts.mode === 'signed') env.push({ name: 'AGENTDEF_RECEIPTS_FILE', value: CONTAINER_RECEIPTS_FILE });
  if (checkpoints.length > 0) env.push({ name: 'AGENTDEF_WEIGHTS_ROOT', value: CONTAINER_WEIGHTS_ROOT });
  // The reference host runs quarantined children as processes of this job and hands them their
  // own secrets, so the job references every secret of its subtree.
  const secrets = secretsOf(host, subtree);
  for (const name of secrets) env.push({ name, secretRef: { name } });
  // The root serves the agent's card, signed when the platform holds the card signing key and
  // unsigned otherwise: the key is referenced, and optional.
  if (isRoot && !secrets.includes(CARD_SIGNING_KEY_BINDING))
    env.push({ name: CARD_SIGNING_KEY_BINDING, secretRef: { name: CARD_SIGNING_KEY_BINDING, optional: true } });

  const mounts: Hb3Job['mounts'] = checkpoints.map((c, i) => ({
    name: `weights-${i}`,
    mountPath: `${CONTAINER_WEIGHTS_ROOT}/${c.path}`,
    readOnly: true,
    source: { kind: 'checkpoint', checkpointId: c.checkpointId, lock: 'weights.lock.json' },
  }));
  if (receipts.mode === 'signed')
    mounts.push({ name: 'receipts', mountPath: RECEIPTS_DIR, readOnly: false, source: { kind: 'volume' } });

  const port = CONTAINER_PORT;
  const job: Hb3Job = {
    apiVersion: HB3_API_VERSION,
    kind,
    metadata: {
      name,
      agent: agentKey(spec),
      node: nodeId,
      planDigest: input.planDigest,
      definitionDigest: input.definitionDigests[nodeId] ?? '',
      labels: {
        'agentdef.dev/agent': spec.config.agent.slug,
        'agentdef.dev/version': spec.config.agent.version,
        'agentdef.dev/lifecycle': spec.config.lifecycleState,
      },
    },
    image: input.image,
    entrypoint: { file: `${IMAGE_DIR}/${ENTRYPOINT_FILE}`, format: 'esm', node: '20' },
    command: [
      'node',
      `--max-old-space-size=${heapMb}`,
      `${IMAGE_WORKDIR}/${ENTRYPOINT_FILE}`,
      ...(isRoot ? [] : ['--child', nodeId]),
    ],
    interface: isRoot
      ? { kind: 'a2a-http', port, rpcPath: RPC_PATH, cardPath: AGENT_CARD_PATH }
      : { kind: 'child-stdio', protocol: 'agentdef-child/v1' },
    resources: {
      cpu: Math.max(1, Math.ceil(memoryMb / 4096)),
      memoryMb,
      heapMb,
      gpu:
        tuned.length > 0
          ? { count: 1, reason: `tuned checkpoint ${tuned[0]!.pin.checkpointId} of ${agentKey(tuned[0]!.node)}` }
          : null,
    },
    mounts,
    inference:
      tuned.length > 0
        ? {
            protocol: 'openai-chat',
            baseUrl: LOCAL_INFERENCE_BASE_URL,
            checkpoints: tuned.map((t) => t.pin.checkpointId),
          }
        : null,
    nativeTools: hosted.flatMap((n) =>
      n.native.map((t) => ({ toolId: t.toolId, binary: t.binary, path: `${IMAGE_TOOLS_DIR}/${t.binary}` })),
    ),
    env,
    timeouts: {
      runMs,
      killAfterMs: runMs + KILL_GRACE_MS,
      startupMs: STARTUP_MS,
      terminationGraceMs: TERMINATION_GRACE_MS,
      ...(kind === 'Job' ? { activeDeadlineMs: STARTUP_MS + runMs + KILL_GRACE_MS } : {}),
    },
    healthCheck: isRoot
      ? { http: { path: '/healthz', port }, initialDelayMs: 500, periodMs: 5000, timeoutMs: 2000, failureThreshold: 3 }
      : null,
    receipts:
      receipts.mode === 'signed'
        ? {
            mode: 'signed',
            schema: 'receipt/v1',
            format: 'jsonl',
            path: CONTAINER_RECEIPTS_FILE,
            volume: 'receipts',
            signer: receipts.signerRef ?? 'unnamed',
            keySecret: receipts.keyBinding ?? '',
          }
        : { mode: 'off' },
    restartPolicy: kind === 'Service' ? 'Always' : 'Never',
  };
  return job;
}
