/**
 * The Cloudflare dynamic Worker adapter. Its passes, in order:
 *   project every node onto the runtime config (every
 *   bundled tool needs an implementation in tools.json) → lay the nodes out in isolates → plan the
 *   bindings → generate `src/` (a code writer) → bundle each quarantined child's isolate, then the Worker
 *   (the bundler port, minified, source map beside it; `loader.js` is bundled alongside, its entry
 *   generated once per process) → enforce the size budget → `host-plan.json`, `wrangler.jsonc`, `agent-card.json`. (The pipeline checks the target and adds `plan.json`.)
 * Same inputs, same bytes: no clock, no absolute path in any output.
 */
import { ERROR_CODES, hasErrors } from '../../definition/diagnostic';
import { locateFinding } from '../../definition/validate-definition';
import { buildAgentCard } from '../../runtime/agent-card';
import {
  bundledToolsOf,
  bundleFailureDiagnostics,
  type BundleFailure,
  type BundleRequest,
} from '../../compiler/bundler';
import { stableJson } from '../../compiler/canonical-json';
import type { CompilePlan } from '../../compiler/plan';
import type { ResolvedNode } from '../../compiler/resolve';
import { runtimeConfigsForTree } from '../../compiler/runtime-config';
import type { Adapter, EmitContext, EmitResult, EmittedFile } from '../target';
import { planBindings, workerName } from './binding-plan';
import { generateLoaderEntry, generateWorkerSource } from './generate-source';
import { buildHostPlan } from './host-plan';
import { DEFAULT_MAX_BUNDLE_BYTES, FILES, PLACEHOLDER_ORIGIN_SUFFIX, SPECIFIERS } from './worker-constants';
import { planWorkerLayout } from './worker-layout';
import { wranglerConfig } from './wrangler-config';

const TARGET = 'cloudflare-dynamic-worker';

/** The loader's entry is the same for every agent: generated once per process, not once per compile. */
let loaderEntry: ReturnType<typeof generateLoaderEntry> | undefined;

function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

export async function emitCloudflareWorker(
  plan: CompilePlan,
  resolved: ResolvedNode,
  context: EmitContext,
): Promise<EmitResult> {
  const projected = runtimeConfigsForTree(resolved, {
    workspace: context.workspace,
    requireImplementations: { bundled: true, mcpHttp: true },
  });
  if (hasErrors(projected.diagnostics)) return { diagnostics: projected.diagnostics };
  const layout = planWorkerLayout(projected.nodes);
  const bindings = planBindings(layout);
  if (bindings.diagnostics.length > 0) return { diagnostics: bindings.diagnostics };

  const maxBytes = context.options.maxBundleBytes ?? DEFAULT_MAX_BUNDLE_BYTES;
  if (!Number.isInteger(maxBytes) || maxBytes < 1) {
    return {
      diagnostics: [
        locateFinding(resolved.document, {
          code: ERROR_CODES.invalid,
          rule: 'worker-bundle-size',
          path: '',
          message: `the adapter option maxBundleBytes must be a whole number of bytes, not ${String(maxBytes)}`,
        }),
      ],
    };
  }

  const origin = `${plan.root.slug}@${plan.root.version} (plan ${plan.digest.slice(0, 12)})`;
  const source = generateWorkerSource({ layout, bindings, tools: context.workspace.tools, origin });
  const files = Object.fromEntries(source);
  const common: Omit<BundleRequest, 'entry' | 'outFile'> = {
    files,
    platform: 'neutral',
    externals: ['cloudflare:*'],
    conditions: ['workerd', 'worker', 'browser'],
    minify: true,
  };
  const failed = (what: string, failures: BundleFailure[]): EmitResult => ({
    diagnostics: bundleFailureDiagnostics(failures, {
      workspace: context.workspace,
      tools: bundledToolsOf(
        layout.nodes.map((n) => n.config),
        context.workspace,
      ),
      root: resolved.document,
      what,
    }),
  });

  // `loader.js` is the same for every agent (it reads the host plan beside it); unminified, so
  // readable. It needs nothing of the Worker's bundles, so esbuild builds it alongside them; its
  // failure is reported only once they are done, as if it had been bundled after them.
  const loaderBundle = context.bundler.bundle({
    entry: (loaderEntry ??= generateLoaderEntry()),
    platform: 'neutral',
    externals: ['cloudflare:*', './host-plan.json'],
    minify: false,
    sourcemap: false,
    outFile: FILES.loader,
    reusable: true,
  });
  loaderBundle.catch(() => undefined); // awaited below, unless the Worker's bundles fail first

  // Children's isolates first: a parent embeds their code as text.
  const isolateCode = new Map<number, string>();
  let worker: { code: string; map?: string; bytes: number } | undefined;
  for (const entry of layout.bundleOrder) {
    const isolate = layout.isolates.get(entry)!;
    const textModules: Record<string, string> = {};
    for (const child of isolate.childIsolates)
      textModules[`${SPECIFIERS.isolate}${child}-${layout.nodes[child]!.slug}`] = isolateCode.get(child)!;
    const what = entry === 0 ? FILES.worker : `the isolate of ${layout.nodes[entry]!.nodeId}`;
    const out = await context.bundler.bundle({
      ...common,
      entry: { path: isolate.entryPath, contents: source.get(isolate.entryPath)! },
      textModules,
      outFile: entry === 0 ? FILES.worker : 'isolate.js',
      sourcemap: entry === 0,
    });
    if (!out.ok) return failed(what, out.failures);
    if (entry === 0) worker = out;
    else isolateCode.set(entry, out.code);
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
          suggestion:
            "drop heavy tool dependencies, split the agent into quarantined children, or raise maxBundleBytes to your plan's limit",
        }),
      ],
    };
  }

  const loaderOut = await loaderBundle;
  if (!loaderOut.ok) return failed(FILES.loader, loaderOut.failures);
  const loader = loaderOut.code;

  const hostPlan = buildHostPlan(plan, layout, bindings, worker.code, isolateCode);
  const rootConfig = layout.nodes[0]!.config;
  const card = buildAgentCard(rootConfig, {
    requestOrigin: `https://${workerName(plan.root.slug)}${PLACEHOLDER_ORIGIN_SUFFIX}`,
  });
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
