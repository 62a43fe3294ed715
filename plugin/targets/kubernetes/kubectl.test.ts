/**
 * Kubernetes outputs written by a real compile, through the real kubectl (offline, no cluster):
 * `kubectl kustomize` builds every container-class example's manifests into the expected kinds,
 * and `agentdef deploy` prints the apply line and the Secrets to create (names and keys only),
 * refuses what this target cannot do, and fails clearly when kubectl has no cluster to reach.
 * kubectl must be on PATH (it is here and in CI): without it these tests fail, saying so.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { compileAgent } from '../../compiler/compile';
import { findOnPath } from '../../deploy/container-engine';
import { deployOutput } from '../../deploy/deploy-output';
import type { DeployOptions } from '../../deploy/deploy-options';
import { containerExamples, REPO } from './__test-support__/container-examples';

let root: string;
let scratch: string;
const kubectl = findOnPath(['kubectl'], process.env);
const examples = containerExamples();

/** kubectl's own state (its cache, its config) stays in the test's folder. */
function kubectlEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env['PATH'],
    HOME: join(scratch, 'home'),
    KUBECACHEDIR: join(scratch, 'kube-cache'),
    KUBECONFIG: join(scratch, 'empty-kubeconfig'),
    ...extra,
  };
}

beforeAll(async () => {
  if (!kubectl)
    throw new Error('kubectl is not on PATH: these tests run the real kubectl (install it, then run again)');
  root = mkdtempSync(join(tmpdir(), 'agentdef-k8s-ws-'));
  scratch = mkdtempSync(join(tmpdir(), 'agentdef-k8s-scratch-'));
  mkdirSync(join(scratch, 'home'));
  writeFileSync(join(scratch, 'empty-kubeconfig'), '');
  writeFileSync(join(root, 'nx.json'), '{}\n');
  cpSync(join(REPO, 'examples'), join(root, 'examples'), { recursive: true });
  for (const file of ['tools.json', 'mcp.json']) cpSync(join(REPO, file), join(root, file));
  for (const { slug, file } of examples) {
    const compiled = await compileAgent({ file: join(root, file), workspaceRoot: root, target: 'kubernetes' });
    expect(compiled.ioError, slug).toBeUndefined();
    expect(
      compiled.diagnostics.filter((d) => d.severity === 'error'),
      slug,
    ).toEqual([]);
    expect(compiled.outDir).toBe(`dist/agents/${slug}`);
  }
});
afterAll(() => {
  for (const dir of [root, scratch]) if (dir) rmSync(dir, { recursive: true, force: true });
});

async function deploy(slug: string, options: Partial<DeployOptions> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await deployOutput({
    outDir: join(root, 'dist', 'agents', slug),
    workspaceRoot: root,
    dryRun: false,
    env: kubectlEnv(),
    ...options,
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { code, stdout, stderr };
}

describe('kubectl kustomize on the output', () => {
  it('builds every container-class example into its Deployment or Job, Service, NetworkPolicy (and step Jobs), labelled', () => {
    for (const { slug } of examples) {
      const run = spawnSync(kubectl!.path, ['kustomize', join(root, 'dist', 'agents', slug, 'kubernetes')], {
        env: kubectlEnv(),
        encoding: 'utf8',
      });
      expect(run.stderr, slug).toBe('');
      expect(run.status, slug).toBe(0);
      const objects = parseAllDocuments(run.stdout).map((d) => d.toJS() as Record<string, any>);
      const kinds = objects.map((o) => o.kind).sort();
      expect(kinds, slug).toContain('Service');
      expect(kinds, slug).toContain('NetworkPolicy');
      expect(kinds.filter((k) => k === 'Deployment' || k === 'Job').length, slug).toBeGreaterThanOrEqual(1);
      for (const object of objects)
        expect(object.metadata.labels, `${slug} ${object.kind}`).toMatchObject({
          'app.kubernetes.io/managed-by': 'agentdef',
          'app.kubernetes.io/name': slug,
        });
    }
    const router = spawnSync(kubectl!.path, ['kustomize', join(root, 'dist', 'agents', 'write-router', 'kubernetes')], {
      env: kubectlEnv(),
      encoding: 'utf8',
    });
    const objects = parseAllDocuments(router.stdout).map((d) => d.toJS() as Record<string, any>);
    expect(objects.map((o) => `${o.kind}/${o.metadata.name}`).sort()).toEqual([
      'Deployment/write-router',
      'Job/write-router-01-splice-resolver-0-4-2',
      'Job/write-router-02-fallback-writer-1-1-0',
      'NetworkPolicy/write-router-egress',
      'Service/write-router',
    ]);
    expect(objects.find((o) => o.kind === 'Deployment')!.spec.replicas).toBe(2);
  });
});

describe('agentdef deploy of a kubernetes output', () => {
  it('--dry-run prints the Secrets to create (names and keys only) and the kubectl apply -k line, and applies nothing', async () => {
    const result = await deploy('write-router', {
      dryRun: true,
      env: kubectlEnv({ OPENAI_API_KEY: 'sk-never-printed-1234' }),
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^ {2}(docker|podman) build --build-arg TASK_STORE=postgres -t agentdef\/write-router:1\.4\.0-[0-9a-f]{12} -f dist\/agents\/write-router\/image\/Dockerfile dist\/agents\/write-router\/image$/m,
    );
    expect(result.stdout).toContain(
      '  kubectl create secret generic write-router-secrets --from-literal=AGENTDEF_RECEIPT_KEY="$AGENTDEF_RECEIPT_KEY" --from-literal=ANTHROPIC_API_KEY="$ANTHROPIC_API_KEY" --from-literal=OPENAI_API_KEY="$OPENAI_API_KEY"\n',
    );
    expect(result.stdout).toContain(
      '  kubectl create secret generic write-router-task-store --from-literal=url="$AGENTDEF_TASK_STORE"\n',
    );
    expect(result.stdout).toContain(
      'optional key of write-router-secrets (the pods start without it): AGENTDEF_CARD_SIGNING_KEY signs the served AgentCard',
    );
    expect(result.stdout).toContain(
      'command (run from the workspace root):\n  kubectl apply -k dist/agents/write-router/kubernetes\n',
    );
    expect(result.stdout).toContain('dry run: nothing was applied');
    expect(result.stdout + result.stderr).not.toContain('sk-never-printed-1234');
    expect(result.stdout + result.stderr).not.toContain(root);
  });

  it('without --dry-run, a kubectl with no cluster configured (an empty KUBECONFIG) fails clearly, exit 1', async () => {
    const result = await deploy('pdf-extractor');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'error: kubectl has no cluster to apply to (no current context in its kubeconfig, KUBECONFIG or ~/.kube/config): choose one with kubectl config use-context <name>, then deploy again; nothing was applied',
    );
    expect(result.stdout).not.toContain('running: kubectl apply');
  });

  it('without --dry-run, a cluster that cannot be reached fails clearly after kubectl apply, exit 1', async () => {
    const config = join(scratch, 'closed-kubeconfig');
    writeFileSync(
      config,
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters: [{name: closed, cluster: {server: "https://127.0.0.1:9"}}]',
        'users: [{name: nobody, user: {}}]',
        'contexts: [{name: closed, context: {cluster: closed, user: nobody}}]',
        'current-context: closed',
        '',
      ].join('\n'),
    );
    const result = await deploy('pdf-extractor', { env: kubectlEnv({ KUBECONFIG: config }) });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('running: kubectl apply -k dist/agents/pdf-extractor/kubernetes');
    expect(result.stderr).toMatch(/error: kubectl apply failed \(exit code \d+\): check that the cluster is reachable/);
  });

  it('without kubectl on PATH, says so and exits 1', async () => {
    const result = await deploy('pdf-extractor', { env: kubectlEnv({ PATH: join(scratch, 'no-tools') }) });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('error: kubectl is not on PATH: install it, or run the command above where it is\n');
  });

  it('refuses an output whose manifests name a Secret key that is no variable name (a tampered folder), printing none of it', async () => {
    const copy = join(root, 'dist', 'agents', 'tampered');
    cpSync(join(root, 'dist', 'agents', 'pdf-extractor'), copy, { recursive: true });
    const job = join(copy, 'kubernetes', 'job.yaml');
    writeFileSync(job, readFileSync(job, 'utf8').replace('key: AGENTDEF_RECEIPT_KEY', 'key: "X$(rm -rf ~)"'));
    const result = await deploy('tampered', { dryRun: true });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'error: kubernetes names a Secret or key agentdef does not write; compile the agent again\n',
    );
    expect(result.stdout).toBe('');
    rmSync(copy, { recursive: true, force: true });
  });

  it('refuses the options it does not take: --registry, and an unregistered deploy (it could not mark the card)', async () => {
    const registry = await deploy('pdf-extractor', { dryRun: true, registry: 'ghcr.io/acme' });
    expect(registry.code).toBe(2);
    expect(registry.stderr).toContain('error: --registry is for hb3 outputs');
    const unregistered = await deploy('pdf-extractor', { dryRun: true, unregistered: true });
    expect(unregistered.code).toBe(2);
    expect(unregistered.stderr).toContain('error: --allow-unregistered is for');
    expect(unregistered.stderr).toContain('is a kubernetes output');
  });
});
