/**
 * Deploying a Kubernetes output: the `kubectl create secret generic` lines for the Secrets the
 * manifests read (names and keys only: each value comes from your environment, never through
 * agentdef), the image the cluster must pull and the command that builds it (docker, else podman:
 * the engine on PATH), and `kubectl apply -k <out>/kubernetes`. Without
 * `--dry-run` it runs the apply with the kubectl on PATH, after checking kubectl has a cluster to
 * talk to (a current context): without one it says so and exits 1.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { CARD_SIGNING_KEY_SECRET, TASK_STORE_BUILD_ARG } from '../../host-contract/container-contract';
import { IMAGE_DIR } from '../../host-contract/output-files';
import { findContainerEngine, findOnPath } from '../../deploy/container-engine';
import { DEPLOY_EXIT, type DeployOptions } from '../../deploy/deploy-options';
import { displayPath, shellLine } from '../../deploy/display-path';
import { runTool } from '../../deploy/run-tool';
import { KUSTOMIZATION_FILE, MANIFESTS_DIR, TASK_STORE_ENV, TASK_STORE_KEY } from './names';

export interface SecretToCreate {
  name: string;
  /** Keys every pod needs, sorted. */
  keys: string[];
  /** Keys the pods start without, sorted. */
  optionalKeys: string[];
}

export interface KubernetesDeployPlan {
  /** The kustomization's folder (absolute). */
  manifestsDir: string;
  /** `name:tag` of the image the manifests run. */
  image: string;
  secrets: SecretToCreate[];
  /** The pods keep their A2A tasks in PostgreSQL (`AGENTDEF_TASK_STORE` from a Secret): the image needs its driver. */
  taskStore: boolean;
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Every `secretKeyRef` below `value`. */
function secretKeyRefs(value: unknown, out: { name: string; key: string; optional: boolean }[] = []) {
  if (Array.isArray(value)) for (const item of value) secretKeyRefs(item, out);
  else if (isRecord(value)) {
    const ref = value['secretKeyRef'];
    if (isRecord(ref) && typeof ref['name'] === 'string' && typeof ref['key'] === 'string')
      out.push({ name: ref['name'], key: ref['key'], optional: ref['optional'] === true });
    for (const item of Object.values(value)) secretKeyRefs(item, out);
  }
  return out;
}

export function readKubernetesDeployPlan(outDir: string): KubernetesDeployPlan | { error: string } {
  const manifestsDir = join(outDir, MANIFESTS_DIR);
  const read = (file: string): unknown => parse(readFileSync(join(manifestsDir, file), 'utf8'));
  let kustomization: unknown;
  try {
    kustomization = read(KUSTOMIZATION_FILE);
  } catch (error) {
    return {
      error: `cannot read ${MANIFESTS_DIR}/${KUSTOMIZATION_FILE}: ${(error as Error).message}; compile the agent again`,
    };
  }
  const resources = isRecord(kustomization) ? kustomization['resources'] : undefined;
  const image =
    isRecord(kustomization) && Array.isArray(kustomization['images']) ? kustomization['images'][0] : undefined;
  if (
    !Array.isArray(resources) ||
    !resources.every((r) => typeof r === 'string' && !r.startsWith('/') && !r.split('/').includes('..')) ||
    !isRecord(image) ||
    typeof image['name'] !== 'string' ||
    typeof image['newTag'] !== 'string'
  )
    return { error: `${MANIFESTS_DIR}/${KUSTOMIZATION_FILE} is not one agentdef wrote; compile the agent again` };
  const refs: ReturnType<typeof secretKeyRefs> = [];
  for (const file of resources as string[]) {
    try {
      secretKeyRefs(read(file), refs);
    } catch (error) {
      return { error: `cannot read ${MANIFESTS_DIR}/${file}: ${(error as Error).message}; compile the agent again` };
    }
  }
  // What the printed lines quote: a DNS name and a variable name each, nothing a shell would read otherwise.
  const odd = refs.find(
    (r) => !/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/.test(r.name) || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(r.key),
  );
  if (odd !== undefined)
    return { error: `${MANIFESTS_DIR} names a Secret or key agentdef does not write; compile the agent again` };
  const names = [...new Set(refs.map((r) => r.name))].sort();
  const secrets = names.map((name) => {
    const mine = refs.filter((r) => r.name === name);
    const keys = new Set(mine.filter((r) => !r.optional).map((r) => r.key));
    const optionalKeys = new Set(mine.filter((r) => r.optional && !keys.has(r.key)).map((r) => r.key));
    return { name, keys: [...keys].sort(), optionalKeys: [...optionalKeys].sort() };
  });
  const taskStore = refs.some((r) => r.key === TASK_STORE_KEY);
  return { manifestsDir, image: `${image['name']}:${image['newTag']}`, secrets, taskStore };
}

/** The variable a key's value is read from in the printed command: the key itself, the task store's `AGENTDEF_TASK_STORE`. */
function variableOf(key: string): string {
  return key === TASK_STORE_KEY ? TASK_STORE_ENV : key;
}

const literal = (key: string) => `--from-literal=${key}="$${variableOf(key)}"`;

/** `kubectl create secret generic <name> --from-literal=KEY="$KEY" …`: names and keys only. */
export function createSecretLine(secret: SecretToCreate): string {
  return [`kubectl create secret generic ${secret.name}`, ...secret.keys.map(literal)].join(' ');
}

export async function deployKubernetes(options: DeployOptions): Promise<number> {
  const env = options.env ?? process.env;
  const plan = readKubernetesDeployPlan(options.outDir);
  if ('error' in plan) {
    options.stderr(`error: ${plan.error}\n`);
    return DEPLOY_EXIT.usage;
  }
  const show = (path: string) => displayPath(path, options.workspaceRoot);
  const apply = ['kubectl', 'apply', '-k', plan.manifestsDir];
  const shownApply = shellLine(apply.map((word) => (word === plan.manifestsDir ? show(word) : word)));
  const engine = findContainerEngine(env)?.name ?? 'docker';
  const context = join(options.outDir, IMAGE_DIR);
  // Replicas sharing their tasks in PostgreSQL: the image installs the driver (hb3.md).
  const buildArgs = plan.taskStore ? ['--build-arg', `${TASK_STORE_BUILD_ARG}=postgres`] : [];
  const build = shellLine([
    engine,
    'build',
    ...buildArgs,
    '-t',
    plan.image,
    '-f',
    show(join(context, 'Dockerfile')),
    show(context),
  ]);
  const lines = [
    `Kubernetes manifests from ${show(plan.manifestsDir)}`,
    `image ${plan.image}: build it, push it where the cluster pulls from, and point images[].newName of ${show(join(plan.manifestsDir, KUSTOMIZATION_FILE))} at the pushed name:`,
    `  ${build}`,
  ];
  const required = plan.secrets.filter((s) => s.keys.length > 0);
  if (required.length > 0) {
    lines.push('secrets to create first (names and keys only; each value from your environment):');
    for (const secret of required) lines.push(`  ${createSecretLine(secret)}`);
  } else lines.push('secrets: none');
  for (const secret of plan.secrets)
    for (const key of secret.optionalKeys)
      lines.push(
        `optional key of ${secret.name} (the pods start without it): ${key}${key === CARD_SIGNING_KEY_SECRET ? ' signs the served AgentCard' : ''}; add ${literal(key)}`,
      );
  lines.push('command (run from the workspace root):', `  ${shownApply}`);
  options.stdout(`${lines.join('\n')}\n`);
  if (options.dryRun) {
    options.stdout('dry run: nothing was applied\n');
    return DEPLOY_EXIT.ok;
  }
  const kubectl = findOnPath(['kubectl'], env);
  if (!kubectl) {
    options.stderr('error: kubectl is not on PATH: install it, or run the command above where it is\n');
    return DEPLOY_EXIT.failed;
  }
  const tool = (args: string[], stdout: (text: string) => void) =>
    runTool({
      command: kubectl.path,
      args,
      cwd: options.workspaceRoot,
      env,
      interactive: false,
      stdout,
      stderr: options.stderr,
    });
  if ((await tool(['config', 'current-context'], () => {})) !== 0) {
    options.stderr(
      'error: kubectl has no cluster to apply to (no current context in its kubeconfig, KUBECONFIG or ~/.kube/config): choose one with kubectl config use-context <name>, then deploy again; nothing was applied\n',
    );
    return DEPLOY_EXIT.failed;
  }
  options.stdout(`running: ${shownApply}\n`);
  const code = await tool(apply.slice(1), options.stdout);
  if (code !== 0) {
    options.stderr(
      `error: kubectl apply failed (exit code ${code}): check that the cluster is reachable (kubectl cluster-info) and try again\n`,
    );
    return DEPLOY_EXIT.failed;
  }
  options.stdout('applied; the pods start once the secrets above exist and the image can be pulled\n');
  return DEPLOY_EXIT.ok;
}
