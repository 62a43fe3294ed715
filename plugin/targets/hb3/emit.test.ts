/**
 * The HB3 adapter on the repository's examples (with the workspace's tools.json and mcp.json):
 * what each job says, the workflow of a dag, determinism, and no absolute path in any output.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { emitAgent, planAgent } from '../../compiler/compile';
import type { EmittedFile } from '../target';
import { loadWorkspaceConfig } from '../../compiler/workspace-config';
import type { Hb3Job } from '../../host-contract/hb3-job';
import type { Hb3Workflow } from './workflow-spec';

const REPO = join(__dirname, '..', '..', '..');
const temps: string[] = [];
afterAll(() => temps.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function emit(
  slug: string,
  workspaceRoot = REPO,
): Promise<{ files: Record<string, string>; list: EmittedFile[]; digest: string }> {
  const file = join(workspaceRoot, 'examples', slug, slug === 'pdf-extractor' ? 'agent.yaml' : 'agent.json');
  const planned = await planAgent({ file, workspaceRoot, target: 'hb3' });
  const result = await emitAgent(
    { plan: planned.plan!, resolved: planned.resolved! },
    { workspaceRoot, workspace: loadWorkspaceConfig(workspaceRoot).config },
  );
  if (!result.files) throw new Error(JSON.stringify(result.diagnostics));
  return {
    files: Object.fromEntries(result.files.map((f) => [f.path, f.contents])),
    list: result.files,
    digest: planned.plan!.digest,
  };
}
const json = <T>(text: string | undefined) => JSON.parse(text!) as T;

describe('the hb3 adapter', () => {
  it('emits the tuned specialist as a Job with a GPU, its checkpoint mounted read-only, a weights lock and its native tool', async () => {
    const { files, digest } = await emit('splice-resolver');
    expect(Object.keys(files)).toEqual([
      'hb3-job.json',
      'image/Dockerfile',
      'image/entrypoint.mjs',
      'image/native-tools/README.md',
      'plan.json',
      'runtime-configs.json',
      'weights.lock.json',
    ]);
    const job = json<Hb3Job>(files['hb3-job.json']);
    expect(job.kind).toBe('Job');
    expect(job.command).toEqual(['node', '--max-old-space-size=6144', '/app/entrypoint.mjs']);
    expect(job.resources).toEqual({
      cpu: 2,
      memoryMb: 8192,
      heapMb: 6144,
      gpu: { count: 1, reason: 'tuned checkpoint ckpt:acme/splice-resolver/2026-10-02 of splice-resolver@0.4.2' },
    });
    expect(job.mounts[0]).toEqual({
      name: 'weights-0',
      mountPath: '/weights/acme/splice-resolver/2026-10-02',
      readOnly: true,
      source: { kind: 'checkpoint', checkpointId: 'ckpt:acme/splice-resolver/2026-10-02', lock: 'weights.lock.json' },
    });
    expect(job.inference).toEqual({
      protocol: 'openai-chat',
      baseUrl: 'http://127.0.0.1:8000/v1',
      checkpoints: ['ckpt:acme/splice-resolver/2026-10-02'],
    });
    expect(job.nativeTools).toEqual([
      { toolId: 'ts-splice', binary: 'parse_spans', path: '/opt/agentdef/tools/parse_spans' },
    ]);
    expect(job.timeouts).toEqual({
      runMs: 20000,
      killAfterMs: 22000,
      startupMs: 30000,
      terminationGraceMs: 10000,
      activeDeadlineMs: 52000,
    });
    expect(job.healthCheck?.http).toEqual({ path: '/healthz', port: 8080 });
    expect(job.receipts).toMatchObject({
      mode: 'signed',
      format: 'jsonl',
      keySecret: 'AGENTDEF_RECEIPT_KEY',
      signer: 'keyref:acme-agents',
    });
    expect(job.env.filter((e) => 'secretRef' in e)).toEqual([
      { name: 'AGENTDEF_RECEIPT_KEY', secretRef: { name: 'AGENTDEF_RECEIPT_KEY' } },
      { name: 'AGENTDEF_CARD_SIGNING_KEY', secretRef: { name: 'AGENTDEF_CARD_SIGNING_KEY', optional: true } },
    ]);
    expect(job.image.tag).toBe(`0.4.2-${digest.slice(0, 12)}`);
    const lock = json<{ checkpoints: unknown[] }>(files['weights.lock.json']);
    expect(lock.checkpoints).toEqual([
      expect.objectContaining({
        checkpointId: 'ckpt:acme/splice-resolver/2026-10-02',
        mountPath: '/weights/acme/splice-resolver/2026-10-02',
        readOnly: true,
        source: {
          kind: 'r2',
          binding: 'CHECKPOINTS',
          bucket: 'acme-checkpoints',
          key: 'acme/splice-resolver/2026-10-02',
        },
        digest: null,
      }),
    ]);
    expect(files['image/Dockerfile']).toContain('COPY native-tools/ /opt/agentdef/tools/');
    expect(files['image/Dockerfile']).toContain('CMD ["node","--max-old-space-size=6144","/app/entrypoint.mjs"]');
  });

  it('gives a tool without weights no GPU, no inference server and no lock', async () => {
    const { files } = await emit('pdf-extractor');
    const job = json<Hb3Job>(files['hb3-job.json']);
    expect(job.resources.gpu).toBeNull();
    expect(job.inference).toBeNull();
    expect(files['weights.lock.json']).toBeUndefined();
    expect(job.timeouts.runMs).toBe(60000);
  });

  it('compiles the router to a workflow whose steps are its nodes and whose dependencies are its edges, each quarantined child its own job', async () => {
    const { files } = await emit('write-router');
    const workflow = json<Hb3Workflow>(files['hb3-workflow.json']);
    const root = 'write-router@1.4.0';
    expect(workflow.driver).toEqual({ node: root, job: 'hb3-job.json' });
    expect(workflow.steps.map((s) => [s.agent, s.isolation, s.job, s.dependsOn])).toEqual([
      ['splice-resolver@0.4.2', 'job', 'jobs/splice-resolver-0.4.2.hb3-job.json', []],
      [
        'fallback-writer@1.1.0',
        'job',
        'jobs/fallback-writer-1.1.0.hb3-job.json',
        [
          {
            step: `${root}/splice-resolver@0.4.2`,
            gate: 'conditional',
            condition: { pointer: '/refused', equals: true },
          },
        ],
      ],
    ]);
    const rootJob = json<Hb3Job>(files['hb3-job.json']);
    expect(rootJob.kind).toBe('Service');
    expect(rootJob.resources.gpu).toBeNull();
    expect(rootJob.env.filter((e) => 'secretRef' in e).map((e) => e.name)).toEqual([
      'AGENTDEF_RECEIPT_KEY',
      'ANTHROPIC_API_KEY',
      'OPENAI_API_KEY',
      'AGENTDEF_CARD_SIGNING_KEY',
    ]);
    const child = json<Hb3Job>(files['jobs/splice-resolver-0.4.2.hb3-job.json']);
    expect(child).toMatchObject({
      kind: 'Job',
      interface: { kind: 'child-stdio' },
      healthCheck: null,
      restartPolicy: 'Never',
      metadata: { name: 'write-router-splice-resolver-0-4-2', node: `${root}/splice-resolver@0.4.2` },
    });
    expect(child.command).toEqual([
      'node',
      '--max-old-space-size=6144',
      '/app/entrypoint.mjs',
      '--child',
      `${root}/splice-resolver@0.4.2`,
    ]);
    expect(child.resources.gpu?.count).toBe(1);
    // A child serves no card: no card signing key.
    expect(child.env.filter((e) => 'secretRef' in e).map((e) => e.name)).toEqual(['AGENTDEF_RECEIPT_KEY']);
  });

  it('emits the same bytes twice, with no absolute path of this machine in any file', async () => {
    const first = await emit('write-router');
    const second = await emit('write-router');
    expect(second.list).toEqual(first.list);
    for (const [path, contents] of Object.entries(first.files)) {
      for (const local of [REPO, `${tmpdir()}/`, `${homedir()}/`])
        expect(contents.includes(local), `${path} contains ${local}`).toBe(false);
    }
  });

  it('bundles the tools of tools.json, and reports a tool module that cannot be bundled in tools.json', async () => {
    const { files } = await emit('write-router');
    expect(files['image/entrypoint.mjs']).toContain('the sandbox holds at most');
    const ws = mkdtempSync(join(tmpdir(), 'agentdef-hb3-'));
    temps.push(ws);
    writeFileSync(join(ws, 'nx.json'), '{}');
    cpSync(join(REPO, 'examples'), join(ws, 'examples'), { recursive: true });
    writeFileSync(
      join(ws, 'tools.json'),
      JSON.stringify(
        {
          tools: {
            'fs-write': { module: './examples/tools/fs-write.ts', export: 'noSuchExport' },
            'diff-apply': { module: './examples/tools/diff-apply.ts', export: 'applyUnifiedDiff' },
          },
        },
        null,
        2,
      ),
    );
    const file = join(ws, 'examples/write-router/agent.json');
    const planned = await planAgent({ file, workspaceRoot: ws });
    const result = await emitAgent(
      { plan: planned.plan!, resolved: planned.resolved! },
      { workspaceRoot: ws, workspace: loadWorkspaceConfig(ws).config },
    );
    expect(result.files).toBeUndefined();
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'error',
        file: 'tools.json',
        line: 3,
        path: '/tools/fs-write',
        message: expect.stringContaining('cannot bundle tool "fs-write" from ./examples/tools/fs-write.ts'),
      }),
    ]);
  });
});
