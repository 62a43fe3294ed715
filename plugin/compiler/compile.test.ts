import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as nodeFs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../definition/diagnostic';
import { indexRegistrySnapshots } from '../registry/__test-support__/registry-fixture';
import { compileAgent, planAgent } from './compile';
import { serializePlan } from './plan';
import { positionOf } from './test-support';

const EXAMPLES = join(__dirname, '..', '..', 'examples');

/** A copy of the repository's examples in a temp workspace, so other files of the repo cannot interfere. */
let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'agentdef-compile-'));
  writeFileSync(join(root, 'nx.json'), '{}\n');
  cpSync(EXAMPLES, join(root, 'examples'), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const file = (slug: string) =>
  join(root, 'examples', slug, existsSync(join(root, 'examples', slug, 'agent.yaml')) ? 'agent.yaml' : 'agent.json');
const errors = (ds: Diagnostic[]) => ds.filter((d) => d.severity === 'error');

function filesBelow(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const path = join(dir, name);
    try {
      out[name.split('\\').join('/')] = readFileSync(path, 'utf8');
    } catch {
      // a folder
    }
  }
  return out;
}

describe('the examples validate', () => {
  it.each([
    'code-search',
    'edit-assistant',
    'fallback-writer',
    'local-notes',
    'pdf-extractor',
    'splice-resolver',
    'text-stats',
    'web-summarizer',
    'write-router',
  ])('%s plans without errors', async (slug) => {
    const result = await planAgent({ file: file(slug), workspaceRoot: root });
    expect(result.ioError).toBeUndefined();
    expect(errors(result.diagnostics)).toEqual([]);
    expect(result.plan).toBeDefined();
  });
});

describe('planAgent on the examples', () => {
  it('plans write-router to container-required because of its tuned child splice-resolver', async () => {
    const { plan, diagnostics } = await planAgent({ file: file('write-router'), workspaceRoot: root });
    expect(errors(diagnostics)).toEqual([]);
    expect(plan!.root).toEqual({ slug: 'write-router', version: '1.4.0' });
    expect(plan!.nodes.map((n) => [n.id, n.file, n.quarantine])).toEqual([
      ['write-router@1.4.0', 'examples/write-router/agent.json', false],
      ['write-router@1.4.0/splice-resolver@0.4.2', 'examples/splice-resolver/agent.json', true],
      ['write-router@1.4.0/fallback-writer@1.1.0', 'examples/fallback-writer/agent.json', true],
    ]);
    expect(plan!.runtime).toMatchObject({
      declaredClass: 'workers-preferred',
      chosenClass: 'container-required',
      target: 'hb3',
      hosts: ['container', 'local'],
    });
    expect(plan!.runtime.reason).toContain(
      'splice-resolver@0.4.2: tuned model pin "qwen2.5-coder-7b-splice-lora" (specialist) loads checkpoint weights',
    );
  });

  it('plans edit-assistant (three levels) to a container too', async () => {
    const { plan, diagnostics } = await planAgent({ file: file('edit-assistant'), workspaceRoot: root });
    expect(errors(diagnostics)).toEqual([]);
    expect(plan!.nodes.map((n) => `${n.depth} ${n.slug}@${n.version}`)).toEqual([
      '0 edit-assistant@1.0.0',
      '1 write-router@1.4.0',
      '2 splice-resolver@0.4.2',
      '2 fallback-writer@1.1.0',
    ]);
    expect(plan!.runtime.chosenClass).toBe('container-required');
    expect(plan!.runtime.target).toBe('hb3');
    expect(plan!.runtime.reason).toContain('splice-resolver@0.4.2');
  });

  it.each([
    ['web-summarizer', 'cloudflare-dynamic-worker', 'workers-only'],
    ['text-stats', 'cloudflare-dynamic-worker', 'workers-only'],
    ['fallback-writer', 'cloudflare-dynamic-worker', 'workers-preferred'],
    ['code-search', 'local-mac', 'local-host-required'],
    ['local-notes', 'local-mac', 'local-host-required'],
    ['pdf-extractor', 'hb3', 'container-required'],
    ['splice-resolver', 'hb3', 'container-required'],
  ])('plans %s for %s (%s)', async (slug, target, chosenClass) => {
    const { plan } = await planAgent({ file: file(slug), workspaceRoot: root });
    expect(plan!.runtime.target).toBe(target);
    expect(plan!.runtime.chosenClass).toBe(chosenClass);
  });

  it('gives the same plan bytes on every run and in another checkout', async () => {
    const a = await planAgent({ file: file('edit-assistant'), workspaceRoot: root });
    const other = mkdtempSync(join(tmpdir(), 'agentdef-compile-other-'));
    try {
      writeFileSync(join(other, 'nx.json'), '{}\n');
      cpSync(join(root, 'examples'), join(other, 'examples'), { recursive: true });
      const b = await planAgent({
        file: join(other, 'examples', 'edit-assistant', 'agent.json'),
        workspaceRoot: other,
      });
      expect(serializePlan(b.plan!)).toBe(serializePlan(a.plan!));
      expect(serializePlan(a.plan!)).not.toContain(root);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('changes the plan digest when a child definition changes', async () => {
    const before = (await planAgent({ file: file('write-router'), workspaceRoot: root })).plan!;
    const path = file('fallback-writer');
    const text = readFileSync(path, 'utf8');
    writeFileSync(path, text.replace('"maxSubrequests": 8', '"maxSubrequests": 9'));
    expect(readFileSync(path, 'utf8')).not.toBe(text);
    const after = (await planAgent({ file: file('write-router'), workspaceRoot: root })).plan!;
    expect(after.nodes[2]!.digest).not.toBe(before.nodes[2]!.digest);
    expect(after.nodes[1]!.digest).toBe(before.nodes[1]!.digest);
    expect(after.digest).not.toBe(before.digest);
  });

  it('resolves a child from the registry when the workspace lacks it', async () => {
    mkdirSync(join(root, 'registry/agents/splice-resolver'), { recursive: true });
    cpSync(file('splice-resolver'), join(root, 'registry/agents/splice-resolver/0.4.2.json'));
    indexRegistrySnapshots(root);
    rmSync(join(root, 'examples/splice-resolver'), { recursive: true });
    const { plan, diagnostics } = await planAgent({ file: file('write-router'), workspaceRoot: root });
    expect(errors(diagnostics)).toEqual([]);
    expect(plan!.nodes[1]).toMatchObject({
      slug: 'splice-resolver',
      source: 'registry',
      file: 'registry/agents/splice-resolver/0.4.2.json',
    });
    expect(plan!.runtime.target).toBe('hb3');
  });

  it('reports a pin to a version that does not exist, at its line, with the versions that do', async () => {
    const path = file('write-router');
    const text = readFileSync(path, 'utf8').replace('"version": "0.4.2"', '"version": "0.4.3"');
    writeFileSync(path, text);
    const { plan, diagnostics } = await planAgent({ file: path, workspaceRoot: root });
    expect(plan).toBeUndefined();
    const pin = diagnostics.find((d) => d.rule === 'unresolved-pin');
    expect(pin).toMatchObject({ file: 'examples/write-router/agent.json', ...positionOf(text, '"0.4.3"') });
    expect(pin!.message).toContain('versions that exist: 0.4.2 (workspace examples/splice-resolver/agent.json)');
  });

  it('never throws: missing files and bad options come back as ioError', async () => {
    expect((await planAgent({ file: join(root, 'nope/agent.json'), workspaceRoot: root })).ioError).toMatch(
      /nope\/agent\.json/,
    );
    expect((await planAgent({ file: file('write-router'), workspaceRoot: root, maxDepth: 0 })).ioError).toMatch(
      /maxDepth/,
    );
    expect((await planAgent({ file: file('write-router'), workspaceRoot: root, maxNodes: 1.5 })).ioError).toMatch(
      /maxNodes/,
    );
    expect((await planAgent({ file: file('write-router'), workspaceRoot: 'relative' })).ioError).toMatch(/absolute/);
    expect(
      (await compileAgent({ file: file('write-router'), workspaceRoot: root, target: 'aws' as never })).ioError,
    ).toMatch(/unknown target "aws"/);
  });

  it('honours maxNodes from the options', async () => {
    const { diagnostics } = await planAgent({ file: file('edit-assistant'), workspaceRoot: root, maxNodes: 2 });
    expect(diagnostics.map((d) => d.rule)).toContain('composition-too-large');
  });
});

describe('compileAgent on the examples', () => {
  it('refuses write-router on cloudflare-dynamic-worker, naming splice-resolver, and writes nothing', async () => {
    const outDir = join(root, 'out', 'write-router');
    const result = await compileAgent({
      file: file('write-router'),
      workspaceRoot: root,
      target: 'cloudflare-dynamic-worker',
      outDir,
    });
    expect(result.plan).toBeUndefined();
    expect(result.files).toBeUndefined();
    expect(result.outDir).toBeUndefined();
    const mismatch = errors(result.diagnostics);
    expect(mismatch).toHaveLength(1);
    const text = readFileSync(file('write-router'), 'utf8');
    expect(mismatch[0]).toMatchObject({
      code: 'runtime_capability_mismatch',
      file: 'examples/write-router/agent.json',
      path: '/composition/nodes/0',
      line: positionOf(text, '{ "slug": "splice-resolver"').line,
    });
    expect(mismatch[0]!.message).toContain('splice-resolver@0.4.2: tuned model pin "qwen2.5-coder-7b-splice-lora"');
    expect(existsSync(join(root, 'out'))).toBe(false);
    expect(existsSync(join(root, 'dist'))).toBe(false);
  });

  it('compiles write-router (auto) into dist/agents/write-router with plan.json and the HB3 job', async () => {
    const result = await compileAgent({ file: file('write-router'), workspaceRoot: root });
    expect(result.ioError).toBeUndefined();
    expect(result.target).toBe('hb3');
    expect(result.outDir).toBe('dist/agents/write-router');
    const written = filesBelow(join(root, 'dist/agents/write-router'));
    expect(Object.keys(written).sort()).toEqual([
      '.agentdef-output.json',
      'hb3-job.json',
      'hb3-workflow.json',
      'image/Dockerfile',
      'image/entrypoint.mjs',
      'image/native-tools/README.md',
      'jobs/fallback-writer-1.1.0.hb3-job.json',
      'jobs/splice-resolver-0.4.2.hb3-job.json',
      'plan.json',
      'runtime-configs.json',
      'weights.lock.json',
    ]);
    expect(written['plan.json']).toBe(serializePlan(result.plan!));
    expect(JSON.parse(written['.agentdef-output.json']!)).toEqual({
      format: 'agentdef-output/v1',
      files: result.files!.map((f) => f.path),
    });
    expect(JSON.parse(written['hb3-job.json']!)).toMatchObject({
      kind: 'Service',
      metadata: { agent: 'write-router@1.4.0', planDigest: result.plan!.digest },
    });
    for (const contents of Object.values(written)) expect(contents).not.toContain(root);
    expect(readdirSync(join(root, 'dist/agents'))).toEqual(['write-router']);
  });

  it('writes the same bytes twice and replaces the previous output', async () => {
    const outDir = join(root, 'out');
    await compileAgent({ file: file('edit-assistant'), workspaceRoot: root, outDir, target: 'local-mac' });
    expect(Object.keys(filesBelow(outDir)).sort()).toEqual([
      '.agentdef-output.json',
      'agentdef-edit-assistant.service',
      'dev.agentdef.edit-assistant.plist',
      'launch.mjs',
      'launcher.json',
      'mcp-servers.json',
      'plan.json',
    ]);
    const first = await compileAgent({ file: file('edit-assistant'), workspaceRoot: root, outDir });
    const bytes = filesBelow(outDir);
    expect(Object.keys(bytes)).toContain('hb3-job.json');
    expect(Object.keys(bytes)).not.toContain('launch.mjs');
    const second = await compileAgent({ file: file('edit-assistant'), workspaceRoot: root, outDir });
    expect(filesBelow(outDir)).toEqual(bytes);
    expect(second.plan!.digest).toBe(first.plan!.digest);
    expect(first.outDir).toBe('out');
  });

  it('compiles web-summarizer to a Worker, with the tool implementations tools.json maps (and a located error without them)', async () => {
    const missing = await compileAgent({ file: file('web-summarizer'), workspaceRoot: root });
    expect(errors(missing.diagnostics).map((d) => [d.rule, d.file, d.path])).toEqual([
      ['tool-implementation', 'examples/web-summarizer/agent.json', '/toolInventory/0'],
    ]);
    cpSync(join(EXAMPLES, '..', 'tools.json'), join(root, 'tools.json'));
    const result = await compileAgent({ file: file('web-summarizer'), workspaceRoot: root });
    expect(result.target).toBe('cloudflare-dynamic-worker');
    expect(result.files!.map((f) => f.path)).toEqual(
      expect.arrayContaining([
        'plan.json',
        'src/index.ts',
        'worker.js',
        'worker.js.map',
        'host-plan.json',
        'loader.js',
        'wrangler.jsonc',
        'agent-card.json',
      ]),
    );
    expect(JSON.parse(readFileSync(join(root, 'dist/agents/web-summarizer/host-plan.json'), 'utf8'))).toMatchObject({
      target: 'cloudflare-dynamic-worker',
      planDigest: result.plan!.digest,
    });
  });

  it.each([
    ['code-search', 'launcher.json', 'local-mac', { agent: 'code-search@2.1.0' }],
    ['pdf-extractor', 'hb3-job.json', 'hb3', { kind: 'Job', metadata: { agent: 'pdf-extractor@1.2.0' } }],
  ])('compiles %s to %s', async (slug, descriptor, target, expected) => {
    cpSync(join(EXAMPLES, '..', 'mcp.json'), join(root, 'mcp.json'));
    const result = await compileAgent({ file: file(slug), workspaceRoot: root });
    expect(result.target).toBe(target);
    expect(result.files!.map((f) => f.path)).toContain(descriptor);
    const written = readFileSync(join(root, 'dist/agents', slug, descriptor), 'utf8');
    expect(JSON.parse(written)).toMatchObject(expected);
    expect(written).toContain(`"planDigest": "${result.plan!.digest}"`);
  });

  it('compiles write-router for an explicit target its tree allows, and the plan says so', async () => {
    const auto = await compileAgent({
      file: file('write-router'),
      workspaceRoot: root,
      outDir: join(root, 'out/auto'),
    });
    const hb3 = await compileAgent({
      file: file('write-router'),
      workspaceRoot: root,
      target: 'hb3',
      outDir: join(root, 'out/hb3'),
    });
    const local = await compileAgent({
      file: file('write-router'),
      workspaceRoot: root,
      target: 'local-mac',
      outDir: join(root, 'out/local'),
    });
    expect(errors(local.diagnostics)).toEqual([]);
    expect(local.target).toBe('local-mac');
    expect(local.plan!.target).toBe('local-mac');
    expect(local.plan!.runtime.target).toBe('hb3'); // what auto would have chosen
    expect(hb3.plan!.digest).toBe(auto.plan!.digest);
    expect(local.plan!.digest).not.toBe(auto.plan!.digest);
    expect(JSON.parse(readFileSync(join(root, 'out/local/plan.json'), 'utf8')).target).toBe('local-mac');
    expect(JSON.parse(readFileSync(join(root, 'out/local/launcher.json'), 'utf8')).planDigest).toBe(local.plan!.digest);
  });

  it('plans for an explicit target too, failing closed the same way', async () => {
    expect((await planAgent({ file: file('write-router'), workspaceRoot: root, target: 'hb3' })).plan!.target).toBe(
      'hb3',
    );
    const refused = await planAgent({
      file: file('write-router'),
      workspaceRoot: root,
      target: 'cloudflare-dynamic-worker',
    });
    expect(refused.plan).toBeUndefined();
    expect(errors(refused.diagnostics).map((d) => d.code)).toEqual(['runtime_capability_mismatch']);
  });

  it('refuses code-search (stdio MCP) on HB3', async () => {
    const result = await compileAgent({ file: file('code-search'), workspaceRoot: root, target: 'hb3' });
    expect(errors(result.diagnostics).map((d) => d.code)).toContain('runtime_capability_mismatch');
    expect(existsSync(join(root, 'dist'))).toBe(false);
  });

  it('keeps the previous output when a write fails', async () => {
    const outDir = join(root, 'out');
    await compileAgent({ file: file('write-router'), workspaceRoot: root, outDir });
    const before = filesBelow(outDir);
    writeFileSync(
      file('fallback-writer'),
      readFileSync(file('fallback-writer'), 'utf8').replace('"maxSubrequests": 8', '"maxSubrequests": 9'),
    );
    const result = await compileAgent({
      file: file('write-router'),
      workspaceRoot: root,
      outDir,
      outputFs: {
        writeFile: async (path, contents) => {
          if (path.endsWith('hb3-job.json'))
            throw Object.assign(new Error('no space'), { code: 'ENOSPC', syscall: 'write' });
          await nodeFs.writeFile(path, contents);
        },
      },
    });
    expect(result.ioError).toBe('cannot write out/hb3-job.json: ENOSPC (write); the previous output is unchanged');
    expect(filesBelow(outDir)).toEqual(before);
    expect(readdirSync(root).sort()).toEqual(['examples', 'nx.json', 'out']);
  });

  it('refuses to replace a folder that is not a compile output, or the workspace', async () => {
    const before = filesBelow(join(root, 'examples/write-router'));
    const into = await compileAgent({
      file: file('write-router'),
      workspaceRoot: root,
      outDir: join(root, 'examples/write-router'),
    });
    expect(into.ioError).toBe(
      'refusing to replace examples/write-router: it holds files agentdef did not write (no .agentdef-output.json marker); move them elsewhere or choose another output folder',
    );
    expect(filesBelow(join(root, 'examples/write-router'))).toEqual(before);
    expect((await compileAgent({ file: file('write-router'), workspaceRoot: root, outDir: root })).ioError).toMatch(
      /is or contains the workspace root/,
    );
    expect(
      (await compileAgent({ file: file('write-router'), workspaceRoot: join(root, 'examples'), outDir: root })).ioError,
    ).toMatch(/contains the workspace root/);
  });

  it('returns diagnostics (and writes nothing) for an invalid definition', async () => {
    const path = file('text-stats');
    writeFileSync(path, readFileSync(path, 'utf8').replace('"workers-only"', '"workers-maybe"'));
    const result = await compileAgent({ file: path, workspaceRoot: root });
    expect(result.plan).toBeUndefined();
    expect(errors(result.diagnostics)[0]).toMatchObject({
      file: 'examples/text-stats/agent.json',
      path: '/runtimeRequirements/runtimeCapabilityClass',
    });
    expect(result.sources.get('examples/text-stats/agent.json')).toContain('workers-maybe');
    expect(existsSync(join(root, 'dist'))).toBe(false);
  });
});

describe('definition cache of a long-lived host', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'agentdef-cache-'));
    cpSync(EXAMPLES, join(root, 'examples'), { recursive: true });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('validates an unchanged child once and a changed one again, with the same plans as without a cache', async () => {
    const cache = new Map();
    const router = join(root, 'examples', 'write-router', 'agent.json');
    const uncached = await planAgent({ file: router, workspaceRoot: root });
    const first = await planAgent({ file: router, workspaceRoot: root, definitionCache: cache });
    expect(serializePlan(first.plan!)).toBe(serializePlan(uncached.plan!));
    expect([...cache.keys()].map((k: string) => k.split('\u0000')[0]).sort()).toEqual([
      'examples/fallback-writer/agent.json',
      'examples/splice-resolver/agent.json',
    ]);
    const hit = cache.get([...cache.keys()][0]);
    await planAgent({
      file: join(root, 'examples', 'edit-assistant', 'agent.json'),
      workspaceRoot: root,
      definitionCache: cache,
    });
    expect(cache.get([...cache.keys()][0])).toBe(hit);
    expect(cache.size).toBe(3);

    const child = join(root, 'examples', 'fallback-writer', 'agent.json');
    writeFileSync(
      child,
      readFileSync(child, 'utf8').replace('"name": "Fallback writer"', '"name": "Fallback writer 2"'),
    );
    const changed = await planAgent({ file: router, workspaceRoot: root, definitionCache: cache });
    expect(cache.size).toBe(4);
    expect(changed.plan!.digest).not.toBe(first.plan!.digest);
  });
});
