/**
 * The fetch handler of a quarantined child's isolate: it takes one run request from its parent
 * (`POST`, `IsolateRunRequest`), runs the child with the parent's run id, its wall clock capped by
 * what is left of the parent's, and answers the result together with every receipt the run
 * produced (its own and its in-isolate children's): the isolate has no receipt sink of its own.
 */
import { RuntimeError } from '../../runtime/errors';
import type { Receipt } from '../../runtime/receipts';
import { runAgentWithParts } from '../../runtime/run-agent';
import type { RuntimeConfig } from '../../runtime/runtime-config';
import { DEFAULT_LIMITS } from '../../runtime/runtime-config';
import type { WorkerHost } from './agent-deps';
import { nodeDeps } from './agent-deps';
import type { AgentModule, IsolateRunRequest } from './host-types';

const reply = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function parseRunRequest(value: unknown): IsolateRunRequest | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const v = value as Partial<IsolateRunRequest>;
  const input = v.input as IsolateRunRequest['input'] | undefined;
  if (!input || typeof input.text !== 'string' || typeof v.runId !== 'string' || typeof v.remainingMs !== 'number')
    return undefined;
  if (!v.composedIn || typeof v.composedIn.card !== 'string' || typeof v.composedIn.cardVersion !== 'string')
    return undefined;
  return v as IsolateRunRequest;
}

/** The child's config with its wall clock capped by the parent's remaining time. */
export function cappedConfig(config: RuntimeConfig, remainingMs: number): RuntimeConfig {
  const own = config.limits.wallClockMs ?? DEFAULT_LIMITS.wallClockMs;
  const wallClockMs = Math.max(1, Math.min(own, Math.floor(remainingMs)));
  return wallClockMs === own ? config : { ...config, limits: { ...config.limits, wallClockMs } };
}

export async function handleIsolateRun<E extends Record<string, unknown>>(
  request: Request,
  agent: AgentModule<E>,
  host: Omit<WorkerHost<E>, 'sink' | 'waitUntil'>,
): Promise<Response> {
  if (request.method !== 'POST') return reply({ error: 'use POST' }, 405);
  let run: IsolateRunRequest | undefined;
  try {
    run = parseRunRequest(await request.json());
  } catch {
    run = undefined;
  }
  if (!run) return reply({ error: new RuntimeError('config_invalid', 'malformed isolate run request').message }, 400);
  const receipts: Receipt[] = [];
  const pending: Promise<unknown>[] = [];
  const isolateHost: WorkerHost<E> = {
    ...host,
    sink: { put: async (receipt) => void receipts.push(receipt) },
    waitUntil: (promise) => void pending.push(promise),
  };
  const config = cappedConfig(agent.config, run.remainingMs);
  const result = await runAgentWithParts(
    config,
    run.input,
    { ...nodeDeps(agent, isolateHost), waitUntil: isolateHost.waitUntil },
    { runId: run.runId, composedIn: run.composedIn },
  );
  // Receipts are handed to the sink after a microtask; wait for every delivery this run started.
  for (let settled = 0; settled < pending.length; ) {
    const batch = pending.slice(settled);
    settled = pending.length;
    await Promise.allSettled(batch);
  }
  const { receipt: _own, ...rest } = result;
  return reply({ result: rest, receipts });
}
