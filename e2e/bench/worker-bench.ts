/**
 * Benchmarks of the Cloudflare Worker adapter against hand-written or bare baselines, printed as
 * `name: value` lines (run: `node -r @swc-node/register e2e/bench/worker-bench.ts`):
 *  (a) requests per second of the compiled tool-only text-stats agent in workerd (miniflare),
 *      against minimal-a2a-worker.ts doing the same work (goal: ratio ≥ 0.9); the compiled agent
 *      is measured as an ordinary Worker (what wrangler.jsonc deploys) and, for information,
 *      behind its loader;
 *  (b) bundle size of the compiled worker.js of a tool-only agent (text-stats) and of an agentic
 *      leaf (web-summarizer), in KiB, against a minimal A2A Worker built from the official
 *      `@a2a-js/sdk` server classes (sdk-a2a-worker.ts) bundled with the same esbuild settings
 *      (goals: tool-only ≤ 0.5, agentic leaf ≤ 1); the hand-written Worker, for context;
 *  (c) compile time of the agent (load, validate, resolve, plan, generate, bundle, write) against
 *      bare esbuild bundling its generated entry with the same options and writing the bundle
 *      (goal: ratio ≤ 1.5), both warm, medians of several runs; and, for information, the
 *      adapter's emit alone (in memory) against the same baseline.
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Plugin } from 'esbuild';
import { Miniflare } from 'miniflare';
import type { Readable } from 'node:stream';
import { createEsbuildBundler } from '../../plugin/compiler/bundle';
import { compileAgent, emitAgent, planAgent } from '../../plugin/compiler/compile';
import { loadWorkspaceConfig } from '../../plugin/compiler/workspace-config';
import { bundleLoader } from '../worker/support/start-compiled-worker';
import { median, report, timeAsync } from './bench-support';

const ROOT = join(__dirname, '..', '..');
const QUICK = process.env.BENCH_QUICK === '1';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (QUICK ? 2 : 5));
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? (QUICK ? 500 : 2000));
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const COMPILE_RUNS = Number(process.env.BENCH_COMPILE_RUNS ?? (QUICK ? 5 : 15));
/** `BENCH_ONLY=bundle,compile,rps`: the sections to run (default all). */
const ONLY = new Set((process.env.BENCH_ONLY ?? 'bundle,compile,rps').split(',').map((s) => s.trim()));
const TEXT = 'Workers run agents in isolates. Each agent gets its own isolate.\nIsolates share nothing, so agents stay apart.\n\nThat is the point.';
const BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: { messageId: 'bench', role: 'ROLE_USER', parts: [{ text: TEXT }] } } });

const ESBUILD_OPTIONS = { bundle: true, write: false, format: 'esm', platform: 'neutral', target: 'es2022', minify: true, treeShaking: true, legalComments: 'eof', charset: 'utf8', logLevel: 'silent' } as const;

async function startWorker(script: string): Promise<{ url: string; dispose: () => Promise<void> }> {
  const mf = new Miniflare({
    modules: true,
    script,
    compatibilityDate: '2026-07-01',
    workerLoaders: { LOADER: {} },
    handleRuntimeStdio: (stdout: Readable, stderr: Readable) => {
      stdout.resume();
      stderr.resume();
    },
  });
  const url = (await mf.ready).toString().replace(/\/$/, '');
  return { url, dispose: () => mf.dispose() };
}

/** Requests per second for `REQUESTS` SendMessage calls, `CONCURRENCY` at a time; checks every answer. */
async function requestsPerSecond(url: string): Promise<number> {
  let next = 0;
  const worker = async () => {
    while (next < REQUESTS) {
      next++;
      const response = await fetch(`${url}/a2a/v1`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY });
      const answer = (await response.json()) as { result?: { task?: { status?: { state?: string } } } };
      if (answer.result?.task?.status?.state !== 'TASK_STATE_COMPLETED') throw new Error(`unexpected answer: ${JSON.stringify(answer)}`);
    }
  };
  const elapsed = await timeAsync(() => Promise.all(Array.from({ length: CONCURRENCY }, worker)).then(() => undefined));
  return REQUESTS / (elapsed / 1000);
}

/** The alias plugin bare esbuild needs to bundle the generated entry (the same mapping the adapter uses). */
function agentdefAliases(): Plugin {
  const map: Record<string, string> = {
    'agentdef:runtime': join(ROOT, 'plugin/runtime/index.ts'),
    'agentdef:worker-host': join(ROOT, 'plugin/hosts/worker/index.ts'),
  };
  return {
    name: 'agentdef-aliases',
    setup(b) {
      b.onResolve({ filter: /^agentdef:/ }, (args) => ({ path: map[args.path] ?? join(ROOT, args.path.slice('agentdef:workspace/'.length)) }));
    },
  };
}

async function main(): Promise<void> {
  const out = join(ROOT, 'tmp', 'bench-worker');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const outDir = join(out, 'text-stats');
  // One bundler for the whole run, as a long-lived host keeps: the loader (agentdef's own code) is bundled once.
  const bundler = createEsbuildBundler({ workspaceRoot: ROOT });
  const compile = () => compileAgent({ file: 'examples/text-stats/agent.json', workspaceRoot: ROOT, target: 'cloudflare-dynamic-worker', outDir, bundler });
  const first = await compile();
  if (!first.files) throw new Error(`compile failed: ${first.ioError ?? first.diagnostics.map((d) => d.message).join('; ')}`);
  const compiledWorker = readFileSync(join(outDir, 'worker.js'), 'utf8');
  const loaderScript = await bundleLoader(outDir);
  const baseline = (await build({ ...ESBUILD_OPTIONS, entryPoints: [join(__dirname, 'minimal-a2a-worker.ts')] })).outputFiles[0]!.text;
  const sdkWorker = (await build({ ...ESBUILD_OPTIONS, entryPoints: [join(__dirname, 'sdk-a2a-worker.ts')] })).outputFiles[0]!.text;
  const agenticDir = join(out, 'web-summarizer');
  const agentic = await compileAgent({ file: 'examples/web-summarizer/agent.json', workspaceRoot: ROOT, target: 'cloudflare-dynamic-worker', outDir: agenticDir, bundler });
  if (!agentic.files) throw new Error(`compile failed: ${agentic.ioError ?? agentic.diagnostics.map((d) => d.message).join('; ')}`);
  const agenticWorker = readFileSync(join(agenticDir, 'worker.js'), 'utf8');

  if (ONLY.has('bundle')) {
    // (b) bundle size, against the SDK's minimal A2A Worker
    const kib = (text: string) => Buffer.byteLength(text) / 1024;
    const gzipKib = (text: string) => gzipSync(text).length / 1024;
    const sizes = { 'sdk-a2a': sdkWorker, 'tool-only': compiledWorker, 'agentic-leaf': agenticWorker, handwritten: baseline };
    for (const [name, text] of Object.entries(sizes)) {
      report(`bundle.${name}.kib`, kib(text));
      report(`bundle.${name}.gzip.kib`, gzipKib(text));
    }
    report('bundle.ratio.tool-only', kib(compiledWorker) / kib(sdkWorker));
    report('bundle.ratio.agentic-leaf', kib(agenticWorker) / kib(sdkWorker));
    report('bundle.ratio.handwritten', kib(baseline) / kib(sdkWorker));
  }

  if (ONLY.has('compile')) {
    // (c) compile time, warm: the full compile vs bare esbuild on its generated entry
    // Bare esbuild writes its bundle and map, as the compile writes its output.
    const bareBundle = () =>
      build({
        ...ESBUILD_OPTIONS,
        write: true,
        entryPoints: [join(outDir, 'src', 'index.ts')],
        sourcemap: 'linked',
        outfile: join(out, 'bare', 'worker.js'),
        external: ['cloudflare:*'],
        plugins: [agentdefAliases()],
      }).then(() => undefined);
    const planned = await planAgent({ file: 'examples/text-stats/agent.json', workspaceRoot: ROOT, target: 'cloudflare-dynamic-worker' });
    const emitInputs = { workspaceRoot: ROOT, workspace: loadWorkspaceConfig(ROOT).config, bundler };
    const emitOnly = async () => void (await emitAgent({ plan: planned.plan!, resolved: planned.resolved! }, emitInputs));
    await bareBundle();
    await emitOnly();
    const compileTimes: number[] = [];
    const emitTimes: number[] = [];
    const bareTimes: number[] = [];
    for (let i = 0; i < COMPILE_RUNS; i++) {
      compileTimes.push(await timeAsync(async () => void (await compile())));
      emitTimes.push(await timeAsync(emitOnly));
      bareTimes.push(await timeAsync(bareBundle));
    }
    report('compile.agent.ms', median(compileTimes));
    report('compile.emit-in-memory.ms', median(emitTimes));
    report('compile.bare-esbuild.ms', median(bareTimes));
    report('compile.ratio', median(compileTimes) / median(bareTimes));
    report('compile.ratio.emit-only', median(emitTimes) / median(bareTimes));
  }

  if (ONLY.has('rps')) {
    // (a) requests per second, rounds interleaved so machine load affects both alike
    const compiled = await startWorker(compiledWorker);
    const loaded = await startWorker(loaderScript); // the loader with its host plan inlined, as wrangler bundles it
    const handwritten = await startWorker(baseline);
    try {
      for (const server of [compiled, loaded, handwritten]) await requestsPerSecond(server.url); // warm-up
      const rates = { compiled: [] as number[], loaded: [] as number[], handwritten: [] as number[] };
      for (let round = 0; round < ROUNDS; round++) {
        rates.handwritten.push(await requestsPerSecond(handwritten.url));
        rates.compiled.push(await requestsPerSecond(compiled.url));
        rates.loaded.push(await requestsPerSecond(loaded.url));
      }
      report('rps.handwritten', median(rates.handwritten));
      report('rps.compiled', median(rates.compiled));
      report('rps.compiled-through-loader', median(rates.loaded));
      report('rps.ratio', median(rates.compiled) / median(rates.handwritten));
      report('rps.ratio.through-loader', median(rates.loaded) / median(rates.handwritten));
    } finally {
      for (const server of [compiled, loaded, handwritten]) await server.dispose();
    }
  }

  report('settings', `rounds=${ROUNDS} requests=${REQUESTS} concurrency=${CONCURRENCY} compileRuns=${COMPILE_RUNS}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
