/**
 * One eval case asked of a served agent over A2A, with the official `@a2a-js/sdk` client (as
 * `agentdef ask` does): SendStreamingMessage (every agentdef host streams), folding the stream into
 * what `agentdef eval` scores (observation.ts): the answer (text and JSON data parts), the task's
 * terminal state, stop reason and error code, the token usage and run id the host puts in the task's
 * metadata, every model and tool call (the stream's progress events), the signed run receipt and
 * the caller's latency. Never throws: a transport failure becomes the observation's error.
 * Egress blocks are not on the wire: the caller adds them from the host's events (host-events.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Part, StreamResponse, Task } from '@a2a-js/sdk';
import { Role, TaskState } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { canonicalize } from '../runtime/jcs';
import type { EvalObservation, EvalToolCall } from './observation';

/** What a case sends: its input text, optional JSON data, optional skill id. */
export interface CaseInput {
  text: string;
  data?: unknown;
  skill?: string;
}

/** The observation of one case, and the signed run receipt (absent when the host returned none). */
export interface AskedCase {
  observation: EvalObservation;
  receipt?: Record<string, unknown>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function textOf(parts: readonly Part[]): string {
  return parts
    .flatMap((p) => (p.content?.$case === 'text' && typeof p.content.value === 'string' ? [p.content.value] : []))
    .join('');
}

function dataOf(parts: readonly Part[]): unknown[] {
  return parts.flatMap((p) => (p.content?.$case === 'data' ? [p.content.value] : []));
}

function isReceipt(value: unknown): value is Record<string, unknown> {
  return (
    isRecord(value) && typeof value['receiptVersion'] === 'string' && value['receiptVersion'].startsWith('receipt/')
  );
}

/** `sha-256` hex of the receipt's RFC 8785 canonical JSON. */
async function receiptDigest(receipt: Record<string, unknown>): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(canonicalize(receipt))));
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : 0;
}

/**
 * The request the SDK sends: a text part and/or a data part (a case with data and an empty text sends
 * the data part alone, as `agentdef ask` does for an agent that takes JSON and not text), the skill
 * in the metadata.
 */
function request(input: CaseInput) {
  const parts: Part[] =
    input.text === '' && input.data !== undefined
      ? []
      : [{ content: { $case: 'text', value: input.text }, metadata: undefined, filename: '', mediaType: 'text/plain' }];
  if (input.data !== undefined)
    parts.push({
      content: { $case: 'data', value: input.data as Record<string, unknown> },
      metadata: undefined,
      filename: '',
      mediaType: 'application/json',
    });
  return {
    tenant: '',
    message: {
      messageId: randomUUID(),
      contextId: '',
      taskId: '',
      role: Role.ROLE_USER,
      parts,
      metadata: input.skill !== undefined ? { skillId: input.skill } : undefined,
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: undefined,
    metadata: undefined,
  };
}

/** What the stream said, folded: the task as it ended, and the progress events in order. */
interface Folded {
  task?: Task;
  progress: Record<string, unknown>[];
}

async function fold(events: AsyncGenerator<StreamResponse, void, undefined>): Promise<Folded> {
  const folded: Folded = { progress: [] };
  const ensure = (taskId: string, contextId: string): Task =>
    (folded.task ??= { id: taskId, contextId, status: undefined, artifacts: [], history: [], metadata: undefined });
  for await (const event of events) {
    const payload = event.payload;
    if (payload === undefined) continue;
    if (payload.$case === 'task') folded.task = payload.value;
    else if (payload.$case === 'statusUpdate') {
      const update = payload.value;
      const task = ensure(update.taskId, update.contextId);
      task.status = update.status;
      const progress = update.metadata?.['progress'];
      if (isRecord(progress)) folded.progress.push(progress);
      else if (update.metadata) task.metadata = { ...task.metadata, ...update.metadata };
    } else if (payload.$case === 'artifactUpdate') {
      const update = payload.value;
      if (!update.artifact) continue;
      const task = ensure(update.taskId, update.contextId);
      const artifact = update.artifact;
      const existing = task.artifacts.find((a) => a.artifactId === artifact.artifactId);
      if (existing && update.append) existing.parts.push(...artifact.parts);
      else task.artifacts = [...task.artifacts.filter((a) => a.artifactId !== artifact.artifactId), artifact];
    }
  }
  return folded;
}

/** `TASK_STATE_FAILED` → `failed`. */
function stateName(state: TaskState | undefined): string {
  const name = state === undefined ? undefined : TaskState[state];
  return typeof name === 'string' ? name.replace(/^TASK_STATE_/, '').toLowerCase() : 'unknown';
}

/** The observation of a stream that ended with `folded`. */
async function observe(caseId: string, folded: Folded, latencyMs: number): Promise<AskedCase> {
  const task = folded.task;
  const metadata = task?.metadata ?? {};
  const usage = isRecord(metadata['usage']) ? metadata['usage'] : {};
  const toolCalls: EvalToolCall[] = folded.progress
    .filter((p) => p['event'] === 'tool.call')
    .map((p) => ({
      name: typeof p['tool'] === 'string' ? p['tool'] : '?',
      ok: p['ok'] !== false,
      ...(typeof p['errorCode'] === 'string' ? { errorCode: p['errorCode'] } : {}),
    }));
  const observation: EvalObservation = {
    caseId,
    stopReason: typeof metadata['stopReason'] === 'string' ? metadata['stopReason'] : 'unknown',
    latencyMs,
    usage: { inputTokens: count(usage['inputTokens']), outputTokens: count(usage['outputTokens']) },
    modelCalls: folded.progress.filter((p) => p['event'] === 'model.call').length,
    toolCalls,
    egressBlocked: [],
  };
  if (typeof metadata['runId'] === 'string') observation.runId = metadata['runId'];
  const state = task?.status?.state;
  if (state === TaskState.TASK_STATE_COMPLETED) {
    const parts = task?.artifacts.flatMap((a) => a.parts) ?? [];
    const data = dataOf(parts).filter((d) => !isReceipt(d));
    observation.answer = {
      text: textOf(parts),
      ...(data.length > 0 ? { data: data.length === 1 ? data[0] : data } : {}),
    };
  } else {
    observation.error = {
      code: typeof metadata['errorCode'] === 'string' ? metadata['errorCode'] : `task_${stateName(state)}`,
      message: textOf(task?.status?.message?.parts ?? []) || `the task ended ${stateName(state)}`,
    };
  }
  const receipt = [metadata['receipt'], task?.status?.message?.metadata?.['receipt']].find(isReceipt);
  if (receipt !== undefined) observation.receiptDigest = await receiptDigest(receipt);
  // The signed receipt lists every model call of the run, the stream's progress only the loop's.
  const recorded = receipt?.['modelCalls'];
  if (Array.isArray(recorded)) observation.modelCalls = Math.max(observation.modelCalls, recorded.length);
  return receipt !== undefined ? { observation, receipt } : { observation };
}

/**
 * Asks `client` one case and observes the run; `now` is the clock the latency is read from (the
 * operation's: the library reads none of its own).
 */
export async function askCase(client: Client, caseId: string, input: CaseInput, now: () => number): Promise<AskedCase> {
  const started = now();
  try {
    const folded = await fold(client.sendMessageStream(request(input)));
    return await observe(caseId, folded, Math.max(0, Math.round(now() - started)));
  } catch (error) {
    return {
      observation: {
        caseId,
        error: { code: 'a2a_request_failed', message: error instanceof Error ? error.message : String(error) },
        stopReason: 'error',
        latencyMs: Math.max(0, Math.round(now() - started)),
        usage: { inputTokens: 0, outputTokens: 0 },
        modelCalls: 0,
        toolCalls: [],
        egressBlocked: [],
      },
    };
  }
}
