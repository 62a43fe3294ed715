/**
 * The in-memory bundler: generated modules importing each other, an alias family onto the disk,
 * text modules, externals left as imports, minification, source maps whose sources name no
 * absolute path, the same bytes on every run, and readable errors.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BundleError, bundleModule, sourceName } from './bundle';
import { tempWorkspace, type TempWorkspace } from './test-support';

let ws: TempWorkspace;
beforeEach(() => {
  ws = tempWorkspace({
    'lib/greet.ts': 'export function greet(name: string): string {\n  return `hello ${name}`;\n}\nexport function unused(): string {\n  return "never bundled";\n}\n',
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
    const broken = { ...input(), files: { 'util/exclaim.ts': 'export const exclaim = (s: string) => s;\nimport "./missing";\n' } };
    const error = await bundleModule(broken).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BundleError);
    expect((error as BundleError).errors.join('\n')).toContain('cannot resolve ./missing from the generated module util/exclaim.ts');
    const badAlias = await bundleModule({ ...input(), entry: { path: 'main.ts', contents: 'import { nope } from "ws:root/lib/greet";\nexport default nope;\n' } }).catch((e: unknown) => e);
    expect((badAlias as BundleError).errors.join('\n')).toMatch(/lib\/greet\.ts.*nope|nope.*lib\/greet\.ts/);
    expect((badAlias as BundleError).errors.join('\n')).not.toContain(ws.root);
  });
});
