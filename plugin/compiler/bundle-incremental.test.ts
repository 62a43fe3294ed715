/**
 * The incremental bundler (`createEsbuildBundler({ incremental: true })`, a compile session's):
 * esbuild contexts kept across bundles, and still exact. A workspace module edited, a file added
 * that an import now resolves to, then removed, between two bundles of one bundler: each bundle
 * reads the disk as it is then. Failures come out with the texts a fresh bundler gives and leave
 * the context usable; different generated modules through one context give a fresh build's bytes.
 */
import { unlinkSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BundleContexts, bundleModule, createEsbuildBundler } from './bundle';
import type { Bundler, BundleRequest, BundleResult } from './bundler';
import { tempWorkspace, type TempWorkspace } from './test-support';

let ws: TempWorkspace;
let bundler: Bundler;
beforeEach(() => {
  ws = tempWorkspace({
    'tools/count.ts': 'import { unit } from "./unit";\nexport const run = (s: string) => `${s.length} ${unit}`;\n',
    'tools/unit.js': 'export const unit = "from unit.js";\n',
  });
  bundler = createEsbuildBundler({ workspaceRoot: ws.root, incremental: true });
});
afterEach(async () => {
  await bundler.dispose();
  ws.remove();
});

/** A Worker-like request: the entry imports the tool through the workspace alias, beside a generated module. */
const request = (generated = 'export const label = "one";\n'): BundleRequest => ({
  entry: {
    path: 'main.ts',
    contents:
      'import { run } from "agentdef:workspace/tools/count";\nimport { label } from "./label";\nexport default () => run(label);\n',
  },
  files: { 'label.ts': generated },
  virtualRoot: 'src',
  platform: 'neutral',
  externals: ['cloudflare:*'],
  outFile: 'worker.js',
});

const codeOf = (result: BundleResult): string => {
  expect(result.ok, JSON.stringify(result)).toBe(true);
  return (result as { code: string }).code;
};

describe('createEsbuildBundler({ incremental: true })', () => {
  it('bundles what the disk holds at each bundle: an edited module, a file added that an import resolves to, then removed', async () => {
    expect(codeOf(await bundler.bundle(request()))).toContain('from unit.js');

    ws.write(
      'tools/count.ts',
      'import { unit } from "./unit";\nexport const run = (s: string) => `${s.length} words ${unit}`;\n',
    );
    const edited = codeOf(await bundler.bundle(request()));
    expect(edited).toContain(' words ');
    expect(edited).toContain('from unit.js');

    // `./unit` now resolves to unit.ts (.ts comes before .js).
    ws.write('tools/unit.ts', 'export const unit = "from unit.ts";\n');
    const added = codeOf(await bundler.bundle(request()));
    expect(added).toContain('from unit.ts');
    expect(added).not.toContain('from unit.js');

    unlinkSync(`${ws.root}/tools/unit.ts`);
    const removed = codeOf(await bundler.bundle(request()));
    expect(removed).toContain('from unit.js');
    expect(removed).not.toContain('from unit.ts');

    // Each is the fresh build's output, byte for byte.
    expect(removed).toBe(codeOf(await createEsbuildBundler({ workspaceRoot: ws.root }).bundle(request())));
  });

  it('fails with the texts a fresh bundler gives, and the next bundle through the same bundler is right', async () => {
    codeOf(await bundler.bundle(request()));
    const fresh = () => createEsbuildBundler({ workspaceRoot: ws.root });

    unlinkSync(`${ws.root}/tools/unit.js`);
    const missing = await bundler.bundle(request());
    expect(missing.ok).toBe(false);
    expect(missing).toEqual(await fresh().bundle(request()));

    ws.write('tools/unit.js', 'export const unit = "back";\n');
    ws.write('tools/count.ts', 'export const run = (s: string) => s.length +;\n');
    const syntax = await bundler.bundle(request());
    expect(syntax.ok).toBe(false);
    expect(syntax).toEqual(await fresh().bundle(request()));

    const badGenerated = request('export const label = ;\n');
    ws.write('tools/count.ts', 'import { unit } from "./unit";\nexport const run = (s: string) => `${s} ${unit}`;\n');
    const generated = await bundler.bundle(badGenerated);
    expect(generated.ok).toBe(false);
    expect(generated).toEqual(await fresh().bundle(badGenerated));

    ws.write('tools/raw.ts', 'import { connect } from "cloudflare:sockets";\nexport const run = () => connect;\n');
    const refused = {
      ...request(),
      entry: { path: 'main.ts', contents: 'export { run } from "agentdef:workspace/tools/raw.ts";\n' },
    };
    const refusal = await bundler.bundle(refused);
    expect(refusal.ok).toBe(false);
    expect(refusal).toEqual(await fresh().bundle(refused));

    const good = await bundler.bundle(request('export const label = "two";\n'));
    expect(codeOf(good)).toContain('"two"');
    expect(codeOf(good)).toContain('back');
    expect(good).toEqual(await fresh().bundle(request('export const label = "two";\n')));
  });

  it("serves each request's own generated modules and text modules: interleaved and concurrent bundles give a fresh build's bytes", async () => {
    const variants: BundleRequest[] = [
      request('export const label = "one";\n'),
      { ...request(), files: { 'label.ts': 'export const label = "two";\n', 'other.ts': 'export const x = 1;\n' } },
      {
        ...request(),
        entry: { path: 'main.ts', contents: 'import text from "agentdef:isolate/1-x";\nexport default text;\n' },
        textModules: { 'agentdef:isolate/1-x': 'first child code' },
      },
      {
        ...request(),
        entry: { path: 'main.ts', contents: 'import text from "agentdef:isolate/1-x";\nexport default text;\n' },
        textModules: { 'agentdef:isolate/1-x': 'another child code' },
      },
      { ...request(), minify: true, sourcemap: false, outFile: 'isolate.js' },
    ];
    const fresh = await Promise.all(variants.map((v) => createEsbuildBundler({ workspaceRoot: ws.root }).bundle(v)));
    for (const result of fresh) expect(result.ok).toBe(true);
    for (let round = 0; round < 2; round++) {
      for (const [i, variant] of variants.entries())
        expect(await bundler.bundle(variant), `variant ${i}`).toEqual(fresh[i]);
      // All at once: one context's rebuilds run one after another, each with its own modules.
      const together = await Promise.all([...variants, ...variants].map((v) => bundler.bundle(v)));
      expect(together).toEqual([...fresh, ...fresh]);
    }
  });

  it('keeps bundling right past its bound on kept contexts (the least recently used disposed, made again when needed)', async () => {
    const keys = Array.from({ length: 6 }, (_, i) => ({
      ...request(`export const label = "${i}";\n`),
      outFile: `out-${i}.js`,
    }));
    const fresh = await Promise.all(keys.map((r) => createEsbuildBundler({ workspaceRoot: ws.root }).bundle(r)));
    for (let round = 0; round < 2; round++) {
      for (const [i, r] of keys.entries()) expect(await bundler.bundle(r), `key ${i}`).toEqual(fresh[i]);
      expect(await Promise.all(keys.map((r) => bundler.bundle(r)))).toEqual(fresh);
    }
  });

  it('never keeps more contexts than its bound, and none after dispose', async () => {
    const contexts = new BundleContexts(2);
    const input = (i: number) => ({
      entry: { path: 'src/main.ts', contents: `export const label = "${i}";\n` },
      resolveDir: ws.root,
      platform: 'neutral' as const,
      outFile: `out-${i}.js`,
    });
    for (let i = 0; i < 5; i++) {
      const fresh = await bundleModule(input(i));
      expect(await contexts.bundle(`key-${i}`, input(i))).toEqual(fresh);
      expect(contexts.count).toBeLessThanOrEqual(2);
    }
    await contexts.dispose();
    expect(contexts.count).toBe(0);
    expect(await contexts.bundle('key-0', input(0))).toEqual(await bundleModule(input(0)));
    expect(contexts.count).toBe(0);
  });

  it('keeps bundling after dispose (without a context), and dispose twice is harmless', async () => {
    const before = await bundler.bundle(request());
    await bundler.dispose();
    expect(await bundler.bundle(request())).toEqual(before);
    await bundler.dispose();
  });
});
