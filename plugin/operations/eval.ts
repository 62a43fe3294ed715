/**
 * The eval operation, behind `agentdef eval <definition|folder> [--target t] [--cases path…]
 * [--threshold x] [--out dir] [--replay dir | --record dir] [--concurrency n] [--key keyref:name]`
 * and the `agentdef:eval` executor:
 * 1. plans the definition (its diagnostics, located, refuse the run) and loads its eval cases
 *    (`<folder>/evals/*.yaml|*.yml|*.jsonl`, or `--cases`; load-eval-cases.ts, located diagnostics);
 * 2. compiles it for `--target` (default: the one its plan chooses) into `<out>/build`;
 * 3. starts one record/replay model session (`--replay`, `--record`, else `AGENTDEF_REPLAY` /
 *    `AGENTDEF_RECORD`, else `<folder>/recordings` when it exists, else the live providers) and serves
 *    the output on loopback through its target's own host, as `agentdef dev` does, under it;
 * 4. asks every case over A2A (ask-case.ts), at most `concurrency` at once, and observes each run
 *    (answer, error, stop reason, latency, token usage, model and tool calls, egress blocked, run
 *    receipt digest); model-graded assertions are judged by the grader they name (a pin of the
 *    definition or one the cases file declares), else the evaluator pin, through the same session
 *    (pin-grader.ts), so grader exchanges are recorded and replayed with the agent's;
 * 5. scores each case and the run (score-case.ts), writes `<out>/eval.json`, `<out>/junit.xml`
 *    and the signed eval receipt `<out>/eval.receipt.json` (signed with `--key`, else the
 *    definition's `identity.signingKeyRef`), prints the table, and exits 1 below the threshold.
 *    For a tool-only agent (empty `modelSet`) it also writes the signed tool benchmark events of
 *    its runs, `<out>/tool-benchmark-events.json` (eval/tool-benchmark-events.ts), which
 *    `agentdef promote` (to tool-shipped) accepts as `agentdef bench-tool`'s.
 * Serving (steps 2 and 3) is served-agent.ts, shared with `agentdef bench-tool`.
 * Exit 0 at or above the threshold, 1 below it (or a host that cannot start, a recording that
 * cannot be replayed), 2 a usage problem, an unreadable input or invalid definition or cases.
 */
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { planAgent } from '../compiler/compile';
import { runtimeConfigFor } from '../compiler/runtime-config';
import { loadWorkspaceConfig } from '../compiler/workspace-config';
import { hasErrors } from '../definition/diagnostic';
import { formatDiagnostics } from '../definition/format-diagnostics';
import { DEFINITION_FILE_NAMES, findWorkspaceRoot } from '../definition/workspace-definitions';
import { askCase } from '../eval/ask-case';
import type { EvalObservation } from '../eval/observation';
import { pinGrader } from '../eval/pin-grader';
import { buildEvalReceipt, evalReceiptText, signEvalReceipt } from '../eval/eval-receipt';
import { evalCasesDigest } from '../eval/cases-digest';
import { evalReportJson } from '../eval/report-json';
import { evalReportJunit } from '../eval/report-junit';
import { evalReportTable } from '../eval/report-table';
import { scoreCase, scoreRun } from '../eval/score-case';
import {
  buildToolBenchmarkEvents,
  signToolBenchmarkEvents,
  type ToolBenchmarkEvent,
  toolBenchmarkEventsText,
} from '../eval/tool-benchmark-events';
import { toolBenchmarkEventsOfRun } from '../eval/tool-benchmark-run';
import { environmentSecrets } from '../hosts/model-replay/model-session';
import { createRedactor } from '../runtime/redact';
import { REPLAY_PLACEHOLDER_KEY } from '../hosts/model-replay/proxy-routes';
import { type KeyStoreOptions, type LoadedKey, loadPrivateKey } from '../hosts/node/key-store';
import { withEndpointOverrides, withModelProxy } from '../hosts/node/model-endpoints';
import type { SecretSource } from '../hosts/node/secret-source';
import type { RuntimeModelPin } from '../runtime/runtime-config';
import { definitionDigest } from '../trust/lifecycle-receipt';
import { isTargetOption } from '../targets/targets';
import { EXIT, type ExitCode, type OperationIo, type OperationResult } from './io';
import {
  defaultEvalOutput,
  EVAL_BUILD_FOLDER,
  EVAL_CASES_FOLDER,
  EVAL_JSON_FILE,
  EVAL_JUNIT_FILE,
  EVAL_RECEIPT_FILE,
  TOOL_BENCHMARK_EVENTS_FILE,
} from '../eval/eval-output';
import { claimEvalOutput, evalOutputRefusal, writeEvalReports } from './eval-output-folder';
import { loadCasesOrSay } from './eval-cases-input';
import { withServedAgent } from './served-agent';

/** The cases asked at once, by default. */
export const DEFAULT_CONCURRENCY = 4;

export interface EvalOptions {
  /** The definition file, or the folder that holds it, as the caller names it (relative to the working folder). */
  definition: string;
  /** The compile target (default `auto`: the plan's choice). */
  target?: string;
  /** Case files or globs instead of `<folder>/evals/*` (relative to the working folder). */
  cases?: string[];
  /** 0..1: the share of cases that must pass; default 1. */
  threshold?: number;
  /** The output folder (default `dist/eval/<slug>` in the workspace). */
  out?: string;
  record?: string;
  replay?: string;
  /** Cases asked at once (default 4). */
  concurrency?: number;
  /** `keyref:<name>` that signs the eval receipt; default the definition's `identity.signingKeyRef`. */
  key?: string;
  keyStore?: KeyStoreOptions;
}

/** What a caller other than a terminal injects (tests): the environment, the secrets, the clock. */
export interface EvalControl {
  env?: NodeJS.ProcessEnv;
  secrets?: SecretSource;
  /** Milliseconds, for latencies only (default `performance.now`). */
  now?: () => number;
}

/** The definition file a positional names: the file itself, or the definition file of the folder. */
export function definitionFileOf(path: string): string | { usage: string } {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(path);
  } catch {
    return { usage: `${path} does not exist: name an agent definition file or the folder that holds it` };
  }
  if (!stat.isDirectory()) return path;
  for (const name of DEFINITION_FILE_NAMES) if (existsSync(join(path, name))) return join(path, name);
  return { usage: `${path} holds no ${DEFINITION_FILE_NAMES.join(', ')}: name the agent definition file` };
}

/** Runs `work` over `items`, at most `limit` at once; results in the items' order. */
async function bounded<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await work(items[i]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}

const posix = (path: string) => path.split('\\').join('/');

export async function evaluate(
  options: EvalOptions,
  io: OperationIo,
  control: EvalControl = {},
): Promise<OperationResult> {
  const env = control.env ?? process.env;
  const now = control.now ?? (() => performance.now());
  const threshold = options.threshold ?? 1;
  if (!(threshold >= 0 && threshold <= 1))
    return { usage: `--threshold must be a number from 0 to 1, not ${threshold}` };
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1)
    return { usage: `--concurrency must be a whole number of at least 1, not ${concurrency}` };
  if (options.target !== undefined && !isTargetOption(options.target))
    return { usage: `--target ${options.target} is not a compile target` };
  const named = definitionFileOf(resolve(io.cwd, options.definition));
  if (typeof named !== 'string') return named;
  const file = named;
  const folder = dirname(file);
  const workspaceRoot = findWorkspaceRoot(folder) ?? findWorkspaceRoot(io.cwd) ?? io.cwd;

  // 1. The definition (planned: the whole tree resolves) and its cases, both located.
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
      `error: no eval cases for ${relative(io.cwd, file) || basename(file)}: write them in ${posix(relative(io.cwd, join(folder, EVAL_CASES_FOLDER)) || EVAL_CASES_FOLDER)}/*.yaml (docs/reference/eval-cases.md), or name them with --cases\n`,
    );
    return EXIT.usage;
  }

  // The key that signs the eval receipt, before anything runs.
  const key = await receiptKey(io, options, env, definition.identity.signingKeyRef);
  if (typeof key === 'number') return key;

  // 2. Compiled into <out>/build, once the folder is known to be eval's (or new).
  const outDir = resolve(
    options.out !== undefined ? io.cwd : workspaceRoot,
    options.out ?? defaultEvalOutput(root.slug),
  );
  const refusal = evalOutputRefusal(outDir, workspaceRoot, posix(relative(io.cwd, outDir) || '.'));
  if (refusal !== undefined) {
    io.stderr(`error: ${refusal}\n`);
    return EXIT.usage;
  }
  claimEvalOutput(outDir);
  const buildDir = join(outDir, EVAL_BUILD_FOLDER);
  const shownDefinition = posix(relative(io.cwd, file) || basename(file));

  // 3. Served on loopback through one model session for the agent's and the grader's exchanges.
  return withServedAgent(
    io,
    {
      file,
      workspaceRoot,
      folder,
      buildDir,
      ...(options.target !== undefined ? { target: options.target } : {}),
      ...(options.record !== undefined ? { record: options.record } : {}),
      ...(options.replay !== undefined ? { replay: options.replay } : {}),
      env,
      ...(control.secrets ? { secrets: control.secrets } : {}),
      ...(options.keyStore ? { keyStore: options.keyStore } : {}),
      receiptSigner: definition.telemetryContract.receiptSigner,
      shownDefinition,
      recordCommand: `agentdef eval ${shownDefinition}`,
    },
    async ({ host, client, events, session, hostEnv, secrets }) => {
      // 4. Every case over A2A, and the grader through the same session.
      const workspace = loadWorkspaceConfig(workspaceRoot).config;
      const config = runtimeConfigFor(root, root.key, { workspace }).config;
      // Every pin, a grader a cases file declares included, reached as the hosts reach theirs.
      const settle = (models: RuntimeModelPin[]) =>
        withModelProxy(withEndpointOverrides({ ...config, models }, hostEnv), hostEnv).models;
      const grade = pinGrader({
        pins: settle(config.models),
        settle: (pin) => settle([pin])[0]!,
        names: definition.modelSet.map((pin) => {
          const name = (pin as { name?: unknown }).name;
          return { modelId: pin.modelId, ...(typeof name === 'string' ? { name } : {}) };
        }),
        apiKey: async (pin: RuntimeModelPin) => {
          if (pin.secretBinding === undefined) return undefined;
          if (session?.mode === 'replay') return REPLAY_PLACEHOLDER_KEY;
          return secrets.get(pin.secretBinding);
        },
      });
      // Every secret value this process holds is scrubbed from what the reports keep.
      const redactor = createRedactor(environmentSecrets(env));
      const benchmarked: ToolBenchmarkEvent[][] = [];
      const results = await bounded(cases, concurrency, async (evalCase) => {
        const asked = await askCase(client, evalCase.value.id, evalCase.value.input, now);
        // The host's event lines of the run (its egress refusals) may arrive after its answer.
        const runId = asked.observation.runId;
        if (runId !== undefined) await Promise.race([events.runEnded(runId), host.ended]);
        const observation: EvalObservation = {
          ...asked.observation,
          egressBlocked: asked.observation.runId ? events.blockedHosts(asked.observation.runId) : [],
        };
        benchmarked[cases.indexOf(evalCase)] = toolBenchmarkEventsOfRun(definition, {
          asked,
          caseId: evalCase.value.id,
          iteration: 1,
          ...(evalCase.value.input.skill !== undefined ? { caseSkill: evalCase.value.input.skill } : {}),
        });
        return scoreCase(evalCase, observation, grade, definition, { redactor });
      });

      // 5. Scored, reported, signed.
      const run = scoreRun(results, cases, definition, threshold);
      const digest = await definitionDigest(root.document.value);
      const casesDigest = await evalCasesDigest(cases);
      const scored = {
        definition: { slug: root.slug, version: root.version, digest },
        casesDigest,
        files: loaded.files,
        results,
        run,
      };
      const signed = await signEvalReceipt(buildEvalReceipt(scored), key.privateJwk, key.kid);
      // A tool-only agent's eval is also its benchmark: the tool calls of its runs, signed.
      const toolOnly = definition.modelSet.length === 0;
      const benchmark = toolOnly
        ? await signToolBenchmarkEvents(
            buildToolBenchmarkEvents({
              definition: {
                slug: root.slug,
                version: root.version,
                versionId: definition.identity.versionId,
                digest,
              },
              casesDigest,
              runsPerCase: 1,
              events: benchmarked.flat(),
            }),
            key.privateJwk,
            key.kid,
          )
        : undefined;
      writeEvalReports(outDir, {
        [EVAL_JSON_FILE]: evalReportJson(scored),
        [EVAL_JUNIT_FILE]: evalReportJunit(scored),
        [EVAL_RECEIPT_FILE]: evalReceiptText(signed),
        ...(benchmark !== undefined ? { [TOOL_BENCHMARK_EVENTS_FILE]: toolBenchmarkEventsText(benchmark) } : {}),
      });
      io.stdout(evalReportTable(results, run));
      const shownOut = posix(relative(io.cwd, outDir) || '.');
      io.stdout(
        `wrote ${shownOut}/${EVAL_JSON_FILE}, ${shownOut}/${EVAL_JUNIT_FILE} and the signed eval receipt ${shownOut}/${EVAL_RECEIPT_FILE}\n`,
      );
      if (benchmark !== undefined)
        io.stdout(
          `wrote the signed tool benchmark events ${shownOut}/${TOOL_BENCHMARK_EVENTS_FILE} (${benchmark.events.length} tool calls)\n`,
        );
      return run.passed ? EXIT.ok : EXIT.invalid;
    },
  );
}

/** The key that signs the eval receipt, or the exit code once the reason (no key, an unusable key) is printed. */
async function receiptKey(
  io: OperationIo,
  options: EvalOptions,
  env: NodeJS.ProcessEnv,
  definitionKeyRef: string | undefined,
): Promise<LoadedKey | ExitCode> {
  const keyRef = options.key ?? definitionKeyRef;
  if (keyRef === undefined) {
    io.stderr(
      'error: the definition names no identity.signingKeyRef to sign the eval receipt with: pass --key keyref:<name>\n',
    );
    return EXIT.usage;
  }
  const key = await loadPrivateKey(keyRef, options.keyStore ?? { env });
  if (!key.ok) {
    io.stderr(`error: cannot sign the eval receipt: ${key.message}\n`);
    return EXIT.usage;
  }
  return key;
}
