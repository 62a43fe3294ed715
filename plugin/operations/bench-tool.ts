/**
 * The bench-tool operation, behind `agentdef bench-tool <definition|folder> [--cases path…]
 * [--runs n] [--target t] [--out dir] [--key keyref:name]`: benchmarks a tool-only agent (empty
 * `modelSet`) and writes the signed tool benchmark events `agentdef promote` requires
 * to reach `tool-shipped`.
 * 1. plans the definition (located diagnostics refuse it; so does a definition with a model pin: it
 *    is an agent, scored by `agentdef eval`) and loads its cases as eval does (`<folder>/evals/*`, or
 *    `--cases`; the cases' assertions are not scored here);
 * 2. compiles and serves it on loopback through its target's own host, as eval does (served-agent.ts);
 * 3. asks every case `runs` times over A2A, one at a time (so latencies do not contend), and records
 *    one event per tool call in the tool taxonomy (eval/tool-benchmark-run.ts);
 * 4. signs the batch (`--key`, else the definition's `identity.signingKeyRef`, the receipts' key
 *    store), writes `<out>/tool-benchmark-events.json` (default `dist/bench/<slug>`, a folder guarded
 *    like eval's) and prints the table: per tool and operation, calls, ok rate, p50/p95 latency.
 * Exit 0 written (failed calls are benchmarked too: the ok rate says so), 1 a host that could not
 * start, 2 a usage problem, an unreadable input, an invalid definition or cases, or no cases.
 */
import { basename, dirname, join, relative, resolve } from 'node:path';
import { planAgent } from '../compiler/compile';
import { ERROR_CODES, hasErrors } from '../definition/diagnostic';
import { formatDiagnostics } from '../definition/format-diagnostics';
import { locateFinding } from '../definition/validate-definition';
import { findWorkspaceRoot } from '../definition/workspace-definitions';
import { askCase } from '../eval/ask-case';
import { evalCasesDigest } from '../eval/cases-digest';
import {
  defaultBenchOutput,
  EVAL_BUILD_FOLDER,
  EVAL_CASES_FOLDER,
  TOOL_BENCHMARK_EVENTS_FILE,
} from '../eval/eval-output';
import {
  buildToolBenchmarkEvents,
  signToolBenchmarkEvents,
  type ToolBenchmarkEvent,
  toolBenchmarkEventsText,
} from '../eval/tool-benchmark-events';
import { toolBenchmarkEventsOfRun } from '../eval/tool-benchmark-run';
import { toolBenchmarkTable } from '../eval/tool-benchmark-table';
import { type KeyStoreOptions, loadPrivateKey } from '../hosts/node/key-store';
import type { SecretSource } from '../hosts/node/secret-source';
import { isTargetOption } from '../targets/targets';
import { definitionDigest } from '../trust/lifecycle-receipt';
import { definitionFileOf } from './eval';
import { BENCH_OUTPUT, claimEvalOutput, outputFolderRefusal, writeEvalReports } from './eval-output-folder';
import { EXIT, type OperationIo, type OperationResult } from './io';
import { loadCasesOrSay } from './eval-cases-input';
import { withServedAgent } from './served-agent';

/** Each case is run this many times by default. */
export const DEFAULT_BENCH_RUNS = 3;
/** The most runs of one case. */
export const MAX_BENCH_RUNS = 1000;

export interface BenchToolOptions {
  /** The definition file, or the folder that holds it, relative to the working folder. */
  definition: string;
  target?: string;
  /** Case files or globs instead of `<folder>/evals/*` (relative to the working folder). */
  cases?: string[];
  /** Runs of each case (default 3). */
  runs?: number;
  /** The output folder (default `dist/bench/<slug>` in the workspace). */
  out?: string;
  /** `keyref:<name>` that signs the events; default the definition's `identity.signingKeyRef`. */
  key?: string;
  keyStore?: KeyStoreOptions;
}

/** What a caller other than a terminal injects (tests): the environment, the secrets, the clock. */
export interface BenchToolControl {
  env?: NodeJS.ProcessEnv;
  secrets?: SecretSource;
  /** Milliseconds, for latencies only (default `performance.now`). */
  now?: () => number;
}

const posix = (path: string) => path.split('\\').join('/');

export async function benchTool(
  options: BenchToolOptions,
  io: OperationIo,
  control: BenchToolControl = {},
): Promise<OperationResult> {
  const env = control.env ?? process.env;
  const now = control.now ?? (() => performance.now());
  const runs = options.runs ?? DEFAULT_BENCH_RUNS;
  if (!Number.isInteger(runs) || runs < 1 || runs > MAX_BENCH_RUNS)
    return { usage: `--runs must be a whole number from 1 to ${MAX_BENCH_RUNS}, not ${runs}` };
  if (options.target !== undefined && !isTargetOption(options.target))
    return { usage: `--target ${options.target} is not a compile target` };
  const named = definitionFileOf(resolve(io.cwd, options.definition));
  if (typeof named !== 'string') return named;
  const file = named;
  const folder = dirname(file);
  const workspaceRoot = findWorkspaceRoot(folder) ?? findWorkspaceRoot(io.cwd) ?? io.cwd;
  const shownDefinition = posix(relative(io.cwd, file) || basename(file));

  // 1. The definition (planned, a tool) and its cases, located.
  const planned = await planAgent({ file, workspaceRoot });
  if (planned.ioError !== undefined) {
    io.stderr(`error: ${planned.ioError}\n`);
    return EXIT.usage;
  }
  if (hasErrors(planned.diagnostics) || planned.resolved === undefined || planned.plan === undefined) {
    io.stderr(formatDiagnostics(planned.diagnostics, { format: 'text', sources: planned.sources }));
    return EXIT.usage;
  }
  const root = planned.resolved;
  const definition = root.definition;
  if (definition.modelSet.length > 0) {
    const diagnostic = locateFinding(root.document, {
      code: ERROR_CODES.invalid,
      rule: 'bench-tool-only',
      path: '/modelSet',
      message: `bench-tool benchmarks tools, and this definition pins ${definition.modelSet.length} model${definition.modelSet.length === 1 ? '' : 's'}: it is an agent`,
      suggestion: `score it with \`agentdef eval ${shownDefinition}\`; a tool (empty modelSet, agenticGate "tool-only") is benchmarked`,
    });
    io.stderr(formatDiagnostics([diagnostic], { format: 'text', sources: planned.sources }));
    return EXIT.usage;
  }
  const loaded = loadCasesOrSay(io, {
    definitionFile: file,
    definition,
    cwd: io.cwd,
    ...(options.cases !== undefined ? { cases: options.cases } : {}),
  });
  if (typeof loaded === 'number') return loaded;
  const cases = loaded.cases;
  if (cases.length === 0) {
    io.stderr(
      `error: no cases to benchmark ${shownDefinition} with: write them in ${posix(relative(io.cwd, join(folder, EVAL_CASES_FOLDER)) || EVAL_CASES_FOLDER)}/*.yaml (docs/reference/eval-cases.md), or name them with --cases\n`,
    );
    return EXIT.usage;
  }

  // The key that signs the events, before anything runs.
  const keyRef = options.key ?? definition.identity.signingKeyRef;
  const key = await loadPrivateKey(keyRef, options.keyStore ?? { env });
  if (!key.ok) {
    io.stderr(`error: cannot sign the benchmark events: ${key.message}\n`);
    return EXIT.usage;
  }

  // 2. Compiled into <out>/build and served, once the folder is known to be bench-tool's (or new).
  const outDir = resolve(
    options.out !== undefined ? io.cwd : workspaceRoot,
    options.out ?? defaultBenchOutput(root.slug),
  );
  const shownOut = posix(relative(io.cwd, outDir) || '.');
  const refusal = outputFolderRefusal(BENCH_OUTPUT, outDir, workspaceRoot, shownOut);
  if (refusal !== undefined) {
    io.stderr(`error: ${refusal}\n`);
    return EXIT.usage;
  }
  claimEvalOutput(outDir, BENCH_OUTPUT);
  return withServedAgent(
    io,
    {
      file,
      workspaceRoot,
      folder,
      buildDir: join(outDir, EVAL_BUILD_FOLDER),
      ...(options.target !== undefined ? { target: options.target } : {}),
      env,
      ...(control.secrets ? { secrets: control.secrets } : {}),
      ...(options.keyStore ? { keyStore: options.keyStore } : {}),
      receiptSigner: definition.telemetryContract.receiptSigner,
      shownDefinition,
      recordCommand: `agentdef eval ${shownDefinition}`,
    },
    async ({ host, client, events }) => {
      // 3. Every case, `runs` times, one at a time.
      const recorded: ToolBenchmarkEvent[] = [];
      let uncalled = 0;
      for (let iteration = 1; iteration <= runs; iteration++) {
        for (const evalCase of cases) {
          const asked = await askCase(client, evalCase.value.id, evalCase.value.input, now);
          const runId = asked.observation.runId;
          if (runId !== undefined) await Promise.race([events.runEnded(runId), host.ended]);
          const made = toolBenchmarkEventsOfRun(definition, {
            asked,
            caseId: evalCase.value.id,
            iteration,
            ...(evalCase.value.input.skill !== undefined ? { caseSkill: evalCase.value.input.skill } : {}),
          });
          if (made.length === 0) uncalled++;
          recorded.push(...made);
        }
      }

      // 4. Signed, written, shown.
      const signed = await signToolBenchmarkEvents(
        buildToolBenchmarkEvents({
          definition: {
            slug: root.slug,
            version: root.version,
            versionId: definition.identity.versionId,
            digest: await definitionDigest(root.document.value),
          },
          casesDigest: await evalCasesDigest(cases),
          runsPerCase: runs,
          events: recorded,
        }),
        key.privateJwk,
        key.kid,
      );
      writeEvalReports(outDir, { [TOOL_BENCHMARK_EVENTS_FILE]: toolBenchmarkEventsText(signed) });
      io.stdout(toolBenchmarkTable(recorded, runs * cases.length, uncalled));
      io.stdout(
        `wrote the signed tool benchmark events ${shownOut}/${TOOL_BENCHMARK_EVENTS_FILE} (signed by ${key.ref}, kid ${key.kid})\n`,
      );
      return EXIT.ok;
    },
  );
}
