/**
 * The HB3 adapter: a container job (and, for a dag, a workflow) per agentdef's published HB3
 * contract (docs/hb3.md), with the image's build context:
 *   hb3-job.json, hb3-workflow.json (dags), jobs/<node>.hb3-job.json (quarantined
 *   children), weights.lock.json (tuned checkpoints), runtime-configs.json,
 *   image/Dockerfile, image/entrypoint.mjs, image/native-tools/README.md (native tools).
 * Deterministic: the same plan and sources give the same bytes.
 */
import { stableJson } from '../../compiler/canonical-json';
import type { Adapter, EmittedFile } from '../target';
import { dockerfile, nativeToolsReadme } from './dockerfile';
import {
  ENTRYPOINT_FILE,
  IMAGE_DIR,
  JOB_FILE,
  RUNTIME_CONFIGS_FILE,
  WEIGHTS_LOCK_FILE,
  WORKFLOW_FILE,
} from '../../host-contract/output-files';
import { imageTag } from './image-tag';
import { buildJobSpec, childJobFile } from './job-spec';
import { emitNodeHost } from '../../compiler/node-host-entry';
import { buildWeightsLock } from './weights-lock';
import { buildWorkflowSpec } from './workflow-spec';

export const hb3Adapter: Adapter = {
  target: 'hb3',
  hosts: ['container'],
  async emit(plan, resolved, context) {
    const emitted = await emitNodeHost(plan, resolved, context, 'hb3', 'hb3-main');
    if (emitted.diagnostics) return { diagnostics: emitted.diagnostics };
    const { tree } = emitted;
    const host = tree.spec;

    const root = `${plan.root.slug}@${plan.root.version}`;
    const image = {
      name: `agentdef/${plan.root.slug}`,
      tag: imageTag(plan.root.version, plan.digest),
      build: { context: IMAGE_DIR, dockerfile: `${IMAGE_DIR}/Dockerfile` },
      workdir: '/app',
    };
    const definitionDigests = Object.fromEntries(plan.nodes.map((n) => [n.id, n.digest]));
    const jobFor = (nodeId: string) =>
      buildJobSpec({ host, nodeId, definitions: tree.definitions, definitionDigests, planDigest: plan.digest, image });
    const rootJob = jobFor(host.rootId);
    const files: EmittedFile[] = [
      { path: JOB_FILE, contents: stableJson(rootJob) },
      {
        path: RUNTIME_CONFIGS_FILE,
        contents: stableJson(Object.fromEntries(Object.values(host.nodes).map((n) => [n.nodeId, n.config]))),
      },
    ];
    for (const node of plan.nodes) {
      if (node.parent !== undefined && node.quarantine)
        files.push({ path: childJobFile(host.rootId, node.id), contents: stableJson(jobFor(node.id)) });
    }
    if (resolved.definition.composition.kind === 'dag')
      files.push({ path: WORKFLOW_FILE, contents: stableJson(buildWorkflowSpec(plan, host, rootJob.metadata.name)) });
    const lock = buildWeightsLock(plan.digest, tree.definitions);
    if (lock) files.push({ path: WEIGHTS_LOCK_FILE, contents: stableJson(lock) });

    const native = Object.values(host.nodes).flatMap((n) => n.native);
    const binaries = [...new Set(native.map((t) => t.binary))].sort();
    files.push({
      path: `${IMAGE_DIR}/Dockerfile`,
      contents: dockerfile(rootJob, binaries, `agentdef HB3 image for ${root} (plan ${plan.digest.slice(0, 12)})`),
    });
    files.push({ path: `${IMAGE_DIR}/${ENTRYPOINT_FILE}`, contents: emitted.entry });
    if (native.length > 0)
      files.push({ path: `${IMAGE_DIR}/native-tools/README.md`, contents: nativeToolsReadme(native) });
    return { files };
  },
};
