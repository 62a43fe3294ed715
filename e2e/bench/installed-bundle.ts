/**
 * The Worker bundles users get: agentdef built as it is packed (scripts/build.mjs into a temporary
 * folder), its own compiler compiling the examples, so the runtime is bundled from the package's
 * files rather than from the source tree. worker-bench.ts prints these next to the source-tree
 * sizes (`bundle.installed.<worker>.kib`): they must match, or the package ships something esbuild
 * cannot tree-shake.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

/** Minified KiB of each example's worker.js compiled with the built package, by example. */
export async function installedWorkerKib(
  root: string,
  tmpDir: string,
  examples: readonly string[],
): Promise<Record<string, number>> {
  const dir = mkdtempSync(join(tmpDir, 'installed-'));
  try {
    const built = join(dir, 'agentdef');
    const build = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--out', built], {
      cwd: root,
      encoding: 'utf8',
    });
    if (build.status !== 0) throw new Error(`build failed:\n${build.stdout}\n${build.stderr}`);
    // The package's dependencies, as an install would provide them.
    symlinkSync(join(root, 'node_modules'), join(built, 'node_modules'));
    const { createEsbuildBundler } = require(
      join(built, 'plugin', 'compiler', 'bundle.js'),
    ) as typeof import('../../plugin/compiler/bundle');
    const { compileAgent } = require(
      join(built, 'plugin', 'compiler', 'compile.js'),
    ) as typeof import('../../plugin/compiler/compile');
    const bundler = createEsbuildBundler({ workspaceRoot: root });
    const kib: Record<string, number> = {};
    for (const example of examples) {
      const outDir = join(dir, 'out', example);
      const result = await compileAgent({
        file: `examples/${example}/agent.json`,
        workspaceRoot: root,
        target: 'cloudflare-dynamic-worker',
        outDir,
        bundler,
      });
      if (!result.files)
        throw new Error(`compile failed: ${result.ioError ?? result.diagnostics.map((d) => d.message).join('; ')}`);
      kib[example] = Buffer.byteLength(readFileSync(join(outDir, 'worker.js'))) / 1024;
    }
    return kib;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
