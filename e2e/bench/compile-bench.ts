/**
 * One agent's compile against bare esbuild bundling the same entry (goal: ratio ≤ 1.5), for each
 * target, and where the rest of the compile goes (run:
 * `node -r @swc-node/register e2e/bench/compile-bench.ts`; `BENCH_QUICK=1` for fewer runs).
 *
 * Per target, warm (everything loaded, one compile done), the measurements interleaved in each
 * round so machine load affects them alike, medians of the rounds:
 *  - compile: `compileAgent` as the batch executor's compile session runs it (one incremental
 *    bundler kept: the generic Worker `loader.js` bundled once, esbuild contexts rebuilt so
 *    agentdef's runtime is parsed once; git asked once for the source stamp of the session's
 *    agents, `sharedSourceStampReader`), writing the output folder; `compile-no-context`: the same
 *    through a bundler that keeps no esbuild context (a fresh esbuild build per bundle, as
 *    sessions bundled before);
 *    `compile-own-stamp`: the same, git asked by every compile; `compile-fresh-bundler`: a bundler
 *    and a git status per call, as one CLI or per-task executor process runs it;
 *  - bare-esbuild: esbuild bundling the entry that compile bundles (recorded from its bundle
 *    request, written to disk once), same settings, writing the bundle and its map (bare-esbuild.ts);
 *  - compile-cpu, bare-esbuild-cpu: the CPU time of this Node process during each (esbuild's own
 *    process not counted): what the compile's own work costs, whatever the machine's load;
 *  - the pipeline's stages run one by one, timed here rather than in the product: plan (load,
 *    validate, resolve, plan), workspace (tools.json, mcp.json), emit in memory, of which bundle
 *    is the time inside the bundler port (so adapter = emit − bundle is the adapter's own work:
 *    code generation, host plan, configs), and write (the guarded atomic write of the files).
 * Environment knobs: `BENCH_COMPILE_RUNS` (default 15; 5 with `BENCH_QUICK=1`), `BENCH_TARGETS`
 * (comma-separated, default every target).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { createEsbuildBundler } from '../../plugin/compiler/bundle';
import type { Bundler, BundleRequest } from '../../plugin/compiler/bundler';
import { sharedSourceStampReader, type SourceStampReader } from '../../plugin/compiler/source-stamp';
import { compileAgent, emitAgent, planAgent } from '../../plugin/compiler/compile';
import type { CompileTarget } from '../../plugin/targets/targets';
import { loadWorkspaceConfig } from '../../plugin/compiler/workspace-config';
import { writeOutputAtomic } from '../../plugin/compiler/write-output';
import { bareBuildOptions, writeRequestSources } from './bare-esbuild';
import { median, report, timeAsync } from './bench-support';

const ROOT = join(__dirname, '..', '..');
const QUICK = process.env.BENCH_QUICK === '1';
const RUNS = Number(process.env.BENCH_COMPILE_RUNS ?? (QUICK ? 5 : 15));

/** One agent per target, each without quarantined children (one bundle per compile). */
const AGENTS: Readonly<Record<CompileTarget, string>> = {
  'cloudflare-dynamic-worker': 'examples/text-stats/agent.json',
  hb3: 'examples/fallback-writer/agent.json',
  kubernetes: 'examples/fallback-writer/agent.json',
  'local-mac': 'examples/fallback-writer/agent.json',
};

/** A bundler that passes requests on, adding up the time spent in it and keeping the last request that is not reusable (the agent's own bundle). */
function timedBundler(inner: Bundler): Bundler & { ms: number; agentRequest?: BundleRequest } {
  const timed: Bundler & { ms: number; agentRequest?: BundleRequest } = {
    ms: 0,
    async bundle(request) {
      if (!request.reusable) timed.agentRequest = request;
      const start = performance.now();
      try {
        return await inner.bundle(request);
      } finally {
        timed.ms += performance.now() - start;
      }
    },
    dispose: () => inner.dispose(),
  };
  return timed;
}

const MEASUREMENTS = [
  'compile',
  'compile-no-context',
  'compile-own-stamp',
  'compile-fresh-bundler',
  'bare-esbuild',
  'compile-cpu',
  'bare-esbuild-cpu',
  'plan',
  'workspace',
  'emit',
  'bundle',
  'adapter',
  'write',
] as const;
type Measurement = (typeof MEASUREMENTS)[number];
const noTimes = () => Object.fromEntries(MEASUREMENTS.map((m) => [m, [] as number[]])) as Record<Measurement, number[]>;

/** Times `run` and adds the CPU time this Node process spent meanwhile (esbuild's own process not included) to `cpu`: a figure the machine's load barely moves. */
async function timeWithCpu(run: () => Promise<void>, cpu: number[]): Promise<number> {
  const before = process.cpuUsage();
  const ms = await timeAsync(run);
  const used = process.cpuUsage(before);
  cpu.push((used.user + used.system) / 1000);
  return ms;
}

async function benchTarget(target: CompileTarget): Promise<void> {
  const file = AGENTS[target];
  const out = join(ROOT, 'tmp', 'bench-compile', target);
  rmSync(out, { recursive: true, force: true });
  const bundler = timedBundler(createEsbuildBundler({ workspaceRoot: ROOT, incremental: true }));
  const noContext = createEsbuildBundler({ workspaceRoot: ROOT });
  const sessionStamps = sharedSourceStampReader();
  const compile = async (shared: Bundler | undefined, readSourceStamp?: SourceStampReader) => {
    const result = await compileAgent({
      file,
      workspaceRoot: ROOT,
      target,
      outDir: join(out, 'compiled'),
      ...(shared ? { bundler: shared } : {}),
      ...(readSourceStamp ? { readSourceStamp } : {}),
    });
    if (!result.files)
      throw new Error(
        `compile of ${file} for ${target} failed: ${result.ioError ?? result.diagnostics.map((d) => d.message).join('; ')}`,
      );
  };
  await compile(bundler, sessionStamps);
  const request = bundler.agentRequest;
  if (!request) throw new Error(`the ${target} compile bundled nothing of its own`);
  const bareOptions = bareBuildOptions(
    request,
    writeRequestSources(request, join(out, 'bare-src')),
    join(out, 'bare'),
    ROOT,
  );
  const bare = async () => void (await build(bareOptions));

  // The stages, one by one, as compileAgent chains them.
  const stages = async (times: Record<Measurement, number[]>) => {
    let planned: Awaited<ReturnType<typeof planAgent>> | undefined;
    times.plan.push(
      await timeAsync(async () => void (planned = await planAgent({ file, workspaceRoot: ROOT, target }))),
    );
    let workspace: ReturnType<typeof loadWorkspaceConfig> | undefined;
    times.workspace.push(await timeAsync(() => void (workspace = loadWorkspaceConfig(ROOT))));
    bundler.ms = 0;
    let emitted: Awaited<ReturnType<typeof emitAgent>> | undefined;
    const emitMs = await timeAsync(
      async () =>
        void (emitted = await emitAgent(
          { plan: planned!.plan!, resolved: planned!.resolved! },
          { workspaceRoot: ROOT, workspace: workspace!.config, bundler },
        )),
    );
    times.emit.push(emitMs);
    times.bundle.push(bundler.ms);
    times.adapter.push(emitMs - bundler.ms);
    const files = emitted!.files!;
    times.write.push(
      await timeAsync(async () => void (await writeOutputAtomic(join(out, 'staged'), files, { workspaceRoot: ROOT }))),
    );
  };

  await bare();
  await compile(undefined);
  await compile(noContext, sessionStamps);
  await stages(noTimes()); // warm-up
  const times = noTimes();
  for (let i = 0; i < RUNS; i++) {
    times.compile.push(await timeWithCpu(() => compile(bundler, sessionStamps), times['compile-cpu']));
    times['compile-no-context'].push(await timeAsync(() => compile(noContext, sessionStamps)));
    times['compile-own-stamp'].push(await timeAsync(() => compile(bundler)));
    times['bare-esbuild'].push(await timeWithCpu(bare, times['bare-esbuild-cpu']));
    times['compile-fresh-bundler'].push(await timeAsync(() => compile(undefined)));
    await stages(times);
  }
  await bundler.dispose();
  const ms = (m: Measurement) => median(times[m]);
  for (const m of MEASUREMENTS) report(`compile.${target}.${m}.ms`, ms(m));
  report(`compile.${target}.ratio`, ms('compile') / ms('bare-esbuild'));
  report(`compile.${target}.ratio.no-context`, ms('compile-no-context') / ms('bare-esbuild'));
  report(`compile.${target}.ratio.own-stamp`, ms('compile-own-stamp') / ms('bare-esbuild'));
  report(`compile.${target}.ratio.fresh-bundler`, ms('compile-fresh-bundler') / ms('bare-esbuild'));
  report(`compile.${target}.ratio.bundle-in-compile`, ms('bundle') / ms('bare-esbuild'));
}

async function main(): Promise<void> {
  const targets = (process.env.BENCH_TARGETS?.split(',') ?? Object.keys(AGENTS)) as CompileTarget[];
  for (const target of targets) await benchTarget(target);
  report('settings', `runs=${RUNS}${QUICK ? ' (quick)' : ''} node=${process.version}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
