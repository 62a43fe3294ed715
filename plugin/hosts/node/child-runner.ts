/**
 * The parent side of a quarantined child: a `ChildRunner` that runs each child in a fresh process
 * of the same entry (`--child <nodeId>`), with the child's own heap limit (`memoryMb`) and only
 * its own secrets, under a hard deadline: the parent's remaining wall clock or the child's own
 * `wallClockMs`, whichever ends first, plus a grace period. A child that overruns is killed and
 * the parent issues its receipt (`killed_by_host`); a parent run that is aborted kills its child.
 */
import { spawn } from 'node:child_process';
import type { ChildRunner } from '../../runtime/composition';
import { LimitReached } from '../../runtime/run-budget';
import { RuntimeError } from '../../runtime/errors';
import type { Receipt } from '../../runtime/receipts';
import { resolveLimits } from '../../runtime/runtime-config';
import { CHILD_FLAG, isChildReply, type ChildTask } from './child-protocol';
import type { HostNodeSpec } from '../../host-contract/node-host-spec';
import { heapLimitMb } from '../../host-contract/heap-limit';
import { killedRunReceipt } from './killed-receipt';
import { lineSplitter } from './run-events';

export interface ProcessChildRunnerOptions {
  /** The node specs by id. */
  nodes: Record<string, HostNodeSpec>;
  /** The entry file to start again (`process.argv[1]`). */
  entryFile: string;
  /**
   * A command that starts a child's own job instead (HB3): it is run with the child's job file
   * appended, speaks the same stdin/stdout protocol, and gives the child its own secrets.
   */
  childLauncher?: { command: string; args: string[]; jobFile(nodeId: string): string };
  execPath?: string;
  /** The environment every child gets (no secrets: those go over stdin). */
  env: NodeJS.ProcessEnv;
  /** The secrets a child's subtree needs, resolved by the parent. */
  secretsFor(nodeId: string): Record<string, string>;
  /** A child's receipt key from the key store (its `keyref:` signer), for the receipt of a killed child; kid = the key's thumbprint. */
  receiptSignerFor?(nodeId: string): { signingKey: JsonWebKey; kid: string } | undefined;
  /** Receives every receipt a child process issued (and the parent's receipt for a killed child). */
  deliver(receipt: Receipt): void;
  /** Extra time after the deadline before the child is killed; default 2000 ms. */
  killGraceMs?: number;
  /**
   * Called with each child's pid while it runs, and how to stop it (hosts keep the list to stop
   * them on shutdown: through the child's handle, as the debug guard refuses `process.kill` of another pid).
   */
  onSpawn?(pid: number, exited: Promise<void>, kill: () => void): void;
  now?: () => number;
}

/** The command and arguments a child of `nodeId` starts with (the spawn guard allows exactly these). */
export function childCommand(
  options: Pick<ProcessChildRunnerOptions, 'nodes' | 'entryFile' | 'childLauncher' | 'execPath'>,
  nodeId: string,
): { command: string; args: string[] } {
  const launcher = options.childLauncher;
  if (launcher) return { command: launcher.command, args: [...launcher.args, launcher.jobFile(nodeId)] };
  const memoryMb = options.nodes[nodeId]?.memoryMb;
  const execArgv = memoryMb ? [`--max-old-space-size=${heapLimitMb(memoryMb)}`] : [];
  return { command: options.execPath ?? process.execPath, args: [...execArgv, options.entryFile, CHILD_FLAG, nodeId] };
}

export function processChildRunner(options: ProcessChildRunnerOptions): ChildRunner {
  const now = options.now ?? (() => Date.now());
  return async (child, input, context) => {
    const nodeId = child.nodeId;
    const spec = nodeId ? options.nodes[nodeId] : undefined;
    if (!nodeId || !spec)
      throw new RuntimeError('composition_failed', `no node for child ${child.slug}@${child.version}`);
    const ownLimit = resolveLimits(spec.config.limits).wallClockMs;
    const deadlineMs = Math.min(ownLimit, Math.max(0, context.remainingMs)) + (options.killGraceMs ?? 2000);
    const started = now();
    const launcher = options.childLauncher;
    const { command, args } = childCommand(options, nodeId);
    const proc = spawn(command, args, {
      env: options.env,
      stdio: ['pipe', 'pipe', 'inherit'],
      windowsHide: true,
    });
    const exited = new Promise<void>((resolve) => proc.once('close', () => resolve()));
    if (proc.pid !== undefined) options.onSpawn?.(proc.pid, exited, () => proc.kill('SIGKILL'));
    proc.stdin.on('error', () => undefined);
    const task: ChildTask = {
      nodeId,
      input,
      runId: context.runId,
      composedIn: { card: context.parent.slug, cardVersion: context.parent.version },
      secrets: launcher ? {} : options.secretsFor(nodeId),
    };
    proc.stdin.write(`${JSON.stringify(task)}\n`);

    let reply: unknown;
    const lines = lineSplitter((line) => {
      try {
        reply = JSON.parse(line) as unknown;
      } catch {
        // not the reply
      }
    });
    proc.stdout.on('data', (c: Buffer) => lines.push(c));

    let killedFor: 'deadline' | 'abort' | undefined;
    const kill = (why: 'deadline' | 'abort') => {
      if (killedFor || proc.exitCode !== null) return;
      killedFor = why;
      proc.kill('SIGKILL');
    };
    const timer = setTimeout(() => kill('deadline'), deadlineMs);
    const onAbort = () => kill('abort');
    context.signal.addEventListener('abort', onAbort, { once: true });
    const code = await new Promise<number | null>((resolve) => {
      proc.once('close', (exitCode) => resolve(exitCode));
      proc.once('error', () => resolve(null));
    });
    clearTimeout(timer);
    context.signal.removeEventListener('abort', onAbort);
    lines.end();

    if (killedFor) {
      const keyName = spec.config.receipts.keyBinding;
      const fromKeyStore = options.receiptSignerFor?.(nodeId);
      const key =
        fromKeyStore?.signingKey ??
        (keyName ? (options.secretsFor(nodeId)[keyName] ?? options.env[keyName]) : undefined);
      if (spec.config.receipts.mode === 'signed' && key) {
        const receipt = await killedRunReceipt(
          fromKeyStore
            ? { ...spec.config, receipts: { ...spec.config.receipts, signerRef: fromKeyStore.kid } }
            : spec.config,
          {
            runId: context.runId,
            ...(input.skillId ? { skillId: input.skillId } : {}),
            startedAtMs: started,
            killedAtMs: now(),
            composedIn: task.composedIn,
          },
          key,
        ).catch(() => undefined);
        if (receipt) options.deliver(receipt);
      }
      if (killedFor === 'abort')
        throw context.signal.reason instanceof Error ? context.signal.reason : new LimitReached('limit:wallClock');
      return {
        stopReason: 'limit:wallClock',
        error: {
          code: 'killed_by_host',
          message: `child ${child.slug}@${child.version} overran its wall clock and was killed`,
        },
      };
    }
    if (!isChildReply(reply)) {
      throw new RuntimeError(
        'composition_failed',
        `child ${child.slug}@${child.version} exited (code ${code ?? 'none'}) without a result`,
      );
    }
    for (const receipt of reply.receipts) options.deliver(receipt);
    return reply.result;
  };
}
