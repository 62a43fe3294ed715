/**
 * How a host runs a quarantined child in its own process: it starts its own entry again with
 * `--child <nodeId>` and writes one JSON line on the child's stdin (the task, the parent's run id,
 * the secrets the child's nodes need); the child answers with one JSON line on stdout (its result
 * and every receipt its process issued) and exits. The parent keeps the child's stdin open: when it
 * closes, the parent is gone and the child exits at once. Logs go to stderr.
 */
import type { AgentInput } from '../../runtime/agent-loop';
import type { ChildResult } from '../../runtime/composition';
import type { Receipt } from '../../runtime/receipts';

export const CHILD_FLAG = '--child';

export interface ChildTask {
  nodeId: string;
  input: AgentInput;
  runId: string;
  composedIn: { card: string; cardVersion: string };
  /** Secret values by binding name: only the child subtree's. */
  secrets: Record<string, string>;
}

export interface ChildReply {
  result: ChildResult;
  receipts: Receipt[];
}

export function isChildReply(value: unknown): value is ChildReply {
  if (value === null || typeof value !== 'object') return false;
  const reply = value as Partial<ChildReply>;
  return (
    typeof reply.result === 'object' &&
    reply.result !== null &&
    typeof reply.result.stopReason === 'string' &&
    Array.isArray(reply.receipts)
  );
}
