/**
 * A2A wire shapes and conversions, for both protocol versions the handler serves:
 * - v1.0 (ProtoJSON): `SendMessage`; parts are `{ text } | { raw } | { url } | { data }` with an
 *   optional `mediaType`; enums are `ROLE_USER`, `TASK_STATE_COMPLETED`, …;
 * - v0.3 (JSON Schema): `message/send`; parts carry `kind` (`text`/`file`/`data`), roles are
 *   `user`/`agent`, states `completed`/`failed`, objects carry `kind: 'task' | 'message'`.
 * Parsing returns either a neutral message or a list of field violations for `-32602`.
 * JSON nested deeper than `MAX_JSON_DEPTH` (in data parts, metadata, anywhere in the params) is a
 * violation too: every host then answers it the same clear way, instead of whichever host's stack
 * runs out first failing with an internal error while another completes the task.
 */
import type { AgentAnswer, AgentInput } from './agent-loop';
import { withoutNullFieldsIfObject } from './a2a-proto-json';

export type ProtocolFlavour = 'v1' | 'v03';

export interface NeutralPart {
  kind: 'text' | 'data' | 'url' | 'raw';
  text?: string;
  data?: unknown;
  url?: string;
  raw?: string;
  mediaType?: string;
  filename?: string;
}

export interface NeutralMessage {
  messageId: string;
  contextId?: string;
  taskId?: string;
  parts: NeutralPart[];
  metadata?: Record<string, unknown>;
}

export interface FieldViolation {
  field: string;
  description: string;
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** How deep JSON in a request may nest (objects and arrays; the value itself is depth 0). */
export const MAX_JSON_DEPTH = 64;

/**
 * Where `value` nests deeper than `maxDepth` (the field path of the first container past it,
 * below `field`), or undefined. Iterative: measuring never runs out of stack, however deep.
 */
// biome-ignore format: in parentheses, V8 compiles it with the code around it (at the isolate's start), not on the first request: decision 0015
export const tooDeepAt = (function tooDeepAt(value: unknown, field: string, maxDepth = MAX_JSON_DEPTH): string | undefined {
  const stack: [unknown, number, string][] = [[value, 0, field]];
  while (stack.length > 0) {
    const [current, depth, path] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth >= maxDepth) return path;
    if (Array.isArray(current))
      for (let i = current.length - 1; i >= 0; i--) stack.push([current[i], depth + 1, `${path}[${i}]`]);
    else
      for (const [key, child] of Object.entries(current).reverse())
        stack.push([child, depth + 1, `${path}.${key.length > 40 ? `${key.slice(0, 40)}…` : key}`]);
  }
  return undefined;
});

/** The violation for JSON nested too deep at `path`. */
export function tooDeepViolation(path: string): FieldViolation {
  return { field: path, description: `nests deeper than ${MAX_JSON_DEPTH} levels of objects and arrays` };
}

// biome-ignore format: in parentheses, V8 compiles it with the code around it (at the isolate's start), not on the first request: decision 0015
export const parseMessage = (function parseMessage(
  flavour: ProtocolFlavour,
  request: unknown,
  field = 'message',
): { message?: NeutralMessage; violations: FieldViolation[] } {
  const violations: FieldViolation[] = [];
  // v1.0 is ProtoJSON: a member set to null is unset (a2a-proto-json.ts).
  const value = flavour === 'v1' ? withoutNullFieldsIfObject(request) : request;
  if (!isObject(value)) return { violations: [{ field, description: 'a message object is required' }] };
  const deep = tooDeepAt(value, field);
  if (deep !== undefined) return { violations: [tooDeepViolation(deep)] };
  const messageId = value['messageId'];
  if (typeof messageId !== 'string' || messageId === '')
    violations.push({ field: `${field}.messageId`, description: 'a non-empty string is required' });
  const role = value['role'];
  const userRole = flavour === 'v1' ? role === 'ROLE_USER' || role === 1 : role === 'user';
  if (!userRole)
    violations.push({ field: `${field}.role`, description: flavour === 'v1' ? 'must be ROLE_USER' : 'must be user' });
  for (const key of ['contextId', 'taskId'] as const) {
    if (value[key] !== undefined && typeof value[key] !== 'string')
      violations.push({ field: `${field}.${key}`, description: 'must be a string' });
  }
  if (value['metadata'] !== undefined && !isObject(value['metadata']))
    violations.push({ field: `${field}.metadata`, description: 'must be an object' });
  const rawParts = value['parts'];
  const parts: NeutralPart[] = [];
  if (!Array.isArray(rawParts) || rawParts.length === 0)
    violations.push({ field: `${field}.parts`, description: 'at least one part is required' });
  else {
    rawParts.forEach((raw, i) => {
      const part = flavour === 'v1' ? parseV1Part(raw) : parseV03Part(raw);
      if (typeof part === 'string') violations.push({ field: `${field}.parts[${i}]`, description: part });
      else parts.push(part);
    });
  }
  if (violations.length > 0) return { violations };
  const message: NeutralMessage = { messageId: messageId as string, parts };
  if (typeof value['contextId'] === 'string' && value['contextId'] !== '') message.contextId = value['contextId'];
  if (typeof value['taskId'] === 'string' && value['taskId'] !== '') message.taskId = value['taskId'];
  if (isObject(value['metadata'])) message.metadata = value['metadata'];
  return { message, violations };
});

// biome-ignore format: in parentheses, V8 compiles it with the code around it (at the isolate's start), not on the first request: decision 0015
const parseV1Part = (function parseV1Part(value: unknown): NeutralPart | string {
  // `data` is a google.protobuf.Value: its null is the value null, a member set.
  const raw = withoutNullFieldsIfObject(value, ['data']);
  if (!isObject(raw)) return 'a part object is required';
  const present = (['text', 'raw', 'url', 'data'] as const).filter((k) => raw[k] !== undefined);
  if (present.length !== 1) return 'exactly one of text, raw, url, data is required';
  const kind = present[0]!;
  const part: NeutralPart = { kind };
  if (kind === 'text') {
    if (typeof raw['text'] !== 'string') return 'text must be a string';
    part.text = raw['text'];
  } else if (kind === 'raw') {
    if (typeof raw['raw'] !== 'string') return 'raw must be a base64 string';
    part.raw = raw['raw'];
  } else if (kind === 'url') {
    if (typeof raw['url'] !== 'string') return 'url must be a string';
    part.url = raw['url'];
  } else part.data = raw['data'];
  if (typeof raw['mediaType'] === 'string' && raw['mediaType'] !== '') part.mediaType = raw['mediaType'];
  if (typeof raw['filename'] === 'string' && raw['filename'] !== '') part.filename = raw['filename'];
  return part;
});

function parseV03Part(raw: unknown): NeutralPart | string {
  if (!isObject(raw)) return 'a part object is required';
  switch (raw['kind']) {
    case 'text':
      return typeof raw['text'] === 'string' ? { kind: 'text', text: raw['text'] } : 'text must be a string';
    case 'data':
      return isObject(raw['data']) ? { kind: 'data', data: raw['data'] } : 'data must be an object';
    case 'file': {
      const file = raw['file'];
      if (!isObject(file)) return 'file must be an object';
      const part: NeutralPart =
        typeof file['uri'] === 'string'
          ? { kind: 'url', url: file['uri'] }
          : typeof file['bytes'] === 'string'
            ? { kind: 'raw', raw: file['bytes'] }
            : { kind: 'raw' };
      if (part.url === undefined && part.raw === undefined) return 'file needs uri or bytes';
      if (typeof file['mimeType'] === 'string') part.mediaType = file['mimeType'];
      if (typeof file['name'] === 'string') part.filename = file['name'];
      return part;
    }
    default:
      return 'kind must be text, data or file';
  }
}

/** The run input a message carries: text parts joined, the data part(s), file parts as notes. */
// biome-ignore format: in parentheses, V8 compiles it with the code around it (at the isolate's start), not on the first request: decision 0015
export const messageToInput = (function messageToInput(message: NeutralMessage, skillId: string | undefined): AgentInput {
  const lines: string[] = [];
  const data: unknown[] = [];
  for (const part of message.parts) {
    if (part.kind === 'text') lines.push(part.text ?? '');
    else if (part.kind === 'data') data.push(part.data);
    else if (part.kind === 'url')
      lines.push(
        `[file${part.filename ? ` ${part.filename}` : ''}${part.mediaType ? ` (${part.mediaType})` : ''}: ${part.url}]`,
      );
    else
      lines.push(
        `[file${part.filename ? ` ${part.filename}` : ''}${part.mediaType ? ` (${part.mediaType})` : ''}: inline bytes, not read]`,
      );
  }
  const input: AgentInput = { text: lines.join('\n') };
  if (skillId !== undefined) input.skillId = skillId;
  if (data.length === 1) input.data = data[0];
  else if (data.length > 1) input.data = data;
  return input;
});

/** The task states this agent reaches: `working` while a run goes on, then terminal (`canceled` by CancelTask). */
export type TaskViewState = 'working' | 'completed' | 'failed' | 'canceled';

export const TERMINAL_TASK_STATES: readonly TaskViewState[] = ['completed', 'failed', 'canceled'];

/** The v1.0 (ProtoJSON) name of each state. */
export const V1_TASK_STATE: Record<TaskViewState, string> = {
  working: 'TASK_STATE_WORKING',
  completed: 'TASK_STATE_COMPLETED',
  failed: 'TASK_STATE_FAILED',
  canceled: 'TASK_STATE_CANCELED',
};

export interface TaskView {
  id: string;
  contextId: string;
  state: TaskViewState;
  /** The agent's reply text (the answer, or why the run stopped); absent while the task is working. */
  replyText?: string;
  answer?: AgentAnswer;
  /** The user's message; absent when the task store could not keep it (history then holds the reply only). */
  userMessage?: NeutralMessage;
  timestamp: string;
  metadata: Record<string, unknown>;
}

function v1Part(part: NeutralPart): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (part.kind === 'text') out['text'] = part.text;
  else if (part.kind === 'data') out['data'] = part.data;
  else if (part.kind === 'url') out['url'] = part.url;
  else out['raw'] = part.raw;
  if (part.mediaType) out['mediaType'] = part.mediaType;
  if (part.filename) out['filename'] = part.filename;
  return out;
}

function v03Part(part: NeutralPart): Record<string, unknown> {
  if (part.kind === 'text') return { kind: 'text', text: part.text };
  if (part.kind === 'data') return { kind: 'data', data: part.data };
  const file: Record<string, unknown> = part.kind === 'url' ? { uri: part.url } : { bytes: part.raw };
  if (part.mediaType) file['mimeType'] = part.mediaType;
  if (part.filename) file['name'] = part.filename;
  return { kind: 'file', file };
}

function answerParts(answer: AgentAnswer): NeutralPart[] {
  const parts: NeutralPart[] = [{ kind: 'text', text: answer.text, mediaType: 'text/plain' }];
  if (answer.data !== undefined) parts.push({ kind: 'data', data: answer.data, mediaType: 'application/json' });
  return parts;
}

function renderAgentMessage(flavour: ProtocolFlavour, task: TaskView): Record<string, unknown> | undefined {
  if (task.replyText === undefined) return undefined;
  const part = flavour === 'v1' ? v1Part : v03Part;
  const message: Record<string, unknown> = {
    messageId: `${task.id}-reply`,
    contextId: task.contextId,
    taskId: task.id,
    role: flavour === 'v1' ? 'ROLE_AGENT' : 'agent',
    parts: [part({ kind: 'text', text: task.replyText })],
  };
  if (flavour === 'v03') message['kind'] = 'message';
  return message;
}

/** A task's `TaskStatus`: its state, the agent's reply when there is one, and when it was reached. */
export function renderTaskStatus(flavour: ProtocolFlavour, task: TaskView): Record<string, unknown> {
  const status: Record<string, unknown> = { state: flavour === 'v1' ? V1_TASK_STATE[task.state] : task.state };
  const agentMessage = renderAgentMessage(flavour, task);
  if (agentMessage) status['message'] = agentMessage;
  status['timestamp'] = task.timestamp;
  return status;
}

/** A task's artifacts: its answer, when it has one. */
export function renderTaskArtifacts(flavour: ProtocolFlavour, task: TaskView): Record<string, unknown>[] {
  const part = flavour === 'v1' ? v1Part : v03Part;
  return task.answer
    ? [{ artifactId: `${task.id}-answer`, name: 'answer', parts: answerParts(task.answer).map(part) }]
    : [];
}

/**
 * The Task object of one flavour; `historyLength` 0 omits history, n keeps the last n messages;
 * `includeArtifacts: false` omits the artifacts (ListTasks' default).
 */
// biome-ignore format: in parentheses, V8 compiles it with the code around it (at the isolate's start), not on the first request: decision 0015
export const renderTask = (function renderTask(
  flavour: ProtocolFlavour,
  task: TaskView,
  historyLength?: number,
  options: { includeArtifacts?: boolean } = {},
): Record<string, unknown> {
  const part = flavour === 'v1' ? v1Part : v03Part;
  const agentMessage = renderAgentMessage(flavour, task);
  const userMessage: Record<string, unknown> | undefined = task.userMessage && {
    messageId: task.userMessage.messageId,
    contextId: task.contextId,
    taskId: task.id,
    role: flavour === 'v1' ? 'ROLE_USER' : 'user',
    parts: task.userMessage.parts.map(part),
  };
  if (flavour === 'v03' && userMessage) userMessage['kind'] = 'message';
  const out: Record<string, unknown> = {
    id: task.id,
    contextId: task.contextId,
    status: renderTaskStatus(flavour, task),
    metadata: task.metadata,
  };
  if (flavour === 'v03') out['kind'] = 'task';
  const artifacts = renderTaskArtifacts(flavour, task);
  if (artifacts.length > 0 && options.includeArtifacts !== false) out['artifacts'] = artifacts;
  const history = [userMessage, agentMessage].filter((m): m is Record<string, unknown> => m !== undefined);
  const keep = historyLength === undefined ? history.length : Math.max(0, Math.min(history.length, historyLength));
  if (keep > 0) out['history'] = history.slice(history.length - keep);
  return out;
});
