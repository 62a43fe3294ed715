/**
 * `kustomization.yaml`: the output's objects as one kustomize application (`kubectl apply -k`):
 * its resources, the standard labels, the image (edit `newName` to pull from your registry) and
 * the Deployment's replica count.
 */
import type { Hb3Job } from '../../host-contract/hb3-job';
import type { Manifest } from './workloads';

export function kustomization(input: {
  root: Hb3Job;
  labels: Record<string, string>;
  manifests: readonly Manifest[];
  replicas?: { name: string; count: number };
}): Record<string, unknown> {
  return {
    apiVersion: 'kustomize.config.k8s.io/v1beta1',
    kind: 'Kustomization',
    labels: [{ pairs: input.labels, includeSelectors: false }],
    resources: input.manifests.map((m) => m.file),
    images: [{ name: input.root.image.name, newName: input.root.image.name, newTag: input.root.image.tag }],
    ...(input.replicas ? { replicas: [input.replicas] } : {}),
  };
}
