/**
 * The events of an A2A stream (SendStreamingMessage, SubscribeToTask) in both protocol flavours:
 * - v1.0: each event is a `StreamResponse`, exactly one of `{ task }`, `{ statusUpdate }`,
 *   `{ artifactUpdate }` (A2A §3.2.3);
 * - v0.3: the Task itself (`kind: 'task'`), `kind: 'status-update'` with `final`, and
 *   `kind: 'artifact-update'`.
 * A stream opens with the Task, carries a working status update per step of the agent loop (its
 * metadata says which: a model call, a tool call, a composed child), and ends with the answer as
 * artifact chunks (each part of the answer a chunk, long text cut further; `append` after the
 * first, `lastChunk` on the last) and the terminal status.
 */
import type { ProtocolFlavour, TaskView } from './a2a-wire';
import { renderTask, renderTaskArtifacts, renderTaskStatus } from './a2a-wire';
import type { RuntimeLogEvent } from './agent-loop';

/** Largest text of one artifact chunk (UTF-16 code units). */
export const ARTIFACT_CHUNK_CHARS = 16 * 1024;

/** The agent-loop log events that become progress updates, and the fields of each shown to the caller. */
const PROGRESS_FIELDS: Record<string, readonly string[]> = {
  'model.call': ['purpose', 'step', 'model'],
  'tool.call': ['step', 'tool', 'ok', 'errorCode'],
  'child.run': ['child'],
  'context.compacted': ['policy', 'stepsRemoved'],
};

/** The progress a log event reports (its public fields), or undefined for events streams do not carry. */
export function progressOf(event: RuntimeLogEvent): Record<string, string | number | boolean> | undefined {
  const fields = Object.hasOwn(PROGRESS_FIELDS, event.event) ? PROGRESS_FIELDS[event.event] : undefined;
  if (!fields) return undefined;
  const progress: Record<string, string | number | boolean> = { event: event.event };
  for (const field of fields) {
    const value = event[field];
    if (value !== undefined) progress[field] = value;
  }
  return progress;
}

export function streamTask(flavour: ProtocolFlavour, task: TaskView, historyLength?: number): Record<string, unknown> {
  const rendered = renderTask(flavour, task, historyLength);
  return flavour === 'v1' ? { task: rendered } : rendered;
}

export function streamStatusUpdate(
  flavour: ProtocolFlavour,
  task: TaskView,
  metadata?: Record<string, unknown>,
): Record<string, unknown> {
  const event: Record<string, unknown> = {
    taskId: task.id,
    contextId: task.contextId,
    status: renderTaskStatus(flavour, task),
  };
  if (metadata) event['metadata'] = metadata;
  if (flavour === 'v1') return { statusUpdate: event };
  return { kind: 'status-update', ...event, final: task.state !== 'working' };
}

/** The answer of a finished task as artifact-update events, its text cut into chunks; none without an answer. */
export function streamArtifactUpdates(flavour: ProtocolFlavour, task: TaskView): Record<string, unknown>[] {
  const artifacts = renderTaskArtifacts(flavour, task);
  const events: Record<string, unknown>[] = [];
  for (const artifact of artifacts) {
    const parts = artifact['parts'] as Record<string, unknown>[];
    const chunks: Record<string, unknown>[][] = [];
    for (const part of parts) {
      const text = part['text'];
      if (typeof text === 'string' && text.length > ARTIFACT_CHUNK_CHARS) {
        for (let at = 0; at < text.length; at += ARTIFACT_CHUNK_CHARS)
          chunks.push([{ ...part, text: text.slice(at, at + ARTIFACT_CHUNK_CHARS) }]);
      } else chunks.push([part]);
    }
    chunks.forEach((chunk, i) => {
      const event: Record<string, unknown> = {
        taskId: task.id,
        contextId: task.contextId,
        artifact: { ...artifact, parts: chunk },
        append: i > 0,
        lastChunk: i === chunks.length - 1,
      };
      events.push(flavour === 'v1' ? { artifactUpdate: event } : { kind: 'artifact-update', ...event });
    });
  }
  return events;
}

/** The events that end a stream for a task in a terminal state: its answer, then its status with the task's metadata (its receipt among them). */
export function streamEnding(flavour: ProtocolFlavour, task: TaskView): Record<string, unknown>[] {
  return [...streamArtifactUpdates(flavour, task), streamStatusUpdate(flavour, task, task.metadata)];
}
