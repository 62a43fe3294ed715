/**
 * The receipt of a run its host had to kill (it overran `wallClockMs` and did not stop by itself:
 * a blocked event loop, a tool that ignores its abort signal). The process that ran it cannot
 * speak any more, so whoever killed it issues the receipt: `limit:wallClock`, error code
 * `killed_by_host`, the latency until the kill, and nothing about the inside of the run (no tool
 * calls, no steps), signed with the agent's receipt key like any other receipt.
 */
import type { Receipt, UnsignedReceipt } from '../../runtime/receipts';
import { buildReceipt, signReceipt } from '../../runtime/receipts';
import { emptyLoopResult } from '../../runtime/agent-loop';
import type { RuntimeConfig } from '../../runtime/runtime-config';

export const KILLED_ERROR_CODE = 'killed_by_host';

export interface KilledRun {
  runId: string;
  skillId?: string;
  startedAtMs: number;
  killedAtMs: number;
  composedIn?: { card: string; cardVersion: string };
}

export async function killedRunReceipt(
  config: RuntimeConfig,
  run: KilledRun,
  signingKey: string | JsonWebKey,
): Promise<Receipt> {
  const result = emptyLoopResult(run.skillId ?? config.skills[0]?.id ?? '');
  result.stopReason = 'limit:wallClock';
  result.error = { code: KILLED_ERROR_CODE, message: 'the host killed the run after its wall clock ran out' };
  const unsigned: UnsignedReceipt = await buildReceipt(config, result, {
    runId: run.runId,
    issuedAtMs: run.killedAtMs,
    latencyMs: run.killedAtMs - run.startedAtMs,
    ...(run.composedIn ? { composedIn: run.composedIn } : {}),
  });
  return signReceipt(unsigned, signingKey, config.receipts.signerRef ?? 'unnamed');
}
