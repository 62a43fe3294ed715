/**
 * The names and labels the Kubernetes manifests use: the standard `app.kubernetes.io/*` labels,
 * label values spelled as Kubernetes allows them, the Secrets the workloads read, and the output
 * folder the manifests are written to.
 */

/** The folder of the output holding the manifests and their kustomization (`kubectl apply -k <out>/kubernetes`). */
export const MANIFESTS_DIR = 'kubernetes';
export const KUSTOMIZATION_FILE = 'kustomization.yaml';

/** How many pods a served agent's Deployment runs (kustomization.yaml's `replicas` changes it). */
export const DEFAULT_REPLICAS = 2;

/** The variable the Node host reads its A2A task store from (docs/hb3.md), and the Secret key holding it. */
export const TASK_STORE_ENV = 'AGENTDEF_TASK_STORE';
export const TASK_STORE_KEY = 'url';

/** Every secret binding of the tree, one key each (keys are the binding names). */
export function secretsSecretName(agentName: string): string {
  return dnsLabel(`${agentName}-secrets`);
}

/** The Secret holding the shared task store's connection string (key `url`). */
export function taskStoreSecretName(agentName: string): string {
  return dnsLabel(`${agentName}-task-store`);
}

/** The PersistentVolumeClaim holding the tuned checkpoints below `/weights` (mounted read-only). */
export function weightsClaimName(agentName: string): string {
  return dnsLabel(`${agentName}-weights`);
}

/** A DNS label (RFC 1123): lower case `[a-z0-9-]`, at most 63 characters, alphanumeric at both ends. */
export function dnsLabel(text: string): string {
  const name = text
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
  return (name || 'agent').slice(0, 63).replace(/-+$/, '');
}

/**
 * A Service's name: a DNS-1035 label (it also starts with a letter), so a job name that starts
 * with a digit (a slug may) gets an `a-` in front.
 */
export function serviceName(jobName: string): string {
  return /^[a-z]/.test(jobName) ? jobName : dnsLabel(`a-${jobName}`);
}

/** A label value: `[A-Za-z0-9_.-]`, at most 63 characters, alphanumeric at both ends (`1.2.0+b.7` → `1.2.0_b.7`). */
export function labelValue(text: string): string {
  return text
    .replace(/[^A-Za-z0-9_.-]/g, '_')
    .slice(0, 63)
    .replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '');
}

/** The labels every object carries: the agent's name and version, and who manages it. */
export function standardLabels(slug: string, version: string): Record<string, string> {
  return {
    'app.kubernetes.io/managed-by': 'agentdef',
    'app.kubernetes.io/name': labelValue(slug),
    'app.kubernetes.io/version': labelValue(version),
  };
}
