import { resolve } from 'node:path';
import { findWorkspaceRoot } from '../../definition/workspace-definitions';
import { receiptsFileProblem } from '../../hosts/node/receipt-file-sink';
import { runCompiledOutput } from '../../targets/run-output';
import { TASK_STORE_ENV, taskStoreEnvValue } from '../../hosts/node/task-store-option';
import { EXIT, type CliIo } from '../io';
import { parsePort } from '../../host-contract/port';
import { RUN } from '../specs/run';
import { parseCommand, usageError } from '../usage';
import { modelBaseUrls } from '../../hosts/node/model-endpoints';
import { type ModelSession, modelModeRequest } from '../../hosts/model-replay/model-session';
import { modelsSummary, startCliModelSession } from '../../operations/model-session';

export async function runRunCommand(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(io, RUN, argv);
  if (typeof parsed === 'number') return parsed;
  if (parsed.positionals.length !== 1)
    return usageError(
      io,
      parsed.positionals.length === 0 ? 'name the compile output folder' : 'name one output folder',
      RUN,
    );
  const port = parsePort(parsed.values.port);
  if (typeof port === 'string') return usageError(io, port, RUN);
  const outDir = resolve(io.cwd, parsed.positionals[0]!);
  const taskStoreOption = parsed.values['task-store'];
  const taskStore = taskStoreOption === undefined ? undefined : taskStoreEnvValue(taskStoreOption, io.cwd);
  if (taskStore !== undefined && 'problem' in taskStore) return usageError(io, taskStore.problem, RUN);
  if (parsed.values.receipts === '')
    return usageError(io, '--receipts names a file (the host appends receipts to it)', RUN);
  const receipts = parsed.values.receipts !== undefined ? resolve(io.cwd, parsed.values.receipts) : undefined;
  // Refused before anything starts: the host only ever appends to a receipts file (receipt-file-sink.ts).
  const receiptsProblem = receipts !== undefined ? receiptsFileProblem(receipts) : undefined;
  if (receiptsProblem !== undefined) {
    io.stderr(`error: --receipts ${receipts}: ${receiptsProblem}\n`);
    return EXIT.usage;
  }
  const models = modelModeRequest({ record: parsed.values.record, replay: parsed.values.replay }, process.env);
  if (typeof models === 'string') return usageError(io, models, RUN);
  let session: ModelSession | undefined;
  if (models) {
    const started = await startCliModelSession({
      request: models,
      outDir,
      outArg: parsed.positionals[0]!,
      io,
      env: process.env,
      upstreams: modelBaseUrls(process.env),
    });
    if (typeof started === 'number') return started;
    session = started;
  }
  try {
    const env = {
      ...process.env,
      ...(taskStore !== undefined ? { [TASK_STORE_ENV]: taskStore.value } : {}),
      ...session?.env,
    };
    const code = await runCompiledOutput({
      outDir,
      workspaceRoot: findWorkspaceRoot(io.cwd) ?? io.cwd,
      ...(port !== undefined ? { port } : {}),
      ...(parsed.values.weights !== undefined ? { weights: resolve(io.cwd, parsed.values.weights) } : {}),
      ...(receipts !== undefined ? { receipts } : {}),
      serve: parsed.values.serve === true,
      logFormat: parsed.values['log-format'],
      // The host opens (or creates) the file and refuses one that is not its own (task-store-env.ts).
      env,
      stdout: io.stdout,
      stderr: io.stderr,
      ...(session ? { onReady: () => io.stdout(`  models:     ${modelsSummary(session)}\n`) } : {}),
    });
    return code === 0 ? EXIT.ok : code;
  } finally {
    await session?.close();
  }
}
