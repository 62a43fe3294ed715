/**
 * Benchmarks of the Nx plugin and the compiler core, each against a baseline run in the same
 * process (run: `npm run bench:compiler`):
 *  (a) project-graph construction for 1,000 agents vs the same 1,000 folders as package.json
 *      projects inferred by Nx itself (goal: ratio ≤ 1.25), and vs a plugin that infers the same
 *      projects with nothing but a name (minimal-nx-plugin.ts: the cost of any plugin); the plugin is
 *      registered without options (no operational targets) and, apart, with `operationalTargets`
 *      as `nx g agentdef:init` registers it (docs/decisions/0013-operational-targets-opt-in.md);
 *  (b) validate + plan throughput vs bare Ajv validation of the same documents (pairs of passes,
 *      the ratio per pair), and cold plans as the Nx executors make them (the index from the
 *      project graph) vs cold plans as the CLI makes them (walking and reading the workspace) vs
 *      cold plans indexing the whole workspace;
 *  (c) cold and warm (all cache hits) `nx run-many -t compile` for 200 agents, per task (one
 *      executor process per task, the baseline) and as a batch (`--batch`: one process).
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateAgentDefinition } from '../../plugin/schema/generated/agent-definition.validator';
import { validateDefinitionSource } from '../../plugin/definition/validate-definition';
import { planAgent } from '../../plugin/compiler/compile';
import { indexWorkspace } from '../../plugin/compiler/workspace-index';
import { RACY_MS } from '../../plugin/definition/definition-walk-cache';
import { findDefinitionFiles } from '../../plugin/definition/workspace-definitions';
import { graphPinLookup, validatedDefinitionStoreFor } from '../../executors/graph-pin-lookup';
import type { KnownIndexStats } from '../../plugin/compiler/workspace-index-known';
import { inferredProjectGraph } from '../../executors/__test-support__/inferred-project-graph';
import { buildAndPack, e2eRoot, isolatedEnv, nxBin } from '../support/pack';
import { median, report, timeAsync, timeCommand } from './bench-support';
import { writeSyntheticWorkspace } from './synthetic-workspace';
import { installMinimalNxPlugin } from './minimal-nx-plugin';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
/** Cold graph constructions per workspace (`BENCH_GRAPH_RUNS`, default `BENCH_RUNS`): their median moves with the machine more than the in-process rates do. */
const GRAPH_RUNS = Number(process.env.BENCH_GRAPH_RUNS ?? RUNS);
const GRAPH_AGENTS = Number(process.env.BENCH_GRAPH_AGENTS ?? 1000);
// BENCH_QUICK=1: 40 agents for the run-many section (a cold per-task run of 200 takes minutes).
const COMPILE_AGENTS = Number(process.env.BENCH_COMPILE_AGENTS ?? (process.env.BENCH_QUICK === '1' ? 40 : 200));
const VALIDATE_AGENTS = Number(process.env.BENCH_VALIDATE_AGENTS ?? 200);
const SEED = 20261130;

function installAgentdef(dir: string, tarball: string): void {
  mkdirSync(join(dir, 'node_modules', 'agentdef'), { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', join(dir, 'node_modules', 'agentdef'), '--strip-components=1']);
}

/** Appends each process's CPU time to AGENTDEF_BENCH_CPU_LOG on exit (Nx and every plugin worker). */
const CPU_HOOK = join(__dirname, 'process-cpu-hook.cjs');

/** Median wall time and median CPU time (Nx and all its plugin workers together), in ms. */
interface GraphTimes {
  wall: number;
  cpu: number;
}

/**
 * Cold project-graph construction (workspace data reset first), the workspaces interleaved so load
 * affects them alike. Plugin isolation is on (Nx's default) unless `extraEnv` turns it off:
 * isolatedEnv turns it off for the tests, so it is set here explicitly. Besides the wall time,
 * the CPU time of Nx and of every plugin worker it starts, summed: on a shared machine the wall
 * time follows the load, the CPU time much less.
 */
function graphTimes(dirs: string[], home: string, extraEnv: NodeJS.ProcessEnv = {}): GraphTimes[] {
  const env = isolatedEnv(home, { NX_ISOLATE_PLUGINS: 'true', ...extraEnv });
  const cpuLog = join(home, 'graph-cpu.log');
  const measured = { ...env, NODE_OPTIONS: `--require ${CPU_HOOK}`, AGENTDEF_BENCH_CPU_LOG: cpuLog };
  const walls = dirs.map(() => [] as number[]);
  const cpus = dirs.map(() => [] as number[]);
  for (let i = 0; i < GRAPH_RUNS; i++) {
    dirs.forEach((dir, k) => {
      timeCommand(process.execPath, [nxBin, 'reset', '--only-workspace-data'], dir, env);
      rmSync(cpuLog, { force: true });
      walls[k]!.push(timeCommand(process.execPath, [nxBin, 'show', 'projects', '--json'], dir, measured));
      cpus[k]!.push(
        readFileSync(cpuLog, 'utf8')
          .trim()
          .split('\n')
          .reduce((sum, line) => sum + Number(line), 0),
      );
    });
  }
  return dirs.map((_, k) => ({ wall: median(walls[k]!), cpu: median(cpus[k]!) }));
}

const only = process.env.BENCH_ONLY;
const wants = (section: string) => only === undefined || only.split(',').includes(section);

async function main(): Promise<void> {
  const base = mkdtempSync(join(e2eRoot(), 'bench-'));
  const home = join(base, 'home');
  mkdirSync(home, { recursive: true });
  const tarball = buildAndPack();
  report('runs_per_measurement', RUNS);
  report('graph_runs_per_measurement', GRAPH_RUNS);

  // (a) graph construction
  if (wants('graph')) {
    const agentdefWs = join(base, 'graph-agentdef');
    writeSyntheticWorkspace(
      { dir: agentdefWs, agents: GRAPH_AGENTS, depth: 6, fanOut: 3, seed: SEED, style: 'agentdef' },
      'agentdef',
    );
    installAgentdef(agentdefWs, tarball);
    const plainWs = join(base, 'graph-package-json');
    writeSyntheticWorkspace(
      { dir: plainWs, agents: GRAPH_AGENTS, depth: 6, fanOut: 3, seed: SEED, style: 'package-json' },
      'agentdef',
    );
    const countProjects = (dir: string) =>
      (
        JSON.parse(
          execFileSync(process.execPath, [nxBin, 'show', 'projects', '--json'], {
            cwd: dir,
            env: isolatedEnv(home),
            encoding: 'utf8',
          }),
        ) as string[]
      ).length;
    report('graph_projects_agentdef', countProjects(agentdefWs));
    report('graph_projects_package_json', countProjects(plainWs));
    // The same agentdef folders inferred by a plugin that gives each file a project with a name and
    // nothing else: what any third-party plugin costs under isolation, apart from its configurations.
    const minimalWs = join(base, 'graph-minimal-plugin');
    writeSyntheticWorkspace(
      { dir: minimalWs, agents: GRAPH_AGENTS, depth: 6, fanOut: 3, seed: SEED, style: 'agentdef' },
      installMinimalNxPlugin(minimalWs),
    );
    report('graph_projects_minimal_plugin', countProjects(minimalWs));
    // The same agentdef workspace with the plugin option `operationalTargets` (what `nx g agentdef:init`
    // writes): every agent also gets run, serve, promote, publish and deploy (decision 0013).
    const operationalWs = join(base, 'graph-agentdef-operational-targets');
    writeSyntheticWorkspace(
      { dir: operationalWs, agents: GRAPH_AGENTS, depth: 6, fanOut: 3, seed: SEED, style: 'agentdef' },
      'agentdef',
    );
    const operationalNxJson = JSON.parse(readFileSync(join(operationalWs, 'nx.json'), 'utf8')) as {
      plugins: Array<{ options?: Record<string, unknown> }>;
    };
    operationalNxJson.plugins[0]!.options = { operationalTargets: true };
    writeFileSync(join(operationalWs, 'nx.json'), JSON.stringify(operationalNxJson, null, 2));
    installAgentdef(operationalWs, tarball);
    const [withPlugin, baseline, minimal, operational] = graphTimes(
      [agentdefWs, plainWs, minimalWs, operationalWs],
      home,
    ) as [GraphTimes, GraphTimes, GraphTimes, GraphTimes];
    report(`graph_ms_agentdef_${GRAPH_AGENTS}`, withPlugin.wall);
    report(`graph_ms_package_json_${GRAPH_AGENTS}`, baseline.wall);
    report(`graph_ms_minimal_plugin_${GRAPH_AGENTS}`, minimal.wall);
    report(`graph_ms_agentdef_operational_targets_${GRAPH_AGENTS}`, operational.wall);
    report('graph_ratio_agentdef_vs_package_json', withPlugin.wall / baseline.wall);
    report('graph_ratio_minimal_plugin_vs_package_json', minimal.wall / baseline.wall);
    report('graph_ratio_agentdef_operational_targets_vs_package_json', operational.wall / baseline.wall);
    // The same runs' CPU time, Nx and every plugin worker summed (less sensitive to the load).
    report(`graph_cpu_ms_agentdef_${GRAPH_AGENTS}`, withPlugin.cpu);
    report(`graph_cpu_ms_package_json_${GRAPH_AGENTS}`, baseline.cpu);
    report(`graph_cpu_ms_minimal_plugin_${GRAPH_AGENTS}`, minimal.cpu);
    report(`graph_cpu_ms_agentdef_operational_targets_${GRAPH_AGENTS}`, operational.cpu);
    report('graph_cpu_ratio_agentdef_vs_package_json', withPlugin.cpu / baseline.cpu);
    report('graph_cpu_ratio_minimal_plugin_vs_package_json', minimal.cpu / baseline.cpu);
    report('graph_cpu_ratio_agentdef_operational_targets_vs_package_json', operational.cpu / baseline.cpu);
    // Nx starts one worker process per non-built-in plugin (plugin isolation, its default); the
    // same measurement with plugins loaded in Nx's own process shows what the plugin itself costs.
    const [inProcess, inProcessBaseline] = graphTimes([agentdefWs, plainWs], home, { NX_ISOLATE_PLUGINS: 'false' }) as [
      GraphTimes,
      GraphTimes,
    ];
    report(`graph_ms_agentdef_${GRAPH_AGENTS}_in_process`, inProcess.wall);
    report(`graph_ms_package_json_${GRAPH_AGENTS}_in_process`, inProcessBaseline.wall);
    report('graph_ratio_agentdef_vs_package_json_in_process', inProcess.wall / inProcessBaseline.wall);
  }

  const compileWs = join(base, 'compile');
  writeSyntheticWorkspace(
    { dir: compileWs, agents: COMPILE_AGENTS, depth: 4, fanOut: 3, seed: SEED + 1, style: 'agentdef' },
    'agentdef',
  );
  installAgentdef(compileWs, tarball);

  // (b) validate + plan throughput vs bare Ajv, on VALIDATE_AGENTS definitions (200 also under
  // BENCH_QUICK: a cold plan reads the whole workspace, so its rate depends on the workspace's size)
  if (wants('validate')) {
    const validateWs = join(base, 'validate');
    const dag = writeSyntheticWorkspace(
      { dir: validateWs, agents: VALIDATE_AGENTS, depth: 4, fanOut: 3, seed: SEED + 1, style: 'agentdef' },
      'agentdef',
    );
    const files = dag.map((a) => join(validateWs, 'agents', a.slug, 'agent.json'));
    const texts = files.map((f) => readFileSync(f, 'utf8'));
    // The workspace index and the validated-definition cache are what a long-lived host keeps
    // (the batch executor's compile session); the CLI and per-task executors rebuild both per call.
    const index = indexWorkspace(validateWs);
    // Validation is measured as adjacent pairs (one bare-Ajv pass over the documents, then one
    // validateDefinitionSource pass), the ratio taken per pair, so a burst of load on the shared
    // machine hits both sides of a ratio alike; VALIDATE_PAIRS pairs per run.
    const VALIDATE_PAIRS = 10;
    const ajvRates: number[] = [];
    const validateRates: number[] = [];
    const validateRatios: number[] = [];
    const planRates: number[] = [];
    const coldPlanRates: number[] = [];
    const fullIndexPlanRates: number[] = [];
    const names = dag.map((a) => `agents/${a.slug}/agent.json`);
    // The project graph Nx hands each executor (agentdef's createNodes on every definition, which
    // also walks the workspace once and records the files it found, definition-walk-record.ts), and
    // the executor's folder listings of the workspace on disk as a first `nx run` leaves them:
    // written once the folders are older than the racy window, as a user's folders are.
    const projectGraph = await inferredProjectGraph(validateWs, findDefinitionFiles(validateWs));
    await new Promise((settle) => setTimeout(settle, RACY_MS + 200));
    // A plan as the plan executor makes one in its own process: the index from the project graph
    // (the walk's files from graph inference's record), the clean validations earlier tasks kept
    // (validated-definition-store.ts), saved when done.
    const recordTaken: boolean[] = [];
    const executorPlan = async (file: string) => {
      const validatedDefinitions = validatedDefinitionStoreFor(validateWs);
      const stats: KnownIndexStats = { reused: 0, listed: 0, known: 0, read: 0 };
      const graphIndex = graphPinLookup({ root: validateWs, projectGraph }, stats);
      const result = await planAgent({
        file,
        workspaceRoot: validateWs,
        validatedDefinitions,
        ...(graphIndex !== undefined ? { index: graphIndex } : {}),
      });
      validatedDefinitions.save();
      if (stats.known + stats.read > 0) recordTaken.push(stats.recorded === true);
      return result;
    };
    // One `nx run` of every plan before: the walk's listings and the kept validations on disk.
    for (const file of files) await executorPlan(file);
    const graphPlanRates: number[] = [];
    const graphOnlyPlanRates: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      for (let pair = 0; pair < VALIDATE_PAIRS; pair++) {
        const bare = await timeAsync(() => {
          for (const text of texts)
            if (!validateAgentDefinition(JSON.parse(text))) throw new Error('bench document invalid');
        });
        const validated = await timeAsync(() => {
          for (let k = 0; k < texts.length; k++)
            if (!validateDefinitionSource(texts[k]!, names[k]!, 'json').valid)
              throw new Error('bench document invalid');
        });
        ajvRates.push(texts.length / (bare / 1000));
        validateRates.push(texts.length / (validated / 1000));
        validateRatios.push(bare / validated);
      }
      const definitionCache = new Map();
      const planned = await timeAsync(async () => {
        for (const file of files) {
          const result = await planAgent({ file, workspaceRoot: validateWs, index, definitionCache });
          if (!result.plan) throw new Error(`plan failed: ${JSON.stringify(result.diagnostics[0])}`);
        }
      });
      planRates.push(files.length / (planned / 1000));
      // Cold, as the plan executor plans (nothing kept in the process): the index from the project
      // graph Nx hands the executor (graph-pin-lookup.ts: known identities unread, the walk's files
      // from graph inference's record for this graph, other files read), and unchanged
      // definitions' clean validations from the store on disk (each file still read and hashed).
      const graphPlanned = await timeAsync(async () => {
        for (const file of files) {
          const result = await executorPlan(file);
          if (!result.plan) throw new Error(`plan failed: ${JSON.stringify(result.diagnostics[0])}`);
        }
      });
      graphPlanRates.push(files.length / (graphPlanned / 1000));
      // The same without the store (as the executors planned before it): every definition of the
      // tree parsed, validated and digested per plan.
      const graphOnlyPlanned = await timeAsync(async () => {
        for (const file of files) {
          const graphIndex = graphPinLookup({ root: validateWs, projectGraph });
          const result = await planAgent({
            file,
            workspaceRoot: validateWs,
            ...(graphIndex !== undefined ? { index: graphIndex } : {}),
          });
          if (!result.plan) throw new Error(`plan failed: ${JSON.stringify(result.diagnostics[0])}`);
        }
      });
      graphOnlyPlanRates.push(files.length / (graphOnlyPlanned / 1000));
      // Cold, as the CLI plans (nothing kept): the workspace walked and every definition read, only
      // those that may state a pinned slug parsed (workspace-index-lazy.ts).
      const coldPlanned = await timeAsync(async () => {
        for (const file of files)
          if (!(await planAgent({ file, workspaceRoot: validateWs })).plan) throw new Error('plan failed');
      });
      coldPlanRates.push(files.length / (coldPlanned / 1000));
      // The same, with the whole workspace indexed per plan, as cold plans did before (the baseline).
      const fullIndexPlanned = await timeAsync(async () => {
        for (const file of files)
          if (!(await planAgent({ file, workspaceRoot: validateWs, index: indexWorkspace(validateWs) })).plan)
            throw new Error('plan failed');
      });
      fullIndexPlanRates.push(files.length / (fullIndexPlanned / 1000));
    }
    const ajv = median(ajvRates);
    const ratio = (value: number) => value.toPrecision(3);
    report('ajv_validate_per_s', ajv);
    report('validate_per_s', median(validateRates));
    report('validate_ratio_vs_ajv', median(validateRatios));
    report('validate_plan_per_s', median(planRates));
    report('validate_plan_ratio_vs_ajv', median(planRates) / ajv);
    // Cold plans through the executors (the goal's line): the index from the project graph.
    report('validate_plan_uncached_per_s', median(graphPlanRates));
    // How many of those plans (with pins) took the walk's files from graph inference's record.
    report('validate_plan_uncached_walk_record_taken', `${recordTaken.filter(Boolean).length}/${recordTaken.length}`);
    report('validate_plan_uncached_ratio_vs_ajv', ratio(median(graphPlanRates) / ajv));
    // Cold plans as the CLI makes them: the workspace walked and read per plan.
    report('validate_plan_walk_per_s', median(coldPlanRates));
    report('validate_plan_walk_ratio_vs_ajv', ratio(median(coldPlanRates) / ajv));
    report('validate_plan_uncached_ratio_vs_walk', median(graphPlanRates) / median(coldPlanRates));
    // The graph index alone (no validated-definition store), same rounds.
    report('validate_plan_graph_only_per_s', median(graphOnlyPlanRates));
    report('validate_plan_graph_only_ratio_vs_ajv', ratio(median(graphOnlyPlanRates) / ajv));
    report('validate_plan_uncached_ratio_vs_graph_only', median(graphPlanRates) / median(graphOnlyPlanRates));
    report('validate_plan_uncached_full_index_per_s', median(fullIndexPlanRates));
    report('validate_plan_walk_ratio_vs_full_index', median(coldPlanRates) / median(fullIndexPlanRates));
  }

  // (c) cold and warm run-many compile: per-task (Nx forks one executor process per task, the
  // baseline) against the batch (`--batch`: one process, one compile session), interleaved in the
  // same workspace; the outputs of the two are compared by digest.
  if (!wants('compile')) return;
  const env = isolatedEnv(home);
  const modes = { per_task: [] as string[], batch: ['--batch'] };
  const cold: Record<keyof typeof modes, number[]> = { per_task: [], batch: [] };
  const warm: Record<keyof typeof modes, number[]> = { per_task: [], batch: [] };
  const outputs: Record<keyof typeof modes, string> = { per_task: '', batch: '' };
  // A cold per-task run of 200 tasks takes minutes, so each mode is measured COLD_RUNS times
  // (default 1); then the warm, all-cache-hit runs, the two modes interleaved (the first run after
  // a cold one also rebuilds the project graph the reset dropped, so it is left out).
  const coldRuns = Number(process.env.BENCH_COLD_RUNS ?? 1);
  const runMany = (mode: keyof typeof modes) => [nxBin, 'run-many', '-t', 'compile', '--parallel=2', ...modes[mode]];
  for (let i = 0; i < coldRuns; i++) {
    for (const mode of Object.keys(modes) as (keyof typeof modes)[]) {
      timeCommand(process.execPath, [nxBin, 'reset'], compileWs, env);
      rmSync(join(compileWs, 'dist'), { recursive: true, force: true });
      cold[mode].push(timeCommand(process.execPath, runMany(mode), compileWs, env));
      outputs[mode] = treeDigest(join(compileWs, 'dist', 'agents'));
    }
  }
  timeCommand(process.execPath, runMany('per_task'), compileWs, env);
  for (let k = 0; k < 3; k++) {
    for (const mode of Object.keys(modes) as (keyof typeof modes)[])
      warm[mode].push(timeCommand(process.execPath, runMany(mode), compileWs, env));
  }
  report('compile_cold_runs', coldRuns);
  for (const mode of Object.keys(modes) as (keyof typeof modes)[]) {
    report(`compile_cold_ms_${COMPILE_AGENTS}_${mode}`, median(cold[mode]));
    report(`compile_cold_s_per_agent_${mode}`, median(cold[mode]) / 1000 / COMPILE_AGENTS);
    report(`compile_warm_ms_${COMPILE_AGENTS}_${mode}`, median(warm[mode]));
  }
  report('compile_cold_ratio_batch_vs_per_task', median(cold.batch) / median(cold.per_task));
  report('compile_warm_ratio_batch_vs_per_task', median(warm.batch) / median(warm.per_task));
  report('compiled_outputs', readdirSync(join(compileWs, 'dist', 'agents')).length);
  report('compile_outputs_identical_batch_vs_per_task', outputs.batch === outputs.per_task ? 'yes' : 'NO');
}

/** One digest of every file below `dir` (relative path and bytes), in a fixed order. */
function treeDigest(dir: string): string {
  const hash = createHash('sha256');
  const walk = (current: string, prefix: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const rel = `${prefix}/${entry.name}`;
      if (entry.isDirectory()) walk(join(current, entry.name), rel);
      else hash.update(`${rel}\0`).update(readFileSync(join(current, entry.name)));
    }
  };
  walk(dir, '');
  return hash.digest('hex');
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});
