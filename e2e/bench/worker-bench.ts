/**
 * Benchmarks of the Cloudflare Worker adapter against hand-written or bare baselines, printed as
 * `name: value` lines (run: `node -r @swc-node/register e2e/bench/worker-bench.ts`):
 *  (a) requests per second of the compiled tool-only text-stats agent in workerd (miniflare),
 *      against minimal-a2a-worker.ts doing the same work (goal: ratio ≥ 0.9); the compiled agent
 *      is measured as an ordinary Worker keeping its tasks in memory (no task-store binding), as
 *      wrangler.jsonc deploys it (its tasks in the AgentTaskStore Durable Object, whose SQLite
 *      files miniflare keeps under /dev/shm when there is one, so the disk's fsync is not what is
 *      measured) and, for information, behind its loader; on Linux also the CPU time workerd
 *      spends per request (workerd-cpu.ts), which the load on the machine moves far less;
 *  (a') with the task store on, against minimal-durable-a2a-worker.ts (the hand-written Worker
 *      keeping the same task in a SQLite-backed Durable Object): request rate (goal ≥ 0.9×) and
 *      p99 latency (goal ≤ 1.15×: each round's nearest-rank p99 over the baseline's of the same
 *      round, the median over rounds; the pooled p99 of every request of every round is printed as
 *      `p99.ratio.pooled.*`) of the compiled Worker as wrangler.jsonc deploys it and behind its
 *      loader with the object bound (as `agentdef dev` serves it); the rounds are counterbalanced
 *      and each measurement starts on a collected heap and a settled machine (interleaved-rounds.ts);
 *  (a'') first-request latency of a fresh isolate (`BENCH_ONLY=first`): workerd started afresh,
 *      the first SendMessage timed, the median over several starts (each run starting one Worker
 *      later than the one before; `*.paired-by-run`: the median of each run's ratio), for the
 *      compiled Worker (as deployed, and behind its loader) against the official SDK Worker
 *      (sdk-a2a-worker.ts; goal ≤ 1.1×), both as it echoes and as it runs the same text-metrics tool
 *      (sdk-text-stats-worker.ts: `first-request.ratio.same-work`);
 *  (b) bundle size of the compiled worker.js of a tool-only agent (text-stats) and of an agentic
 *      leaf (web-summarizer), in KiB, against a minimal A2A Worker built from the official
 *      `@a2a-js/sdk` server classes (sdk-a2a-worker.ts) bundled with the same esbuild settings
 *      (goals: tool-only ≤ 0.5, agentic leaf ≤ 1); the hand-written Worker, for context; and what
 *      each compiled Worker is made of, by feature (bundle-profile.ts); the same Workers compiled
 *      with the package as built for npm (installed-bundle.ts: the sizes users get);
 *  (c) compile time of the agent (load, validate, resolve, plan, generate, bundle, write) against
 *      bare esbuild bundling its generated entry with the same options and writing the bundle
 *      (goal: ratio ≤ 1.5), both warm, medians of several runs; and, for information, the
 *      adapter's emit alone (in memory) against the same baseline.
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Plugin } from 'esbuild';
import { Miniflare } from 'miniflare';
import type { Readable } from 'node:stream';
import { durableObjectsOf } from '../../plugin/targets/cloudflare-dynamic-worker/dev-worker-host';
import { createEsbuildBundler } from '../../plugin/compiler/bundle';
import { compileAgent, emitAgent, planAgent } from '../../plugin/compiler/compile';
import { loadWorkspaceConfig } from '../../plugin/compiler/workspace-config';
import { bundleLoader } from '../worker/support/start-compiled-worker';
import { median, report, timeAsync } from './bench-support';
import { freshHeap, pairedMedian, percentile, roundOrder, settled } from './interleaved-rounds';
import { bundleProfile } from './bundle-profile';
import { installedWorkerKib } from './installed-bundle';
import { cpuNs, startedWorkerd } from './workerd-cpu';
import { COMPATIBILITY_DATE } from '../../plugin/targets/cloudflare-dynamic-worker/worker-constants';

const ROOT = join(__dirname, '..', '..');
const QUICK = process.env.BENCH_QUICK === '1';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (QUICK ? 2 : 5));
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? (QUICK ? 500 : 2000));
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const COMPILE_RUNS = Number(process.env.BENCH_COMPILE_RUNS ?? (QUICK ? 5 : 15));
const FIRST_RUNS = Number(process.env.BENCH_FIRST_RUNS ?? (QUICK ? 3 : 7));
/** `BENCH_ONLY=bundle,compile,rps,first,installed`: the sections to run (default all). */
const ONLY = new Set((process.env.BENCH_ONLY ?? 'bundle,compile,rps,first,installed').split(',').map((s) => s.trim()));
/**
 * `BENCH_BEFORE=<dir>`: a text-stats output compiled by another tree (say, the commit before a
 * change); its Worker joins the request rounds in memory as `before` and, with its loader, the
 * Durable Object rounds as `before-*`, interleaved.
 */
const BEFORE = process.env.BENCH_BEFORE;
/**
 * `BENCH_FIRST_WORKERS=compiled,sdk-same-work,before`: only these Workers in the first-request starts
 * (default all), so a run's starts lie closer together in time; ratios need both of theirs.
 */
const FIRST_WORKERS = process.env.BENCH_FIRST_WORKERS
  ? new Set(process.env.BENCH_FIRST_WORKERS.split(',').map((s) => s.trim()))
  : undefined;
/** `BENCH_SERVERS=compiled-durable,handwritten-durable,…`: only these Workers in the request rounds (default all); ratios need both of theirs. */
const SERVERS = process.env.BENCH_SERVERS
  ? new Set(process.env.BENCH_SERVERS.split(',').map((s) => s.trim()))
  : undefined;
const TEXT =
  'Workers run agents in isolates. Each agent gets its own isolate.\nIsolates share nothing, so agents stay apart.\n\nThat is the point.';
const BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'SendMessage',
  params: { message: { messageId: 'bench', role: 'ROLE_USER', parts: [{ text: TEXT }] } },
});

const ESBUILD_OPTIONS = {
  bundle: true,
  write: false,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  minify: true,
  treeShaking: true,
  legalComments: 'eof',
  charset: 'utf8',
  logLevel: 'silent',
} as const;

interface StartedWorker {
  url: string;
  /** The workerd process serving it, when it can be told (Linux). */
  pid: string | undefined;
  dispose: () => Promise<void>;
}

type DurableObjects = Record<string, { className: string; useSQLite: true }>;

/** Starts `script` in workerd; `durableObjects` binds the Durable Objects it declares, their SQLite files under `persistDir`. */
async function startWorker(
  script: string,
  durable?: { objects: DurableObjects; persistDir: string | undefined },
): Promise<StartedWorker> {
  const { started: mf, pid } = await startedWorkerd(async () => {
    const instance = new Miniflare({
      modules: true,
      script,
      compatibilityDate: COMPATIBILITY_DATE,
      workerLoaders: { LOADER: {} },
      ...(durable
        ? {
            durableObjects: durable.objects,
            ...(durable.persistDir ? { durableObjectsPersist: durable.persistDir } : {}),
          }
        : {}),
      handleRuntimeStdio: (stdout: Readable, stderr: Readable) => {
        stdout.resume();
        stderr.resume();
      },
    });
    await instance.ready;
    return instance;
  });
  const url = (await mf.ready).toString().replace(/\/$/, '');
  return { url, pid, dispose: () => mf.dispose() };
}

/** Requests per second for `REQUESTS` SendMessage calls, `CONCURRENCY` at a time (checking every answer), each one's latency, and workerd's CPU microseconds per request. */
async function measureRequests(
  server: StartedWorker,
): Promise<{ rate: number; latencies: number[]; cpuUs: number | undefined }> {
  const before = cpuNs(server.pid);
  const { rate, latencies } = await requestsPerSecond(server.url);
  const after = cpuNs(server.pid);
  return {
    rate,
    latencies,
    cpuUs: before === undefined || after === undefined ? undefined : (after - before) / REQUESTS / 1000,
  };
}

/** One SendMessage, its answer checked (a completed task). */
async function sendMessage(url: string): Promise<void> {
  const response = await fetch(`${url}/a2a/v1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: BODY,
  });
  const answer = (await response.json()) as { result?: { task?: { status?: { state?: string } } } };
  if (answer.result?.task?.status?.state !== 'TASK_STATE_COMPLETED')
    throw new Error(`unexpected answer: ${JSON.stringify(answer)}`);
}

/** Requests per second for `REQUESTS` SendMessage calls, `CONCURRENCY` at a time, and each one's latency (ms); checks every answer. */
async function requestsPerSecond(url: string): Promise<{ rate: number; latencies: number[] }> {
  let next = 0;
  const latencies: number[] = [];
  const worker = async () => {
    while (next < REQUESTS) {
      next++;
      const start = performance.now();
      await sendMessage(url);
      latencies.push(performance.now() - start);
    }
  };
  const elapsed = await timeAsync(() => Promise.all(Array.from({ length: CONCURRENCY }, worker)).then(() => undefined));
  return { rate: REQUESTS / (elapsed / 1000), latencies };
}

/** The SDK Worker's first SendMessage (it echoes, answering a message): checked as answered. */
async function sdkSendMessage(url: string): Promise<void> {
  const response = await fetch(`${url}/a2a/v1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: BODY,
  });
  const answer = (await response.json()) as { result?: unknown; error?: unknown };
  if (answer.result === undefined) throw new Error(`unexpected SDK answer: ${JSON.stringify(answer)}`);
}

/**
 * Milliseconds from a fresh workerd's readiness to the end of its first SendMessage, and the
 * workerd process's CPU milliseconds up to readiness (the isolate's start: what a Worker does at
 * load shows here, not in the first request) and over the request (Linux only).
 */
async function firstRequestMs(
  script: string,
  send: (url: string) => Promise<void>,
  durable?: { objects: DurableObjects; persistDir: string | undefined },
): Promise<{ ms: number; startCpuMs: number | undefined; startAndFirstCpuMs: number | undefined }> {
  const server = await startWorker(script, durable);
  try {
    const atReady = cpuNs(server.pid);
    const ms = await timeAsync(() => send(server.url));
    const atAnswer = cpuNs(server.pid);
    return {
      ms,
      startCpuMs: atReady === undefined ? undefined : atReady / 1e6,
      startAndFirstCpuMs: atAnswer === undefined ? undefined : atAnswer / 1e6,
    };
  } finally {
    await server.dispose();
  }
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
      b.onResolve({ filter: /^agentdef:/ }, (args) => ({
        path: map[args.path] ?? join(ROOT, args.path.slice('agentdef:workspace/'.length)),
      }));
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
  const compile = () =>
    compileAgent({
      file: 'examples/text-stats/agent.json',
      workspaceRoot: ROOT,
      target: 'cloudflare-dynamic-worker',
      outDir,
      bundler,
    });
  const first = await compile();
  if (!first.files)
    throw new Error(`compile failed: ${first.ioError ?? first.diagnostics.map((d) => d.message).join('; ')}`);
  const compiledWorker = readFileSync(join(outDir, 'worker.js'), 'utf8');
  const loaderScript = await bundleLoader(outDir);
  const baseline = (await build({ ...ESBUILD_OPTIONS, entryPoints: [join(__dirname, 'minimal-a2a-worker.ts')] }))
    .outputFiles[0]!.text;
  const sdkWorker = (await build({ ...ESBUILD_OPTIONS, entryPoints: [join(__dirname, 'sdk-a2a-worker.ts')] }))
    .outputFiles[0]!.text;
  const sdkTextStatsWorker = (
    await build({ ...ESBUILD_OPTIONS, entryPoints: [join(__dirname, 'sdk-text-stats-worker.ts')] })
  ).outputFiles[0]!.text;
  const durableBaseline = (
    await build({
      ...ESBUILD_OPTIONS,
      entryPoints: [join(__dirname, 'minimal-durable-a2a-worker.ts')],
      external: ['cloudflare:*'],
    })
  ).outputFiles[0]!.text;
  const agenticDir = join(out, 'web-summarizer');
  const agentic = await compileAgent({
    file: 'examples/web-summarizer/agent.json',
    workspaceRoot: ROOT,
    target: 'cloudflare-dynamic-worker',
    outDir: agenticDir,
    bundler,
  });
  if (!agentic.files)
    throw new Error(`compile failed: ${agentic.ioError ?? agentic.diagnostics.map((d) => d.message).join('; ')}`);
  const agenticWorker = readFileSync(join(agenticDir, 'worker.js'), 'utf8');

  const kib = (text: string) => Buffer.byteLength(text) / 1024;
  if (ONLY.has('bundle')) {
    // (b) bundle size, against the SDK's minimal A2A Worker
    const gzipKib = (text: string) => gzipSync(text).length / 1024;
    const sizes = {
      'sdk-a2a': sdkWorker,
      'tool-only': compiledWorker,
      'agentic-leaf': agenticWorker,
      handwritten: baseline,
    };
    for (const [name, text] of Object.entries(sizes)) {
      report(`bundle.${name}.kib`, kib(text));
      report(`bundle.${name}.gzip.kib`, gzipKib(text));
    }
    report('bundle.ratio.tool-only', kib(compiledWorker) / kib(sdkWorker));
    report('bundle.ratio.agentic-leaf', kib(agenticWorker) / kib(sdkWorker));
    report('bundle.ratio.handwritten', kib(baseline) / kib(sdkWorker));
    // What each compiled Worker is made of, by feature (minified KiB; the total is the re-bundled entry).
    const profiled = { 'tool-only': outDir, 'agentic-leaf': agenticDir };
    for (const [name, dir] of Object.entries(profiled)) {
      const parts = await bundleProfile(dir, { aliases: agentdefAliases(), esbuild: { ...ESBUILD_OPTIONS } });
      for (const [feature, size] of Object.entries(parts).sort((a, b) => b[1] - a[1]))
        if (size > 0) report(`bundle.${name}.part.${feature}.kib`, size);
    }
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
    const planned = await planAgent({
      file: 'examples/text-stats/agent.json',
      workspaceRoot: ROOT,
      target: 'cloudflare-dynamic-worker',
    });
    const emitInputs = { workspaceRoot: ROOT, workspace: loadWorkspaceConfig(ROOT).config, bundler };
    const emitOnly = async () =>
      void (await emitAgent({ plan: planned.plan!, resolved: planned.resolved! }, emitInputs));
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
    // (a) requests per second, rounds interleaved so machine load affects all alike
    const persistDir = existsSync('/dev/shm') ? join('/dev/shm', `agentdef-bench-${process.pid}`) : undefined;
    const objects = durableObjectsOf(JSON.parse(readFileSync(join(outDir, 'host-plan.json'), 'utf8')));
    const durable = (dir: string) => ({ objects, persistDir: persistDir && join(persistDir, dir) });
    const starts: Record<string, () => Promise<StartedWorker>> = {
      handwritten: () => startWorker(baseline),
      'handwritten-durable': () =>
        startWorker(durableBaseline, {
          objects: { TASKS: { className: 'HandwrittenTaskStore', useSQLite: true } },
          persistDir: persistDir && join(persistDir, 'handwritten'),
        }),
      compiled: () => startWorker(compiledWorker),
      'compiled-durable': () => startWorker(compiledWorker, durable('compiled')),
      'compiled-through-loader': () => startWorker(loaderScript), // the loader with its host plan inlined, as wrangler bundles it
      // …and with its task-store object bound, as `agentdef dev` serves it (the loaded Worker reaches it through the loader)
      'compiled-through-loader-durable': () => startWorker(loaderScript, durable('loader')),
    };
    if (BEFORE) {
      // The tree before, in memory (beside `compiled`: goal 14.5's line) and with its object.
      starts.before = () => startWorker(readFileSync(join(BEFORE, 'worker.js'), 'utf8'));
      starts['before-durable'] = () => startWorker(readFileSync(join(BEFORE, 'worker.js'), 'utf8'), durable('before'));
      starts['before-through-loader-durable'] = async () =>
        startWorker(await bundleLoader(BEFORE), durable('before-loader'));
    }
    const servers: Record<string, StartedWorker> = {};
    for (const [name, start] of Object.entries(starts))
      if (!SERVERS || SERVERS.has(name)) servers[name] = await start();
    try {
      for (const server of Object.values(servers)) await requestsPerSecond(server.url); // warm-up
      const rates: Record<string, number[]> = {};
      const latencies: Record<string, number[]> = {};
      const roundP99: Record<string, number[]> = {};
      const cpu: Record<string, number[]> = {};
      const settledMs: number[] = [];
      const loadBefore = loadavg()[0]!;
      // Counterbalanced (reversed every other round), each measurement on a collected heap and a settled
      // machine (interleaved-rounds.ts): no server gains or loses by where it sits in a round.
      for (let round = 0; round < ROUNDS; round++) {
        for (const name of roundOrder(Object.keys(servers), round)) {
          const server = servers[name]!;
          freshHeap();
          const measured = await measureRequests(server);
          (rates[name] ??= []).push(measured.rate);
          (latencies[name] ??= []).push(...measured.latencies);
          (roundP99[name] ??= []).push(percentile(measured.latencies, 99));
          if (measured.cpuUs !== undefined) (cpu[name] ??= []).push(measured.cpuUs);
          settledMs.push(await settled(() => cpuNs(server.pid)));
        }
      }
      report('rps.loadavg', `${loadBefore.toFixed(1)} -> ${loadavg()[0]!.toFixed(1)}`);
      report('rps.settle-wait.median', median(settledMs), 'ms');
      const rate = (name: string) => median(rates[name]!);
      /** The median over the rounds of each round's p99 (a busy round counts once, not for its share of the pooled samples). */
      const p99 = (name: string) => median(roundP99[name]!);
      const pooledP99 = (name: string) => percentile(latencies[name]!, 99);
      /** `name: a / b`, paired round by round (both measured in the same round), when both were measured. */
      const pairedRatio = (name: string, of: Record<string, number[]>, a: string, b: string) => {
        if (servers[a] && servers[b] && of[a] && of[b]) report(name, pairedMedian(of[a]!, of[b]!));
      };
      const cpuOf = (name: string) => median(cpu[name]!);
      /** `name: a / b` of `of`, when both were measured. */
      const ratio = (name: string, of: (server: string) => number, a: string, b: string) => {
        if (servers[a] && servers[b]) report(name, of(a) / of(b));
      };
      for (const name of Object.keys(servers)) report(`rps.${name}`, rate(name));
      for (const name of Object.keys(servers)) report(`p99.${name}`, p99(name), 'ms');
      for (const name of Object.keys(servers)) report(`p99.pooled.${name}`, pooledP99(name), 'ms');
      // Round by round (odd rounds ran in reverse order), to see a drift or an order effect.
      const rounds = (values: number[]) => values.map((value) => value.toFixed(1)).join(' ');
      for (const name of Object.keys(servers)) report(`rps.rounds.${name}`, rounds(rates[name]!));
      for (const name of Object.keys(servers)) report(`p99.rounds.${name}`, rounds(roundP99[name]!), 'ms');
      ratio('rps.ratio', rate, 'compiled', 'handwritten');
      ratio('rps.ratio.durable', rate, 'compiled-durable', 'handwritten');
      ratio('rps.ratio.through-loader', rate, 'compiled-through-loader', 'handwritten');
      ratio('rps.ratio.durable-vs-handwritten-durable', rate, 'compiled-durable', 'handwritten-durable');
      ratio('rps.ratio.loader-vs-handwritten-durable', rate, 'compiled-through-loader-durable', 'handwritten-durable');
      pairedRatio('rps.ratio.paired.durable-vs-handwritten-durable', rates, 'compiled-durable', 'handwritten-durable');
      pairedRatio(
        'rps.ratio.paired.loader-vs-handwritten-durable',
        rates,
        'compiled-through-loader-durable',
        'handwritten-durable',
      );
      // p99 ratios: each round's p99 of the candidate over the baseline's in the same round, the median over rounds.
      pairedRatio('p99.ratio.durable', roundP99, 'compiled-durable', 'handwritten-durable');
      pairedRatio('p99.ratio.loader', roundP99, 'compiled-through-loader-durable', 'handwritten-durable');
      // …and as they were taken before (the nearest rank over every request of every round), for comparison.
      ratio('p99.ratio.pooled.durable', pooledP99, 'compiled-durable', 'handwritten-durable');
      ratio('p99.ratio.pooled.loader', pooledP99, 'compiled-through-loader-durable', 'handwritten-durable');
      ratio('rps.ratio.before', rate, 'before', 'handwritten');
      pairedRatio('rps.ratio.paired', rates, 'compiled', 'handwritten');
      pairedRatio('rps.ratio.paired.before', rates, 'before', 'handwritten');
      pairedRatio('rps.ratio.paired.after-vs-before', rates, 'compiled', 'before');
      ratio('rps.ratio.before-durable-vs-handwritten-durable', rate, 'before-durable', 'handwritten-durable');
      ratio(
        'rps.ratio.before-loader-vs-handwritten-durable',
        rate,
        'before-through-loader-durable',
        'handwritten-durable',
      );
      pairedRatio('p99.ratio.before-durable', roundP99, 'before-durable', 'handwritten-durable');
      pairedRatio('p99.ratio.before-loader', roundP99, 'before-through-loader-durable', 'handwritten-durable');
      if (Object.keys(cpu).length === Object.keys(servers).length) {
        for (const name of Object.keys(servers)) report(`rps.workerd-cpu-per-request.${name}`, cpuOf(name), 'µs');
        ratio('rps.workerd-cpu-ratio', cpuOf, 'compiled', 'handwritten');
        ratio('rps.workerd-cpu-ratio.durable', cpuOf, 'compiled-durable', 'handwritten');
        ratio('rps.workerd-cpu-ratio.durable-vs-handwritten-durable', cpuOf, 'compiled-durable', 'handwritten-durable');
        ratio(
          'rps.workerd-cpu-ratio.loader-vs-handwritten-durable',
          cpuOf,
          'compiled-through-loader-durable',
          'handwritten-durable',
        );
        ratio(
          'rps.workerd-cpu-ratio.before-durable-vs-handwritten-durable',
          cpuOf,
          'before-durable',
          'handwritten-durable',
        );
        // Paired, round by round (the two measured one after the other): the median of after / before.
        const paired = (a: string, b: string) =>
          servers[a] && servers[b] ? median(cpu[a]!.map((value, round) => value / cpu[b]![round]!)) : undefined;
        for (const [name, a, b] of [
          ['in-memory', 'compiled', 'before'],
          ['durable', 'compiled-durable', 'before-durable'],
          ['loader', 'compiled-through-loader-durable', 'before-through-loader-durable'],
        ] as const) {
          const value = paired(a, b);
          if (value !== undefined) report(`rps.workerd-cpu-ratio.after-vs-before.${name}`, value);
        }
        ratio(
          'rps.workerd-cpu-ratio.before-loader-vs-handwritten-durable',
          cpuOf,
          'before-through-loader-durable',
          'handwritten-durable',
        );
      }
      report('rps.durable-storage', persistDir ? 'tmpfs (/dev/shm)' : "miniflare's default (disk)");
    } finally {
      for (const server of Object.values(servers)) await server.dispose();
      if (persistDir) rmSync(persistDir, { recursive: true, force: true });
    }
  }

  if (ONLY.has('first')) {
    // (a'') first-request latency of a fresh isolate: workerd started afresh for every measurement, interleaved
    const persistDir = existsSync('/dev/shm') ? join('/dev/shm', `agentdef-bench-first-${process.pid}`) : undefined;
    const objects = durableObjectsOf(JSON.parse(readFileSync(join(outDir, 'host-plan.json'), 'utf8')));
    const starts: Record<string, () => ReturnType<typeof firstRequestMs>> = {
      sdk: () => firstRequestMs(sdkWorker, sdkSendMessage),
      'sdk-same-work': () => firstRequestMs(sdkTextStatsWorker, sdkSendMessage),
      compiled: () => firstRequestMs(compiledWorker, sendMessage, { objects, persistDir }),
      'compiled-through-loader': () => firstRequestMs(loaderScript, sendMessage, { objects, persistDir }),
      // for information: the compiled Worker keeping its tasks in memory, and the hand-written Workers
      'compiled-in-memory': () => firstRequestMs(compiledWorker, sendMessage),
      handwritten: () => firstRequestMs(baseline, sendMessage),
      'handwritten-durable': () =>
        firstRequestMs(durableBaseline, sendMessage, {
          objects: { TASKS: { className: 'HandwrittenTaskStore', useSQLite: true } },
          persistDir,
        }),
    };
    if (BEFORE) {
      const beforeWorker = readFileSync(join(BEFORE, 'worker.js'), 'utf8');
      starts['before'] = () => firstRequestMs(beforeWorker, sendMessage, { objects, persistDir });
    }
    try {
      const times: Record<string, number[]> = {};
      const startCpu: Record<string, number[]> = {};
      const startAndFirstCpu: Record<string, number[]> = {};
      const names = Object.keys(starts).filter((name) => !FIRST_WORKERS || FIRST_WORKERS.has(name));
      for (let run = 0; run < FIRST_RUNS; run++) {
        // Each run starts one Worker later than the run before, so none is always the one measured after another.
        for (let i = 0; i < names.length; i++) {
          const name = names[(i + run) % names.length]!;
          if (persistDir) rmSync(persistDir, { recursive: true, force: true });
          const start = await starts[name]!();
          (times[name] ??= []).push(start.ms);
          if (start.startCpuMs !== undefined) (startCpu[name] ??= []).push(start.startCpuMs);
          if (start.startAndFirstCpuMs !== undefined) (startAndFirstCpu[name] ??= []).push(start.startAndFirstCpuMs);
        }
      }
      /** The median over runs of a / b, each run's two starts taken under the same load. */
      const pairedByRun = (name: string, a: string, b: string) => {
        if (times[a] && times[b]) report(name, median(times[a].map((value, run) => value / times[b]![run]!)));
      };
      /** `name: median(a) / median(b)`, when both were measured. */
      const ratio = (name: string, a: string, b: string) => {
        if (times[a] && times[b]) report(name, median(times[a]) / median(times[b]));
      };
      for (const name of names) report(`first-request.${name}.ms`, median(times[name]!));
      // The isolate's start (workerd's CPU to readiness, most of it workerd's own) and start + first
      // request: work a Worker moves to its start shows in the first line and not in the first request.
      for (const name of names) {
        if (startCpu[name]?.length === FIRST_RUNS) report(`first-request.${name}.start-cpu-ms`, median(startCpu[name]));
        if (startAndFirstCpu[name]?.length === FIRST_RUNS)
          report(`first-request.${name}.start-and-first-cpu-ms`, median(startAndFirstCpu[name]));
      }
      /** The median over runs of a − b (CPU ms), each run's two starts taken under the same load. */
      const cpuDeltaByRun = (name: string, cpu: Record<string, number[]>, a: string, b: string) => {
        if (cpu[a]?.length === FIRST_RUNS && cpu[b]?.length === FIRST_RUNS)
          report(name, median(cpu[a].map((value, run) => value - cpu[b]![run]!)));
      };
      cpuDeltaByRun(
        'first-request.start-cpu-ms.compiled-minus-sdk-same-work.paired-by-run',
        startCpu,
        'compiled',
        'sdk-same-work',
      );
      cpuDeltaByRun(
        'first-request.start-and-first-cpu-ms.compiled-minus-sdk-same-work.paired-by-run',
        startAndFirstCpu,
        'compiled',
        'sdk-same-work',
      );
      cpuDeltaByRun('first-request.start-cpu-ms.after-minus-before.paired-by-run', startCpu, 'compiled', 'before');
      cpuDeltaByRun(
        'first-request.start-and-first-cpu-ms.after-minus-before.paired-by-run',
        startAndFirstCpu,
        'compiled',
        'before',
      );
      ratio('first-request.ratio', 'compiled', 'sdk');
      ratio('first-request.ratio.through-loader', 'compiled-through-loader', 'sdk');
      // The same work on both sides: the SDK Worker running the text-metrics tool (its first Intl.Segmenter included).
      ratio('first-request.ratio.same-work', 'compiled', 'sdk-same-work');
      pairedByRun('first-request.ratio.same-work.paired-by-run', 'compiled', 'sdk-same-work');
      pairedByRun('first-request.ratio.vs-handwritten-durable.paired-by-run', 'compiled', 'handwritten-durable');
      pairedByRun('first-request.ratio.after-vs-before.paired-by-run', 'compiled', 'before');
      ratio('first-request.ratio.same-work.through-loader', 'compiled-through-loader', 'sdk-same-work');
      ratio('first-request.ratio.before', 'before', 'sdk');
      // The change's own figure against the same baseline, to read beside the goal line.
      ratio('first-request.ratio.same-work.before', 'before', 'sdk-same-work');
      pairedByRun('first-request.ratio.same-work.before.paired-by-run', 'before', 'sdk-same-work');
    } finally {
      if (persistDir) rmSync(persistDir, { recursive: true, force: true });
    }
  }

  if (ONLY.has('installed')) {
    // (b, continued) the same Workers compiled with the package as built for npm: the sizes users get
    try {
      const installed = await installedWorkerKib(ROOT, out, ['text-stats', 'web-summarizer']);
      report('bundle.installed.tool-only.kib', installed['text-stats']!);
      report('bundle.installed.agentic-leaf.kib', installed['web-summarizer']!);
      report('bundle.installed.ratio.tool-only', installed['text-stats']! / kib(sdkWorker));
      report('bundle.installed.ratio.agentic-leaf', installed['web-summarizer']! / kib(sdkWorker));
    } catch (error) {
      report('bundle.installed.error', error instanceof Error ? error.message.split('\n')[0]! : String(error));
    }
  }

  report(
    'settings',
    `rounds=${ROUNDS} requests=${REQUESTS} concurrency=${CONCURRENCY} compileRuns=${COMPILE_RUNS} firstRuns=${FIRST_RUNS}`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
