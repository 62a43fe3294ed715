/**
 * Every example whose plan allows a container compiles for hb3, and each `hb3-job.json` (the
 * root's and every quarantined child's) and `hb3-workflow.json` validates against the published
 * schemas (Ajv, JSON Schema 2020-12, strict). The schemas also reject what the contract forbids.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planAgent } from '../../plugin/compiler/compile';
import { REPO, compileExample, scratch, type Scratch } from '../local/support/host-harness';

const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
const schema = (name: string) => JSON.parse(readFileSync(join(REPO, 'plugin/schema', name), 'utf8')) as object;
const validateJob = ajv.compile(schema('hb3-job.v1.schema.json'));
const validateWorkflow = ajv.compile(schema('hb3-workflow.v1.schema.json'));

const examples = readdirSync(join(REPO, 'examples'), { withFileTypes: true })
  .filter(
    (d) => d.isDirectory() && readdirSync(join(REPO, 'examples', d.name)).some((f) => /^agent\.(json|ya?ml)$/.test(f)),
  )
  .map((d) => d.name)
  .sort();
let tmp: Scratch;
const compiled: string[] = [];
beforeAll(async () => {
  tmp = scratch('hb3-schemas');
  for (const slug of examples) {
    const file = join(
      REPO,
      'examples',
      slug,
      readdirSync(join(REPO, 'examples', slug)).find((f) => f.startsWith('agent.'))!,
    );
    const planned = await planAgent({ file, workspaceRoot: REPO, target: 'hb3' });
    if (!planned.plan) continue; // the plan does not allow a container (runtime_capability_mismatch)
    await compileExample(file, 'hb3', tmp.path(slug));
    compiled.push(slug);
  }
});
afterAll(() => tmp.cleanup());

describe('the published HB3 schemas', () => {
  it('cover every example whose plan allows a container', () => {
    expect(compiled).toEqual(
      expect.arrayContaining(['edit-assistant', 'fallback-writer', 'pdf-extractor', 'splice-resolver', 'write-router']),
    );
    expect(compiled).not.toContain('code-search');
  });

  it('accept every job and workflow the adapter emitted', () => {
    let jobs = 0;
    let workflows = 0;
    for (const slug of compiled) {
      const out = tmp.path(slug);
      const files = [
        'hb3-job.json',
        ...(readdirSync(out).includes('jobs') ? readdirSync(join(out, 'jobs')).map((f) => `jobs/${f}`) : []),
      ];
      for (const file of files) {
        expect(
          validateJob(JSON.parse(readFileSync(join(out, file), 'utf8'))),
          `${slug}/${file}: ${JSON.stringify(validateJob.errors)}`,
        ).toBe(true);
        jobs++;
      }
      if (readdirSync(out).includes('hb3-workflow.json')) {
        expect(
          validateWorkflow(JSON.parse(readFileSync(join(out, 'hb3-workflow.json'), 'utf8'))),
          `${slug}: ${JSON.stringify(validateWorkflow.errors)}`,
        ).toBe(true);
        workflows++;
      }
    }
    expect(jobs).toBeGreaterThanOrEqual(10);
    expect(workflows).toBe(2);
  });

  it('reject a secret given by value, a writable checkpoint, a Job that restarts forever and a step without its job', () => {
    const job = JSON.parse(readFileSync(tmp.path('splice-resolver', 'hb3-job.json'), 'utf8'));
    const broken = (mutate: (j: any) => void) => {
      const copy = structuredClone(job);
      mutate(copy);
      return validateJob(copy);
    };
    expect(broken(() => undefined)).toBe(true);
    expect(
      broken((j) => j.env.push({ name: 'OPENAI_API_KEY', value: 'sk-x', secretRef: { name: 'OPENAI_API_KEY' } })),
    ).toBe(false);
    expect(broken((j) => (j.mounts[0].readOnly = false))).toBe(false);
    expect(broken((j) => (j.restartPolicy = 'Always'))).toBe(false);
    expect(broken((j) => delete j.timeouts.activeDeadlineMs)).toBe(false);
    expect(broken((j) => (j.healthCheck = null))).toBe(false);
    const workflow = JSON.parse(readFileSync(tmp.path('write-router', 'hb3-workflow.json'), 'utf8'));
    delete workflow.steps[0].job;
    expect(validateWorkflow(workflow)).toBe(false);
  });
});
