/**
 * The bundler port (bundler.ts) on esbuild, in memory. It alone knows where agentdef's own
 * modules are on disk (beside this file, in the sources and in the installed package alike) and
 * maps `agentdef:*` specifiers to them; the workspace's modules resolve from the workspace root.
 * One bundler serves one compile session: identical requests (the Worker loader, say) are
 * bundled once per bundler, never cached across sessions in module state.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { BundleError, bundleModule, type BundleInput } from './bundle';
import { AGENTDEF_MODULES, type Bundler, type BundleFailure, type BundleRequest, type BundleResult } from './bundler';

/** agentdef's own `plugin/` folder. */
const PLUGIN_DIR = join(__dirname, '..');

function failuresOf(error: unknown): BundleFailure[] {
  if (error instanceof BundleError) return error.failures;
  return [{ text: error instanceof Error ? error.message : String(error) }];
}

export function createEsbuildBundler(options: { workspaceRoot: string }): Bundler {
  const { workspaceRoot } = options;
  const memo = new Map<string, Promise<BundleResult>>();
  const run = async (request: BundleRequest): Promise<BundleResult> => {
    const input: BundleInput = {
      entry: request.entry,
      ...(request.files ? { files: request.files } : {}),
      ...(request.virtualRoot !== undefined ? { virtualRoot: request.virtualRoot } : {}),
      resolveDir: workspaceRoot,
      workingDir: request.moduleNames === 'workspace' ? workspaceRoot : PLUGIN_DIR,
      sourceRoots: [
        { dir: PLUGIN_DIR, prefix: 'agentdef/plugin/' },
        { dir: workspaceRoot, prefix: '' },
      ],
      platform: request.platform,
      format: 'esm',
      ...(request.target ? { target: request.target } : {}),
      externals: request.externals ?? [],
      aliases: {
        [AGENTDEF_MODULES.runtime]: join(PLUGIN_DIR, 'runtime', 'index'),
        [AGENTDEF_MODULES.workerHost]: join(PLUGIN_DIR, 'hosts', 'worker', 'index'),
        [AGENTDEF_MODULES.nodeHost]: join(PLUGIN_DIR, 'hosts', 'node'),
        [AGENTDEF_MODULES.workspace]: workspaceRoot,
      },
      ...(request.textModules ? { textModules: request.textModules } : {}),
      ...(request.conditions ? { conditions: request.conditions } : {}),
      minify: request.minify ?? false,
      sourcemap: request.sourcemap ?? true,
      outFile: request.outFile,
      ...(request.banner !== undefined ? { banner: request.banner } : {}),
      ...(request.legalComments ? { legalComments: request.legalComments } : {}),
    };
    try {
      const out = await bundleModule(input);
      return { ok: true, code: out.code, ...(out.map !== undefined ? { map: out.map } : {}), bytes: out.bytes };
    } catch (error) {
      return { ok: false, failures: failuresOf(error) };
    }
  };
  return {
    bundle(request) {
      const key = createHash('sha256').update(JSON.stringify(request)).digest('hex');
      let result = memo.get(key);
      if (!result) {
        result = run(request);
        memo.set(key, result);
      }
      return result;
    },
  };
}
