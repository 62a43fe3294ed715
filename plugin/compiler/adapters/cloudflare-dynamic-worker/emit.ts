/**
 * The Cloudflare dynamic Worker adapter. Its passes, in order:
 *   fail closed on a tree a Worker cannot host → project every node onto the runtime config (every
 *   bundled tool needs an implementation in tools.json) → lay the nodes out in isolates → plan the
 *   bindings → generate `src/` (ts-morph) → bundle each quarantined child's isolate, then the Worker
 *   (esbuild, minified, source map beside it) → enforce the size budget → bundle `loader.js` →
 *   `host-plan.json`, `wrangler.jsonc`, `agent-card.json`. (The pipeline checks the target and adds `plan.json`.)
 * Same inputs, same bytes: no clock, no absolute path in any output.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_CODES, hasErrors, type Diagnostic } from '../../../definition/diagnostic';
import { joinPointer } from '../../../definition/json-pointer';
import { locateFinding } from '../../../definition/validate-definition';
import { buildAgentCard } from '../../../runtime/agent-card';
import { BundleError, bundleModule, type BundleInput } from '../../bundle';
import { stableJson } from '../../canonical-json';
import type { CompilePlan } from '../../plan';
import type { ResolvedNode } from '../../resolve';
import { runtimeConfigsForTree } from '../../runtime-config';
import type { Adapter, EmitContext, EmitResult, EmittedFile } from '../../targets';
import { TOOLS_FILE } from '../../workspace-config';
import { planBindings, workerName } from './binding-plan';
import { generateLoaderEntry, generateWorkerSource } from './generate-source';
import { buildHostPlan } from './host-plan';
import { DEFAULT_MAX_BUNDLE_BYTES, FILES, PLACEHOLDER_ORIGIN_SUFFIX, SPECIFIERS } from './worker-constants';
import { planWorkerLayout, type WorkerLayout } from './worker-layout';
import { wranglerConfig } from './wrangler-config';

const TARGET = 'cloudflare-dynamic-worker';

/** agentdef's own `plugin/` folder (in this repository, or in the installed package). */
const PLUGIN_DIR = join(__dirname, '..', '..', '..');

/** Where the modules the generated code imports live (beside this file in the source tree and in the package). */
function bundleAliases(workspaceRoot: string): Record<string, string> {
  return {
    [SPECIFIERS.runtime]: join(PLUGIN_DIR, 'runtime', 'index'),
    [SPECIFIERS.workerHost]: join(PLUGIN_DIR, 'hosts', 'worker', 'index'),
    [SPECIFIERS.workspace]: workspaceRoot,
  };
}

/** Source-map names: agentdef's files as `agentdef/plugin/…` wherever it is installed, the workspace's relative to its root. */
function sourceRoots(workspaceRoot: string): { dir: string; prefix: string }[] {
  return [
    { dir: PLUGIN_DIR, prefix: 'agentdef/plugin/' },
    { dir: workspaceRoot, prefix: '' },
  ];
}

/**
 * `loader.js`: the same for every agent (it reads the host plan beside it) and independent of the
 * workspace, so it is generated and bundled once per process. Unminified, so readable; its module
 * comments name agentdef's files relative to its plugin folder.
 */
let loaderCache: Promise<string> | undefined;
function loaderBundle(workspaceRoot: string): Promise<string> {
  loaderCache ??= bundleModule({
    entry: generateLoaderEntry(),
    resolveDir: workspaceRoot,
    workingDir: PLUGIN_DIR,
    platform: 'neutral',
    format: 'esm',
    externals: ['cloudflare:*', './host-plan.json'],
    aliases: bundleAliases(workspaceRoot),
    minify: false,
    sourcemap: false,
    outFile: FILES.loader,
  }).then((out) => out.code);
  loaderCache.catch(() => {
    loaderCache = undefined;
  });
  return loaderCache;
}

function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

/** Every workspace module tools.json names for a bundled tool must exist (a located error in tools.json otherwise). */
function missingToolModules(layout: WorkerLayout, context: EmitContext): Diagnostic[] {
  const document = context.workspace.documents.get(TOOLS_FILE);
  const diagnostics: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const node of layout.nodes) {
    for (const tool of node.config.tools) {
      const implementation = tool.kind === 'bundled' ? context.workspace.tools.get(tool.id) : undefined;
      if (!implementation || !implementation.module.startsWith('./') || seen.has(tool.id)) continue;
      seen.add(tool.id);
      let exists = false;
      try {
        exists = statSync(join(context.workspaceRoot, ...implementation.module.slice(2).split('/'))).isFile();
      } catch {
        exists = false;
      }
      if (exists || !document) continue;
      diagnostics.push(
        locateFinding(document, {
          code: ERROR_CODES.invalid,
          rule: 'tool-implementation',
          path: joinPointer(joinPointer('/tools', tool.id), 'module'),
          message: `the module of tool "${tool.id}" does not exist: ${implementation.module}`,
          suggestion: 'point "module" at a file inside the workspace (relative to its root) or at an installed package',
        }),
      );
    }
  }
  return diagnostics;
}

function bundleFailure(resolved: ResolvedNode, what: string, error: unknown): Diagnostic {
  const detail = error instanceof BundleError ? error.errors.join('; ') : error instanceof Error ? error.message : String(error);
  return locateFinding(resolved.document, {
    code: ERROR_CODES.invalid,
    rule: 'worker-bundle',
    path: '/toolInventory',
    message: `bundling ${what} failed: ${detail}`,
    suggestion: `check the tool modules ${TOOLS_FILE} names and their exports`,
  });
}

export async function emitCloudflareWorker(plan: CompilePlan, resolved: ResolvedNode, context: EmitContext): Promise<EmitResult> {
  const projected = runtimeConfigsForTree(resolved, { workspace: context.workspace, requireImplementations: { bundled: true, mcpHttp: true } });
  if (hasErrors(projected.diagnostics)) return { diagnostics: projected.diagnostics };
  const layout = planWorkerLayout(projected.nodes);
  const bindings = planBindings(layout);
  const missing = missingToolModules(layout, context);
  if (bindings.diagnostics.length > 0 || missing.length > 0) return { diagnostics: [...bindings.diagnostics, ...missing] };

  const maxBytes = context.options.maxBundleBytes ?? DEFAULT_MAX_BUNDLE_BYTES;
  if (!Number.isInteger(maxBytes) || maxBytes < 1) {
    return {
      diagnostics: [
        locateFinding(resolved.document, { code: ERROR_CODES.invalid, rule: 'worker-bundle-size', path: '', message: `the adapter option maxBundleBytes must be a whole number of bytes, not ${String(maxBytes)}` }),
      ],
    };
  }

  const origin = `${plan.root.slug}@${plan.root.version} (plan ${plan.digest.slice(0, 12)})`;
  const source = generateWorkerSource({ layout, bindings, tools: context.workspace.tools, origin });
  const files = Object.fromEntries(source);
  const aliases = bundleAliases(context.workspaceRoot);
  const common: Omit<BundleInput, 'entry' | 'outFile'> = {
    files,
    resolveDir: context.workspaceRoot,
    sourceRoots: sourceRoots(context.workspaceRoot),
    platform: 'neutral',
    format: 'esm',
    externals: ['cloudflare:*'],
    aliases,
    conditions: ['workerd', 'worker', 'browser'],
    minify: true,
  };

  // Children's isolates first: a parent embeds their code as text.
  const isolateCode = new Map<number, string>();
  let worker: { code: string; map?: string; bytes: number } | undefined;
  for (const entry of layout.bundleOrder) {
    const isolate = layout.isolates.get(entry)!;
    const textModules: Record<string, string> = {};
    for (const child of isolate.childIsolates) textModules[`${SPECIFIERS.isolate}${child}-${layout.nodes[child]!.slug}`] = isolateCode.get(child)!;
    const what = entry === 0 ? FILES.worker : `the isolate of ${layout.nodes[entry]!.nodeId}`;
    try {
      const out = await bundleModule({ ...common, entry: { path: isolate.entryPath, contents: source.get(isolate.entryPath)! }, textModules, outFile: entry === 0 ? FILES.worker : 'isolate.js', sourcemap: entry === 0 });
      if (entry === 0) worker = out;
      else isolateCode.set(entry, out.code);
    } catch (error) {
      return { diagnostics: [bundleFailure(resolved, what, error)] };
    }
  }
  if (!worker) throw new Error('the root isolate was not bundled');
  if (worker.bytes > maxBytes) {
    return {
      diagnostics: [
        locateFinding(resolved.document, {
          code: ERROR_CODES.runtimeMismatch,
          rule: 'worker-bundle-size',
          path: '',
          message: `${FILES.worker} is ${worker.bytes} bytes (${kib(worker.bytes)}), above the Worker size budget of ${maxBytes} bytes (${kib(maxBytes)})`,
          suggestion: 'drop heavy tool dependencies, split the agent into quarantined children, or raise maxBundleBytes to your plan\'s limit',
        }),
      ],
    };
  }

  let loader: string;
  try {
    loader = await loaderBundle(context.workspaceRoot);
  } catch (error) {
    return { diagnostics: [bundleFailure(resolved, FILES.loader, error)] };
  }

  const hostPlan = buildHostPlan(plan, layout, bindings, worker.code, isolateCode);
  const rootConfig = layout.nodes[0]!.config;
  const card = buildAgentCard(rootConfig, { requestOrigin: `https://${workerName(plan.root.slug)}${PLACEHOLDER_ORIGIN_SUFFIX}` });
  const out: EmittedFile[] = [
    ...[...source].map(([path, contents]) => ({ path, contents })),
    { path: FILES.worker, contents: worker.code },
    { path: FILES.workerMap, contents: `${worker.map ?? '{}'}\n` },
    { path: FILES.hostPlan, contents: stableJson(hostPlan) },
    { path: FILES.loader, contents: loader },
    { path: FILES.wrangler, contents: wranglerConfig(plan, layout, bindings) },
    { path: FILES.agentCard, contents: stableJson(card) },
  ];
  return {
    files: out,
    summary: `${FILES.worker} ${kib(worker.bytes)} of the ${kib(maxBytes)} budget`,
  };
}

export const cloudflareDynamicWorkerAdapter: Adapter = {
  target: TARGET,
  hosts: ['worker'],
  emit: emitCloudflareWorker,
};

