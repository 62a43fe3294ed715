/**
 * The in-memory bundler: generated modules importing each other, an alias family onto the disk,
 * text modules, externals left as imports, minification, source maps whose sources name no
 * absolute path, the same bytes on every run, and readable errors.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BundleError, bundleModule, createEsbuildBundler, sourceName } from './bundle';
import { tempWorkspace, type TempWorkspace } from './test-support';

let ws: TempWorkspace;
beforeEach(() => {
  ws = tempWorkspace({
    'lib/greet.ts':
      'export function greet(name: string): string {\n  return `hello ${name}`;\n}\nexport function unused(): string {\n  return "never bundled";\n}\n',
  });
});
afterEach(() => ws.remove());

const input = () => ({
  entry: {
    path: 'main.ts',
    contents:
      'import { greet } from "ws:root/lib/greet";\nimport { exclaim } from "./util/exclaim";\nimport text from "blob:one";\nimport { env } from "cloudflare:workers";\nexport default exclaim(greet(text)) + String(env);\n',
  },
  files: { 'util/exclaim.ts': 'export const exclaim = (s: string): string => `${s}!`;\n' },
  virtualRoot: 'src',
  resolveDir: ws.root,
  platform: 'neutral' as const,
  externals: ['cloudflare:*'],
  aliases: { 'ws:root/': ws.root },
  textModules: { 'blob:one': 'world' },
  outFile: 'out.js',
});

describe('bundleModule', () => {
  it('bundles generated modules, aliased disk modules and text modules; keeps externals; tree-shakes', async () => {
    const out = await bundleModule(input());
    expect(out.code).toContain('from "cloudflare:workers"');
    expect(out.code).toContain('"world"');
    expect(out.code).toContain('hello ');
    expect(out.code).not.toContain('never bundled');
    expect(out.code).toMatch(/\/\/# sourceMappingURL=out\.js\.map\n$/);
    expect(out.bytes).toBe(Buffer.byteLength(out.code));
    const map = JSON.parse(out.map!) as { sources: string[]; file: string };
    expect(map.file).toBe('out.js');
    expect(map.sources.sort()).toEqual(['blob:one', 'lib/greet.ts', 'src/main.ts', 'src/util/exclaim.ts']);
    expect(out.map).not.toContain(ws.root);
  });

  it('gives the same bytes twice, minifies on request and can leave the map out', async () => {
    const a = await bundleModule({ ...input(), minify: true });
    const b = await bundleModule({ ...input(), minify: true });
    expect(b).toEqual(a);
    expect(a.code.length).toBeLessThan((await bundleModule(input())).code.length);
    const bare = await bundleModule({ ...input(), sourcemap: false });
    expect(bare.map).toBeUndefined();
    expect(bare.code).not.toContain('sourceMappingURL');
  });

  it('names sources by the first root that holds them', () => {
    const roots = {
      resolveDir: '/w',
      sourceRoots: [
        { dir: '/pkg/plugin', prefix: 'agentdef/plugin/' },
        { dir: '/w', prefix: '' },
      ],
    };
    expect(sourceName('/pkg/plugin/runtime/a.ts', roots)).toBe('agentdef/plugin/runtime/a.ts');
    expect(sourceName('/w/tools/t.ts', roots)).toBe('tools/t.ts');
    expect(sourceName('/elsewhere/x.ts', roots)).toBe('../elsewhere/x.ts');
  });

  it('fails with located, relative messages', async () => {
    const broken = {
      ...input(),
      files: { 'util/exclaim.ts': 'export const exclaim = (s: string) => s;\nimport "./missing";\n' },
    };
    const error = await bundleModule(broken).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BundleError);
    expect((error as BundleError).errors.join('\n')).toContain(
      'cannot resolve ./missing from the generated module util/exclaim.ts',
    );
    const badAlias = await bundleModule({
      ...input(),
      entry: { path: 'main.ts', contents: 'import { nope } from "ws:root/lib/greet";\nexport default nope;\n' },
    }).catch((e: unknown) => e);
    expect((badAlias as BundleError).errors.join('\n')).toMatch(/lib\/greet\.ts.*nope|nope.*lib\/greet\.ts/);
    expect((badAlias as BundleError).errors.join('\n')).not.toContain(ws.root);
  });

  it('names a workspace file by its workspace path when esbuild works from another folder', async () => {
    // The compiler bundles tools from the plugin's own folder: the error named ../../../lib/bad.ts.
    ws.write('lib/bad.ts', 'export function bad(): string {\n  return "x" +;\n}\n');
    ws.write('pkg/plugin/runtime/index.ts', 'export const runtime = 1;\n');
    const roots = {
      sourceRoots: [
        { dir: join(ws.root, 'pkg', 'plugin'), prefix: 'agentdef/plugin/' },
        { dir: ws.root, prefix: '' },
      ],
    };
    const error = await bundleModule({
      ...input(),
      ...roots,
      workingDir: join(ws.root, 'pkg', 'plugin', 'runtime'),
      entry: { path: 'main.ts', contents: 'import { bad } from "ws:root/lib/bad";\nexport default bad();\n' },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BundleError);
    expect((error as BundleError).errors.join('\n')).toContain('lib/bad.ts:2');
    expect((error as BundleError).errors.join('\n')).not.toContain('../');
  });
});

describe('createEsbuildBundler: imports that would get around a host egress guard', () => {
  const entry = (specifier: string) => ({
    path: 'main.ts',
    contents: `export { run } from ${JSON.stringify(`agentdef:workspace/tools/${specifier}`)};\n`,
  });

  it('refuses cloudflare:sockets in a workspace module on every platform, located at the import', async () => {
    ws.write(
      'tools/raw.ts',
      'export const x = 1;\nimport { connect } from "cloudflare:sockets";\nexport const run = () => connect;\n',
    );
    const bundler = createEsbuildBundler({ workspaceRoot: ws.root });
    for (const platform of ['neutral', 'node'] as const) {
      const out = await bundler.bundle({
        entry: entry('raw.ts'),
        platform,
        externals: ['cloudflare:*'],
        outFile: 'out.js',
      });
      expect(out.ok).toBe(false);
      const failure = (out as { failures: { text: string; file?: string; line?: number }[] }).failures[0]!;
      expect(failure.file).toMatch(/(^|\/)tools\/raw\.ts$/);
      expect(failure.line).toBe(2);
      expect(failure.text).toContain('tools/raw.ts may not import cloudflare:sockets');
    }
  });

  it("refuses every cloudflare: module (env, exports, the Worker Loader) in a tool's modules and in the packages it imports", async () => {
    ws.write('tools/env.ts', 'import { env } from "cloudflare:workers";\nexport const run = () => env;\n');
    ws.write(
      'node_modules/sneaky/package.json',
      JSON.stringify({ name: 'sneaky', version: '1.0.0', main: 'index.js' }),
    );
    ws.write(
      'node_modules/sneaky/index.js',
      'const { connect } = require("cloudflare:sockets");\nexports.open = connect;\n',
    );
    ws.write('tools/uses-package.ts', 'import { open } from "sneaky";\nexport const run = () => open;\n');
    const bundler = createEsbuildBundler({ workspaceRoot: ws.root });
    const env = await bundler.bundle({
      entry: entry('env.ts'),
      platform: 'neutral',
      externals: ['cloudflare:*'],
      outFile: 'out.js',
    });
    expect(env.ok).toBe(false);
    expect((env as { failures: { text: string }[] }).failures[0]!.text).toContain(
      'tools/env.ts may not import cloudflare:workers',
    );
    const viaPackage = await bundler.bundle({
      entry: entry('uses-package.ts'),
      platform: 'neutral',
      externals: ['cloudflare:*'],
      outFile: 'out.js',
    });
    expect(viaPackage.ok).toBe(false);
    expect((viaPackage as { failures: { text: string }[] }).failures[0]!.text).toContain(
      'node_modules/sneaky/index.js may not import cloudflare:sockets',
    );
  });

  it("lets a package import child_process on Node (agentdef's MCP client spawns its servers); only workspace modules are refused", async () => {
    ws.write(
      'node_modules/spawner/package.json',
      JSON.stringify({ name: 'spawner', version: '1.0.0', main: 'index.js' }),
    );
    ws.write('node_modules/spawner/index.js', 'exports.spawn = require("node:child_process").spawn;\n');
    ws.write('tools/pkg.ts', 'import { spawn } from "spawner";\nexport const run = () => spawn;\n');
    const out = await createEsbuildBundler({ workspaceRoot: ws.root }).bundle({
      entry: entry('pkg.ts'),
      platform: 'node',
      outFile: 'out.js',
    });
    expect(out.ok).toBe(true);
  });

  it('refuses child_process, worker_threads and cluster in workspace modules of Node bundles (static, require and literal import())', async () => {
    ws.write('tools/spawn.ts', 'import { spawn } from "node:child_process";\nexport const run = () => spawn;\n');
    ws.write('tools/thread.ts', 'export const run = () => require("worker_threads");\n');
    ws.write('tools/cluster.ts', 'export const run = () => import("node:cluster");\n');
    const bundler = createEsbuildBundler({ workspaceRoot: ws.root });
    for (const [file, specifier] of [
      ['spawn.ts', 'node:child_process'],
      ['thread.ts', 'worker_threads'],
      ['cluster.ts', 'node:cluster'],
    ] as const) {
      const out = await bundler.bundle({ entry: entry(file), platform: 'node', outFile: 'out.js' });
      expect(out.ok, file).toBe(false);
      const failure = (out as { failures: { text: string; file?: string }[] }).failures[0]!;
      expect(failure.file!.endsWith(`tools/${file}`)).toBe(true);
      expect(failure.text).toContain(`may not import ${specifier}`);
      expect(failure.text).toContain('declare a native tool instead');
    }
  });

  it('leaves no import() in a Worker bundle: a computed specifier becomes a require that a Worker does not have', async () => {
    ws.write('tools/dyn.ts', 'export const run = (name: string) => import(name);\n');
    const bundler = createEsbuildBundler({ workspaceRoot: ws.root });
    const out = await bundler.bundle({
      entry: entry('dyn.ts'),
      platform: 'neutral',
      externals: ['cloudflare:*'],
      outFile: 'out.js',
    });
    expect(out.ok).toBe(true);
    expect((out as { code: string }).code).not.toMatch(/\bimport\s*\(/);
    expect((out as { code: string }).code).toContain('Dynamic require of');
  });
});
