/**
 * The child side of a quarantined node (`<entry> --child <nodeId>`): reads its task from stdin,
 * starts what its nodes need (MCP servers, native tools, checkpoints) with the secrets the parent
 * sent, runs the node once, answers with its result and every receipt it issued on stdout, stops
 * everything and exits. When stdin closes before that, the parent is gone: it exits at once.
 */
import type { Receipt } from '../../runtime/receipts';
import { runAgent } from '../../runtime/run-agent';
import type { ChildReply, ChildTask } from './child-protocol';
import { HostStartError, START_FAILED_EXIT } from './host-error';
import { loadPrivateKey } from './key-store';
import type { HostProgram } from '../../host-contract/node-host-spec';
import type { McpStdioTools, StartMcpOptions } from './mcp-stdio-tools';
import { startProcessHost } from './process-host';
import { formatEvent } from './run-events';

function readFirstLine(): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const index = buffered.indexOf('\n');
      if (index >= 0) {
        process.stdin.off('data', onData);
        process.stdin.off('end', onEnd);
        resolve(buffered.slice(0, index));
      }
    };
    const onEnd = () => reject(new Error('stdin closed before the task arrived'));
    process.stdin.on('data', onData);
    process.stdin.once('end', onEnd);
  });
}

export async function runChildMain(
  program: HostProgram,
  nodeId: string,
  options: {
    readCheckpoints: boolean;
    checkOllama: boolean;
    localKeys?: boolean;
    startMcp?: (o: StartMcpOptions) => Promise<McpStdioTools>;
  },
): Promise<void> {
  const log = (event: object) => process.stderr.write(formatEvent(event as { event: string }));
  let task: ChildTask;
  try {
    task = JSON.parse(await readFirstLine()) as ChildTask;
  } catch (error) {
    process.stderr.write(`agentdef: error: child ${nodeId}: ${(error as Error).message}\n`);
    process.exit(START_FAILED_EXIT);
  }
  // The parent holds our stdin open for as long as it lives.
  process.stdin.once('end', () => process.exit(1));
  process.stdin.resume();

  const receipts: Receipt[] = [];
  let host: Awaited<ReturnType<typeof startProcessHost>> | undefined;
  try {
    host = await startProcessHost({
      program,
      nodeId,
      env: process.env,
      // From the parent; a child started as its own job (HB3) reads its own secrets from its environment.
      secrets: { get: async (name) => task.secrets[name] ?? (process.env[name] || undefined) },
      // A local child (started by the launcher on this machine) reads a `keyref:` receipt key from the key store as its parent did.
      ...(options.localKeys ? { receiptKeys: (ref: string) => loadPrivateKey(ref, { env: process.env }) } : {}),
      entryFile: process.argv[1] ?? '',
      cwd: process.env['AGENTDEF_WORKSPACE'] || process.cwd(),
      sink: { put: async (receipt) => void receipts.push(receipt) },
      log,
      readCheckpoints: options.readCheckpoints,
      checkOllama: options.checkOllama,
      ...(options.startMcp ? { startMcp: options.startMcp } : {}),
    });
    const config = host.configs[nodeId]!;
    const result = await runAgent(config, task.input, host.depsFor(nodeId), {
      runId: task.runId,
      composedIn: task.composedIn,
    });
    await host.settled();
    const reply: ChildReply = {
      result: {
        stopReason: result.stopReason,
        ...(result.answer ? { answer: result.answer } : {}),
        ...(result.error ? { error: result.error } : {}),
      },
      receipts,
    };
    await new Promise<void>((resolve) => process.stdout.write(`${JSON.stringify(reply)}\n`, () => resolve()));
    await host.close();
    process.exit(0);
  } catch (error) {
    await host?.close().catch(() => undefined);
    const message =
      error instanceof HostStartError
        ? error.message
        : `internal error (${error instanceof Error ? error.name : typeof error})`;
    process.stderr.write(`agentdef: error: ${message}\n`);
    process.exit(START_FAILED_EXIT);
  }
}
