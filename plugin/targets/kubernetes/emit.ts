/**
 * The Kubernetes adapter: the HB3 image contract (the HB3 adapter's own output: image/Dockerfile,
 * image/entrypoint.mjs, hb3-job.json, jobs/*.hb3-job.json, hb3-workflow.json, …) plus, in
 * `kubernetes/`, the manifests that run it on a cluster: the root's Deployment (a served agent)
 * or Job (a batch run) and its Service, one suspended Job per quarantined step of a dag, the
 * NetworkPolicy of the egress allow-list, and the kustomization.yaml tying them together. YAML,
 * deterministic: the same plan and sources give the same bytes.
 */
import { stringify } from 'yaml';
import type { Adapter, EmittedFile } from '../target';
import { containerContractTarget, readContainerContract } from './container-contract';
import { kustomization } from './kustomization';
import { DEFAULT_REPLICAS, KUSTOMIZATION_FILE, MANIFESTS_DIR, standardLabels } from './names';
import { networkPolicy, treeEgress } from './network-policy';
import { type Manifest, workloads } from './workloads';

export function yamlText(value: unknown): string {
  return stringify(value, { lineWidth: 0, aliasDuplicateObjects: false });
}

export const kubernetesAdapter: Adapter = {
  target: 'kubernetes',
  hosts: ['container'],
  async emit(plan, resolved, context) {
    const image = await (await containerContractTarget().adapter()).emit(plan, resolved, context);
    if (image.diagnostics) return image;
    const contract = readContainerContract(image.files);
    const labels = standardLabels(plan.root.slug, plan.root.version);
    const manifests: Manifest[] = workloads(contract, labels);
    const deployment = manifests.find((m) => m.object['kind'] === 'Deployment');
    manifests.push({
      file: 'network-policy.yaml',
      object: networkPolicy({
        agentName: contract.root.metadata.name,
        labels,
        podSelector: { 'app.kubernetes.io/name': labels['app.kubernetes.io/name']! },
        origins: treeEgress(contract.configs),
        taskStore: deployment !== undefined,
      }),
    });
    const files: EmittedFile[] = [
      ...image.files,
      ...manifests.map((m) => ({ path: `${MANIFESTS_DIR}/${m.file}`, contents: yamlText(m.object) })),
      {
        path: `${MANIFESTS_DIR}/${KUSTOMIZATION_FILE}`,
        contents: yamlText(
          kustomization({
            root: contract.root,
            labels,
            manifests,
            ...(deployment ? { replicas: { name: contract.root.metadata.name, count: DEFAULT_REPLICAS } } : {}),
          }),
        ),
      },
    ];
    return { files: files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)) };
  },
};
