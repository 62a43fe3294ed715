/**
 * The baseline of the compile bench: bare esbuild bundling the very entry a compile bundles, with
 * the same settings, writing its bundle (and map) to disk. The entry comes from a bundle request
 * the compile made (recorded by the bench), written as plain files once, so the timed build is
 * esbuild alone: one small plugin maps agentdef's `agentdef:*` specifiers to its source files,
 * as any project bundling these modules would need.
 */
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { BuildOptions, Plugin } from 'esbuild';
import { AGENTDEF_MODULES, type BundleRequest } from '../../plugin/compiler/bundler';

const PLUGIN_DIR = join(__dirname, '..', '..', 'plugin');

/** `path` as a file: itself, or with `.ts`, or its `index.ts`. */
function sourceFile(path: string): string {
  for (const candidate of [path, `${path}.ts`, join(path, 'index.ts')])
    if (statSync(candidate, { throwIfNoEntry: false })?.isFile()) return candidate;
  return path;
}

/** `agentdef:*` specifiers to agentdef's sources and the workspace's files (what the compile's bundler maps too). */
function agentdefAliases(workspaceRoot: string): Plugin {
  const exact: Record<string, string> = {
    [AGENTDEF_MODULES.runtime]: join(PLUGIN_DIR, 'runtime', 'index'),
    [AGENTDEF_MODULES.workerHost]: join(PLUGIN_DIR, 'hosts', 'worker', 'index'),
  };
  const prefixes: [string, string][] = [
    [AGENTDEF_MODULES.nodeHost, join(PLUGIN_DIR, 'hosts', 'node')],
    [AGENTDEF_MODULES.workspace, workspaceRoot],
  ];
  return {
    name: 'agentdef-aliases',
    setup(build) {
      build.onResolve({ filter: /^agentdef:/ }, (args) => {
        const prefix = prefixes.find(([key]) => args.path.startsWith(key));
        const target = exact[args.path] ?? (prefix ? join(prefix[1], args.path.slice(prefix[0].length)) : undefined);
        return target === undefined ? undefined : { path: sourceFile(target) };
      });
    },
  };
}

/** Writes the request's generated modules under `dir` (once, untimed); returns the entry's path. */
export function writeRequestSources(request: BundleRequest, dir: string): string {
  const files: Record<string, string> = { ...request.files, [request.entry.path]: request.entry.contents };
  for (const [path, contents] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), contents);
  }
  return join(dir, request.entry.path);
}

/** esbuild's options for the request's bundle, written to `outDir`, from an entry on disk. */
export function bareBuildOptions(
  request: BundleRequest,
  entry: string,
  outDir: string,
  workspaceRoot: string,
): BuildOptions {
  if (request.textModules && Object.keys(request.textModules).length > 0)
    throw new Error('the bare baseline takes entries without text modules (agents without quarantined children)');
  return {
    entryPoints: [entry],
    bundle: true,
    write: true,
    outfile: join(outDir, request.outFile),
    format: 'esm',
    platform: request.platform,
    target: request.target ?? 'es2022',
    ...(request.minify === 'syntax'
      ? { minifyWhitespace: true, minifySyntax: true }
      : { minify: request.minify ?? false }),
    treeShaking: true,
    sourcemap: request.sourcemap === false ? false : 'linked',
    legalComments: request.legalComments ?? 'eof',
    ...(request.banner !== undefined ? { banner: { js: request.banner } } : {}),
    charset: 'utf8',
    logLevel: 'silent',
    external: [...(request.externals ?? [])],
    ...(request.conditions ? { conditions: [...request.conditions] } : {}),
    ...(request.platform === 'node' ? {} : { mainFields: ['browser', 'module', 'main'] }),
    plugins: [agentdefAliases(workspaceRoot)],
  };
}
