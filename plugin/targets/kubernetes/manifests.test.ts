/**
 * The Kubernetes adapter on every container-class example of the repository: each emitted object
 * validates against the official Kubernetes schemas (the `kubernetes-models` validators, a test
 * oracle only), the validator itself rejects a broken object, and what the objects say: the HB3
 * image contract alongside, probes on the card URL, secrets by reference, the task store from its
 * Secret, the egress ports and annotation, the steps' order; deterministic, no absolute path.
 */
import { homedir, tmpdir } from 'node:os';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { Service } from 'kubernetes-models/v1/Service';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { emitAgent } from '../../compiler/compile';
import { buildPlan } from '../../compiler/plan';
import { chooseRuntime } from '../../compiler/runtime-choice';
import { agent, tree } from '../../compiler/test-support';
import { EMPTY_WORKSPACE_CONFIG } from '../../compiler/workspace-config';
import type { EmittedFile } from '../target';
import { containerExamples, emitKubernetes, REPO } from './__test-support__/container-examples';

type K8sObject = Record<string, any>;

/** The official schema of each kind the adapter emits. */
const VALIDATORS: Record<string, (object: K8sObject) => void> = {
  'apps/v1/Deployment': (o) => new Deployment(o as never).validate(),
  'batch/v1/Job': (o) => new Job(o as never).validate(),
  'v1/Service': (o) => new Service(o as never).validate(),
  'networking.k8s.io/v1/NetworkPolicy': (o) => new NetworkPolicy(o as never).validate(),
};

function manifests(files: readonly EmittedFile[]): Map<string, K8sObject> {
  return new Map(
    files
      .filter((f) => f.path.startsWith('kubernetes/') && f.path !== 'kubernetes/kustomization.yaml')
      .map((f) => [f.path, parse(f.contents) as K8sObject]),
  );
}

const byKind = (objects: Map<string, K8sObject>, kind: string) => [...objects.values()].filter((o) => o.kind === kind);
const container = (workload: K8sObject) => workload.spec.template.spec.containers[0];

describe('the kubernetes adapter', () => {
  const examples = containerExamples();

  it('finds the container-class examples (container-required and workers-preferred)', () => {
    expect(examples.map((e) => e.slug)).toEqual(
      expect.arrayContaining(['pdf-extractor', 'splice-resolver', 'write-router', 'fallback-writer']),
    );
  });

  it('emits only objects that validate against the official Kubernetes schemas, for every container-class example', async () => {
    const kinds = new Set<string>();
    for (const { slug, file } of examples) {
      const files = await emitKubernetes(file);
      const objects = manifests(files);
      expect(objects.size, slug).toBeGreaterThanOrEqual(3);
      for (const [path, object] of objects) {
        const key = `${object.apiVersion}/${object.kind}`;
        const validate = VALIDATORS[key];
        expect(validate, `${slug}/${path}: ${key} has no validator`).toBeDefined();
        expect(() => validate!(object), `${slug}/${path}`).not.toThrow();
        kinds.add(object.kind);
      }
    }
    expect([...kinds].sort()).toEqual(['Deployment', 'Job', 'NetworkPolicy', 'Service']);
  });

  it('the validators reject a broken object (so the check above can fail)', async () => {
    const objects = manifests(await emitKubernetes('examples/write-router/agent.json'));
    const deployment = structuredClone(byKind(objects, 'Deployment')[0]!);
    deployment.spec.replicas = 'two';
    expect(() => VALIDATORS['apps/v1/Deployment']!(deployment)).toThrow();
    const unnamed = structuredClone(byKind(objects, 'Deployment')[0]!);
    delete container(unnamed).name;
    expect(() => VALIDATORS['apps/v1/Deployment']!(unnamed)).toThrow();
    const policy = structuredClone(byKind(objects, 'NetworkPolicy')[0]!);
    policy.spec.egress[1].ports[0].protocol = 7;
    expect(() => VALIDATORS['networking.k8s.io/v1/NetworkPolicy']!(policy)).toThrow();
  });

  it('a served agent: a Deployment of 2 replicas with card probes (liveness on /healthz), resources from its limits, secrets and the task store by reference, and its Service', async () => {
    const files = await emitKubernetes('examples/write-router/agent.json');
    const paths = files.map((f) => f.path);
    // The HB3 image contract, as the hb3 target writes it.
    expect(paths).toEqual(
      expect.arrayContaining(['hb3-job.json', 'hb3-workflow.json', 'image/Dockerfile', 'image/entrypoint.mjs']),
    );
    const objects = manifests(files);
    const [deployment] = byKind(objects, 'Deployment');
    const hb3 = JSON.parse(files.find((f) => f.path === 'hb3-job.json')!.contents);
    expect(deployment!.metadata.name).toBe('write-router');
    expect(deployment!.spec.replicas).toBe(2);
    expect(deployment!.metadata.labels).toMatchObject({
      'app.kubernetes.io/name': 'write-router',
      'app.kubernetes.io/version': '1.4.0',
      'app.kubernetes.io/managed-by': 'agentdef',
    });
    const agent = container(deployment!);
    expect(agent.image).toBe(`${hb3.image.name}:${hb3.image.tag}`);
    expect(agent.command).toEqual(hb3.command);
    for (const probe of ['startupProbe', 'readinessProbe'])
      expect(agent[probe].httpGet, probe).toEqual({
        path: '/.well-known/agent-card.json',
        port: 'http',
        httpHeaders: [{ name: 'Host', value: '127.0.0.1:8080' }],
      });
    // Liveness on the health route, which the busy limit never refuses: a busy replica is not restarted.
    expect(agent.livenessProbe.httpGet).toEqual({
      path: '/healthz',
      port: 'http',
      httpHeaders: [{ name: 'Host', value: '127.0.0.1:8080' }],
    });
    expect(agent.ports).toEqual([{ name: 'http', containerPort: 8080, protocol: 'TCP' }]);
    expect(agent.resources.limits.memory).toBe(`${hb3.resources.memoryMb}Mi`);
    const env = agent.env as K8sObject[];
    const secretNames = hb3.env.filter((e: K8sObject) => e.secretRef).map((e: K8sObject) => e.name);
    for (const name of secretNames) {
      const variable = env.find((e) => e.name === name)!;
      expect(variable.value, name).toBeUndefined();
      expect(variable.valueFrom.secretKeyRef).toMatchObject({ name: 'write-router-secrets', key: name });
    }
    expect(env.find((e) => e.name === 'AGENTDEF_TASK_STORE')!.valueFrom).toEqual({
      secretKeyRef: { name: 'write-router-task-store', key: 'url' },
    });
    const [service] = byKind(objects, 'Service');
    expect(service!.metadata.name).toBe('write-router');
    expect(service!.spec.selector).toEqual(deployment!.spec.selector.matchLabels);
    expect(deployment!.spec.template.metadata.labels).toMatchObject(service!.spec.selector);
  });

  it('a dag: one suspended Job per quarantined step, numbered in workflow order with its dependencies', async () => {
    const objects = manifests(await emitKubernetes('examples/write-router/agent.json'));
    const steps = byKind(objects, 'Job');
    expect(steps.map((j) => j.metadata.name)).toEqual([
      'write-router-01-splice-resolver-0-4-2',
      'write-router-02-fallback-writer-1-1-0',
    ]);
    expect(steps.map((j) => j.metadata.labels['agentdef.dev/step-order'])).toEqual(['01', '02']);
    expect(steps.every((j) => j.spec.suspend === true)).toBe(true);
    expect(JSON.parse(steps[1]!.metadata.annotations['agentdef.dev/depends-on'])).toEqual([
      {
        node: 'write-router@1.4.0/splice-resolver@0.4.2',
        job: 'write-router-01-splice-resolver-0-4-2',
        gate: 'conditional',
        condition: { pointer: '/refused', equals: true },
      },
    ]);
    expect(container(steps[0]!).command.slice(-2)).toEqual(['--child', 'write-router@1.4.0/splice-resolver@0.4.2']);
    expect(container(steps[0]!).resources.limits['nvidia.com/gpu']).toBe('1');
  });

  it('a batch agent: a Job (no Deployment) with its Service, no shared task store', async () => {
    const objects = manifests(await emitKubernetes('examples/pdf-extractor/agent.yaml'));
    expect(byKind(objects, 'Deployment')).toEqual([]);
    const [job] = byKind(objects, 'Job');
    expect(job!.metadata.name).toBe('pdf-extractor');
    expect(job!.spec.template.spec.restartPolicy).toBe('Never');
    expect(job!.spec.backoffLimit).toBe(0);
    expect(container(job!).env.map((e: K8sObject) => e.name)).not.toContain('AGENTDEF_TASK_STORE');
    const selector = byKind(objects, 'Service')[0]!.spec.selector;
    expect(selector).toEqual({ 'app.kubernetes.io/name': 'pdf-extractor', 'app.kubernetes.io/component': 'agent' });
    expect(job!.spec.template.metadata.labels).toMatchObject(selector);
  });

  it('the NetworkPolicy allows DNS, the ports of the allow-list and a served agent’s task-store database, and names the origins', async () => {
    const router = manifests(await emitKubernetes('examples/write-router/agent.json'));
    const [policy] = byKind(router, 'NetworkPolicy');
    expect(policy!.spec.policyTypes).toEqual(['Egress']);
    expect(policy!.spec.egress).toEqual([
      {
        ports: [
          { protocol: 'UDP', port: 53 },
          { protocol: 'TCP', port: 53 },
        ],
      },
      // 5432: the replicas' shared task store (PostgreSQL); the Deployment reads it from a Secret.
      {
        ports: [
          { protocol: 'TCP', port: 443 },
          { protocol: 'TCP', port: 5432 },
        ],
      },
    ]);
    expect(byKind(router, 'Deployment')).toHaveLength(1);
    expect(policy!.metadata.annotations['agentdef.dev/task-store-port']).toBe('5432');
    expect(policy!.metadata.annotations['agentdef.dev/egress-allow'].split(',')).toEqual(
      expect.arrayContaining(['https://api.anthropic.com', 'https://api.openai.com']),
    );
    // A tool-only agent that reaches nothing may reach nothing, DNS included.
    const [closed] = byKind(manifests(await emitKubernetes('examples/pdf-extractor/agent.yaml')), 'NetworkPolicy');
    expect(closed!.spec.egress).toEqual([]);
  });

  it('is deterministic and names no absolute path of this machine', async () => {
    const first = await emitKubernetes('examples/splice-resolver/agent.json');
    const second = await emitKubernetes('examples/splice-resolver/agent.json');
    expect(second).toEqual(first);
    for (const file of first.filter((f) => f.path.startsWith('kubernetes/'))) {
      expect(file.contents).not.toContain(REPO);
      expect(file.contents).not.toContain(homedir());
    }
  });

  it('names a Service of an agent whose slug starts with a digit as DNS-1035 wants (a letter first), and its pods advertise that name', async () => {
    const root = tree(agent('7-sorter', '1.0.0', { cls: 'container-required' }));
    const plan = buildPlan(root, chooseRuntime(root).choice!, 'kubernetes');
    const result = await emitAgent(
      { plan, resolved: root },
      { workspaceRoot: tmpdir(), workspace: EMPTY_WORKSPACE_CONFIG },
    );
    expect(result.diagnostics).toEqual([]);
    const objects = manifests(result.files!);
    for (const object of objects.values()) {
      VALIDATORS[`${object.apiVersion}/${object.kind}`]!(object);
      expect(object.metadata.name).toMatch(/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/);
    }
    const [service] = byKind(objects, 'Service');
    expect(service!.metadata.name).toBe('a-7-sorter');
    const [workload] = [...byKind(objects, 'Job'), ...byKind(objects, 'Deployment')];
    expect(workload!.metadata.name).toBe('7-sorter');
    expect(container(workload!).env).toContainEqual({
      name: 'AGENTDEF_PUBLIC_ORIGIN',
      value: 'http://a-7-sorter:8080',
    });
  });
});
