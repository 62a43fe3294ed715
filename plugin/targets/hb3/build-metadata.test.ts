/**
 * Versions with build metadata (`1.4.0+build.7`) and pre-releases compile for hb3 into jobs,
 * child jobs and a workflow that the project's own published schemas accept (Ajv 2020, strict),
 * with a valid image tag (the mapping of image-tag.ts), and the Dockerfile names that tag.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { emitAgent, planAgent } from '../../compiler/compile';
import { loadWorkspaceConfig } from '../../compiler/workspace-config';
import { isExactSemver } from '../../definition/workspace-definitions';
import { imageTag, MAX_TAG_LENGTH, versionForTag } from './image-tag';

const REPO = join(__dirname, '..', '..', '..');
const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
const schema = (name: string) =>
  JSON.parse(readFileSync(join(REPO, 'plugin/schema', name), 'utf8')) as {
    properties: { image: { properties: { tag: { pattern: string } } } };
  };
const validateJob = ajv.compile(schema('hb3-job.v1.schema.json'));
const validateWorkflow = ajv.compile(schema('hb3-workflow.v1.schema.json'));
const TAG = new RegExp(schema('hb3-job.v1.schema.json').properties.image.properties.tag.pattern);

const temps: string[] = [];
afterAll(() => temps.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A copy of the examples workspace where write-router and its quarantined child carry the given versions. */
function workspaceWithVersions(root: string, child: string): string {
  const ws = mkdtempSync(join(tmpdir(), 'agentdef-hb3-version-'));
  temps.push(ws);
  cpSync(join(REPO, 'examples'), join(ws, 'examples'), { recursive: true });
  for (const f of ['tools.json', 'mcp.json']) cpSync(join(REPO, f), join(ws, f));
  writeFileSync(join(ws, 'nx.json'), '{}\n');
  const edit = (slug: string, change: (d: Record<string, any>) => void) => {
    const path = join(ws, 'examples', slug, 'agent.json');
    const definition = JSON.parse(readFileSync(path, 'utf8'));
    change(definition);
    writeFileSync(path, JSON.stringify(definition, null, 2));
  };
  edit('splice-resolver', (d) => {
    d.identity.versionSemver = child;
    if (d.identity.kymRef !== undefined) d.identity.kymRef = `kym://agents/splice-resolver@${child}`;
  });
  edit('write-router', (d) => {
    d.identity.versionSemver = root;
    if (d.identity.kymRef !== undefined) d.identity.kymRef = `kym://agents/write-router@${root}`;
    d.composition.nodes = d.composition.nodes.map((n: { slug: string; version: string }) =>
      n.slug === 'splice-resolver' ? { ...n, version: child } : n,
    );
  });
  return ws;
}

describe('hb3 output for versions with build metadata', () => {
  it.each([
    ['1.4.0+build.7', '0.4.2+sha.5114f85'],
    ['1.4.0-rc.1+exp.sha.5114f85', '0.4.2-alpha-1+001'],
  ])(
    'root %s, child %s: every job and the workflow validate; the tag is OCI-valid',
    async (rootVersion, childVersion) => {
      const ws = workspaceWithVersions(rootVersion, childVersion);
      const planned = await planAgent({
        file: join(ws, 'examples/write-router/agent.json'),
        workspaceRoot: ws,
        target: 'hb3',
      });
      expect(planned.ioError).toBeUndefined();
      expect(planned.plan, JSON.stringify(planned.diagnostics)).toBeDefined();
      const emitted = await emitAgent(
        { plan: planned.plan!, resolved: planned.resolved! },
        { workspaceRoot: ws, workspace: loadWorkspaceConfig(ws).config },
      );
      expect(emitted.diagnostics).toEqual([]);
      const files = Object.fromEntries(emitted.files!.map((f) => [f.path, f.contents]));
      const jobs = Object.keys(files).filter((p) => p.endsWith('hb3-job.json'));
      expect(jobs.length).toBeGreaterThanOrEqual(2); // the root and the quarantined splice-resolver
      for (const path of jobs) {
        const job = JSON.parse(files[path]!);
        expect(validateJob(job), `${path}: ${JSON.stringify(validateJob.errors)}`).toBe(true);
        expect(job.image.tag).toBe(`${versionForTag(rootVersion)}-${planned.plan!.digest.slice(0, 12)}`);
        expect(job.image.tag).not.toContain('+');
      }
      const workflow = JSON.parse(files['hb3-workflow.json']!);
      expect(validateWorkflow(workflow), JSON.stringify(validateWorkflow.errors)).toBe(true);
      const tag = JSON.parse(files['hb3-job.json']!).image.tag as string;
      expect(files['image/Dockerfile']).toContain(`docker build -t agentdef/write-router:${tag} image`);
    },
  );
});

describe('imageTag', () => {
  it('maps + to _ and keeps everything else of a semver version', () => {
    expect(imageTag('1.2.0+build.7', 'ab'.repeat(32))).toBe('1.2.0_build.7-abababababab');
    expect(imageTag('1.2.0-rc.1', 'cd'.repeat(32))).toBe('1.2.0-rc.1-cdcdcdcdcdcd');
  });

  it('is a valid tag for every schema-valid version, up to 128 characters, and distinct versions of equal length stay distinct (property)', () => {
    const identifier = fc.stringMatching(/^[0-9A-Za-z-]{1,20}$/);
    const semver = fc
      .tuple(
        fc.nat(),
        fc.nat(),
        fc.nat(),
        fc.option(fc.array(identifier, { minLength: 1, maxLength: 4 })),
        fc.option(fc.array(identifier, { minLength: 1, maxLength: 8 })),
      )
      .map(
        ([a, b, c, pre, build]) =>
          `${a}.${b}.${c}${pre ? `-${pre.join('.')}` : ''}${build ? `+${build.join('.')}` : ''}`,
      )
      .filter(isExactSemver);
    fc.assert(
      fc.property(semver, semver, fc.stringMatching(/^[0-9a-f]{64}$/), (a, b, digest) => {
        const tag = imageTag(a, digest);
        expect(tag).toMatch(TAG);
        expect(tag.length).toBeLessThanOrEqual(MAX_TAG_LENGTH);
        expect(tag.endsWith(`-${digest.slice(0, 12)}`)).toBe(true);
        if (a !== b && a.length + 13 <= MAX_TAG_LENGTH && b.length + 13 <= MAX_TAG_LENGTH)
          expect(imageTag(b, digest)).not.toBe(tag);
      }),
      { numRuns: 500 },
    );
  });
});
