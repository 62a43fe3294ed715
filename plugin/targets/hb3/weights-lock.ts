/**
 * `weights.lock.json`: the tuned checkpoints a compiled tree mounts, pinned by id: which node and
 * model pin uses each, where it is mounted read-only in the container, and where it is fetched
 * from when the definition binds one R2 bucket. `digest` is null until whoever publishes the
 * checkpoint fills it in; hosts print the digest of what they read (`weights.loaded`).
 */
import type { AgentDefinition } from '../../schema/generated/agent-definition.types';
import { CONTAINER_WEIGHTS_ROOT } from '../../host-contract/container-contract';
import { checkpointPath, tunedPins } from '../../compiler/node-host-spec';

export const WEIGHTS_LOCK_VERSION = 'agentdef-weights-lock/v1';

export interface WeightsLock {
  lockVersion: typeof WEIGHTS_LOCK_VERSION;
  planDigest: string;
  checkpoints: {
    checkpointId: string;
    node: string;
    agent: string;
    role: string;
    providerId: string;
    modelId: string;
    modelVersion: string;
    path: string;
    mountPath: string;
    readOnly: true;
    source: { kind: 'r2'; binding: string; bucket: string; key: string } | null;
    digest: string | null;
  }[];
}

export function buildWeightsLock(
  planDigest: string,
  definitions: Record<string, AgentDefinition>,
): WeightsLock | undefined {
  const checkpoints: WeightsLock['checkpoints'] = [];
  for (const [node, d] of Object.entries(definitions)) {
    const buckets = d.runtimeRequirements.bindings.filter(
      (b): b is Extract<typeof b, { kind: 'r2' }> => b.kind === 'r2',
    );
    for (const pin of tunedPins(d)) {
      const path = checkpointPath(pin.checkpointId);
      const only = buckets.length === 1 ? buckets[0] : undefined;
      const bucket = only?.bucket ? { name: only.name, bucket: only.bucket } : undefined;
      checkpoints.push({
        checkpointId: pin.checkpointId,
        node,
        agent: `${d.identity.slug}@${d.identity.versionSemver}`,
        role: pin.role,
        providerId: pin.providerId,
        modelId: pin.modelId,
        modelVersion: pin.modelVersion,
        path,
        mountPath: `${CONTAINER_WEIGHTS_ROOT}/${path}`,
        readOnly: true,
        source: bucket ? { kind: 'r2', binding: bucket.name, bucket: bucket.bucket, key: path } : null,
        digest: null,
      });
    }
  }
  return checkpoints.length > 0 ? { lockVersion: WEIGHTS_LOCK_VERSION, planDigest, checkpoints } : undefined;
}
