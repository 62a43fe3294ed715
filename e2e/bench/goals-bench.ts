/**
 * Issue 14's and issue 27's goals in one run (`npm run bench:goals`), numbered `<issue>.<goal>`:
 * runs the three benchmarks one after the other (compiler-bench: graph, validate, run-many compile; worker-bench: bundle sizes, request
 * rate; compile-bench: one compile per target against bare esbuild), each of which measures its
 * own baseline in the same process, collects their `name: value` lines and prints each goal's
 * measured ratio against its target, then the same as a Markdown table for docs/performance.md.
 *
 * `BENCH_QUICK=1` is the default here (smaller N, same ratios; a few minutes on 2 cores);
 * `BENCH_FULL=1` runs the benchmarks' full sizes. Nothing here fails on a missed goal: a
 * benchmark reports, it does not assert.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { report } from './bench-support';

const BENCHES = ['compiler-bench.ts', 'worker-bench.ts', 'compile-bench.ts'] as const;

interface GoalCheck {
  goal: string;
  what: string;
  /** The `name` of the benchmark line holding the measured value. */
  line: string;
  target: { atMost: number } | { atLeast: number } | { equals: string };
}

/**
 * Goal 2's plan target is "≥ 10× the first cold figure": 75 plans/s against 77,256 bare Ajv
 * validations/s in the same run then (0.00097 of Ajv). Stated as a ratio to bare Ajv so that it
 * holds under any load, like every other target here.
 */
const FIRST_COLD_PLAN_RATIO_VS_AJV = 75 / 77_256;

const GOALS: readonly GoalCheck[] = [
  {
    goal: '14.1',
    what: 'batch compile, cold, s per agent',
    line: 'compile_cold_s_per_agent_batch',
    target: { atMost: 0.2 },
  },
  {
    goal: '14.1',
    what: 'batch / per-task, cold (≥ 5× faster)',
    line: 'compile_cold_ratio_batch_vs_per_task',
    target: { atMost: 0.2 },
  },
  {
    goal: '14.1',
    what: 'batch / per-task, warm (all cache hits)',
    line: 'compile_warm_ratio_batch_vs_per_task',
    target: { atMost: 1.25 },
  },
  {
    goal: '14.1',
    what: 'outputs identical, batch vs per task',
    line: 'compile_outputs_identical_batch_vs_per_task',
    target: { equals: 'yes' },
  },
  { goal: '14.2', what: 'validation / bare Ajv', line: 'validate_ratio_vs_ajv', target: { atLeast: 0.3 } },
  {
    goal: '14.2',
    what: 'cold plan as the CLI plans (the workspace walked) / bare Ajv (10× the first figure)',
    line: 'validate_plan_walk_ratio_vs_ajv',
    target: { atLeast: 10 * FIRST_COLD_PLAN_RATIO_VS_AJV },
  },
  {
    goal: '14.3',
    what: 'tool-only Worker / SDK Worker (minified)',
    line: 'bundle.ratio.tool-only',
    target: { atMost: 0.5 },
  },
  {
    goal: '14.3',
    what: 'agentic leaf Worker / SDK Worker (minified)',
    line: 'bundle.ratio.agentic-leaf',
    target: { atMost: 1 },
  },
  {
    goal: '14.3',
    what: 'the same, compiled with the installed package: tool-only',
    line: 'bundle.installed.ratio.tool-only',
    target: { atMost: 0.5 },
  },
  {
    goal: '14.3',
    what: 'the same, compiled with the installed package: agentic leaf',
    line: 'bundle.installed.ratio.agentic-leaf',
    target: { atMost: 1 },
  },
  { goal: '14.4', what: 'hb3 compile / bare esbuild', line: 'compile.hb3.ratio', target: { atMost: 1.5 } },
  { goal: '14.4', what: 'local-mac compile / bare esbuild', line: 'compile.local-mac.ratio', target: { atMost: 1.5 } },
  { goal: '14.5', what: 'Worker requests/s, compiled / hand-written', line: 'rps.ratio', target: { atLeast: 0.9 } },
  {
    goal: '27.1',
    what: 'deployed Worker (Durable Object tasks) requests/s / hand-written with its Durable Object',
    line: 'rps.ratio.durable-vs-handwritten-durable',
    target: { atLeast: 0.9 },
  },
  {
    goal: '27.1',
    what: 'the same through the loader',
    line: 'rps.ratio.loader-vs-handwritten-durable',
    target: { atLeast: 0.9 },
  },
  {
    goal: '27.1',
    what: 'deployed Worker p99 latency / hand-written with its Durable Object',
    line: 'p99.ratio.durable',
    target: { atMost: 1.15 },
  },
  { goal: '27.1', what: 'the same through the loader', line: 'p99.ratio.loader', target: { atMost: 1.15 } },
  {
    goal: '27.1',
    what: 'first request of a fresh isolate / the SDK Worker running the same tool',
    line: 'first-request.ratio.same-work',
    target: { atMost: 1.1 },
  },
  {
    goal: '27.1',
    what: 'the same / the SDK Worker that echoes',
    line: 'first-request.ratio',
    target: { atMost: 1.1 },
  },
  {
    goal: '27.2',
    what: 'graph, 1,000 agents, isolation on / package.json (also 14.5)',
    line: 'graph_ratio_agentdef_vs_package_json',
    target: { atMost: 1.25 },
  },
  {
    goal: '27.2',
    what: 'the same with the operational targets (`operationalTargets`, as `nx g agentdef:init` registers)',
    line: 'graph_ratio_agentdef_operational_targets_vs_package_json',
    target: { atMost: 1.25 },
  },
  {
    goal: '27.3',
    what: 'Worker compile / bare esbuild (14.4 asked ≤ 1.5)',
    line: 'compile.cloudflare-dynamic-worker.ratio',
    target: { atMost: 1.3 },
  },
  {
    goal: '27.4',
    what: 'cold plan through an executor / bare Ajv (the 14.2 target)',
    line: 'validate_plan_uncached_ratio_vs_ajv',
    target: { atLeast: 10 * FIRST_COLD_PLAN_RATIO_VS_AJV },
  },
];

function runBench(file: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', '@swc-node/register', join(__dirname, file)], {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      process.stdout.write(chunk);
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${file} exited with ${code}`))));
  });
}

function parseLines(output: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const line of output.split('\n')) {
    const match = /^([\w.-]+): (.+)$/.exec(line);
    if (match) values.set(match[1]!, match[2]!.trim());
  }
  return values;
}

function targetText(target: GoalCheck['target']): string {
  if ('atMost' in target) return `≤ ${target.atMost}`;
  if ('atLeast' in target) return `≥ ${Number(target.atLeast.toPrecision(3))}`;
  return target.equals;
}

function verdict(target: GoalCheck['target'], value: string | undefined): 'met' | 'missed' | 'not measured' {
  if (value === undefined) return 'not measured';
  if ('equals' in target) return value === target.equals ? 'met' : 'missed';
  const n = Number.parseFloat(value);
  if (!Number.isFinite(n)) return 'not measured';
  return ('atMost' in target ? n <= target.atMost : n >= target.atLeast) ? 'met' : 'missed';
}

async function main(): Promise<void> {
  const env = { ...process.env };
  if (env.BENCH_FULL !== '1') env.BENCH_QUICK = '1';
  // Goal 1 is stated for 200 agents: a batch's one-off start weighs more on fewer (40 agents, the
  // quick size, give 0.25 instead of 0.1), so its run-many section keeps the full size here.
  env.BENCH_COMPILE_AGENTS ??= '200';
  // One Worker compile is ≈ 40 ms and its ratio to bare esbuild swings with a few slow rounds:
  // 15 interleaved rounds (compile-bench's full size, about a minute) instead of 5.
  env.BENCH_COMPILE_RUNS ??= '15';
  // The request rate swings with a short sample (client and workerd share the cores): 5 × 2,000
  // requests (worker-bench's full size, about a minute more) instead of 2 × 500.
  env.BENCH_ROUNDS ??= '5';
  env.BENCH_REQUESTS ??= '2000';
  // A fresh isolate's first request swings by ± 10 % from start to start: 15 starts of each Worker
  // (about 40 s) instead of 3, so the median is of more than the three a quick run takes.
  env.BENCH_FIRST_RUNS ??= '15';
  // The graph's cold runs likewise: the median of 5 moved between 1.32 and 1.41 for the same tree
  // in one evening; 9 runs (about a minute more). Only the graph's: more rounds of the validate
  // section grow its heap and slow its bare-Ajv baseline (75,000 documents/s against 115,000).
  env.BENCH_GRAPH_RUNS ??= '9';
  const values = new Map<string, string>();
  for (const file of BENCHES) {
    process.stdout.write(`# ${file}\n`);
    for (const [name, value] of parseLines(await runBench(file, env))) values.set(name, value);
  }
  // The cold plans' ratios to bare Ajv are printed to three decimals; recompute them from the rates.
  const ajv = Number.parseFloat(values.get('ajv_validate_per_s') ?? '');
  for (const kind of ['uncached', 'walk']) {
    const plans = Number.parseFloat(values.get(`validate_plan_${kind}_per_s`) ?? '');
    if (Number.isFinite(plans) && Number.isFinite(ajv) && ajv > 0)
      values.set(`validate_plan_${kind}_ratio_vs_ajv`, (plans / ajv).toPrecision(3));
  }
  process.stdout.write('# goals\n');
  const rows: string[] = ['| goal | measurement | target | measured | status |', '| --- | --- | --- | --- | --- |'];
  for (const check of GOALS) {
    const value = values.get(check.line);
    const status = verdict(check.target, value);
    report(`goal.${check.goal}.${check.line}`, `${value ?? '-'} (${targetText(check.target)}: ${status})`);
    rows.push(`| ${check.goal} | ${check.what} | ${targetText(check.target)} | ${value ?? '-'} | ${status} |`);
  }
  process.stdout.write(`\n${rows.join('\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
