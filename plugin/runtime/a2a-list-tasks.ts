/**
 * A2A v1.0 `ListTasks` over the kept tasks: the request's parameters read as ProtoJSON
 * (a2a-proto-json.ts: null is unset, an int32 may be a decimal string) and validated (each violation
 * names its field), the filters (`contextId`, `status`, `statusTimestampAfter`) applied, the
 * matches ordered by status timestamp, newest first (ties: task id, descending), and one page cut
 * (`pageSize` 1–100, default 50). `nextPageToken` is a cursor (the last task's timestamp and id)
 * bound to the filter it was issued for and signed with the handler's own HMAC key: a token can
 * neither be edited nor replayed with another filter (either answers -32602 naming `pageToken`).
 */
import type { FieldViolation, TaskView, TaskViewState } from './a2a-wire';
import { V1_TASK_STATE, isObject, renderTask } from './a2a-wire';
import { base64UrlToBytes, bytesToBase64Url } from './base64url';
import { optionalInt32, withoutNullFields } from './a2a-proto-json';

export const LIST_TASKS_DEFAULT_PAGE_SIZE = 50;
export const LIST_TASKS_MAX_PAGE_SIZE = 100;

/** Every v1.0 TaskState name (its index: its ProtoJSON number), for validating the `status` filter. */
const TASK_STATE_NAMES: readonly string[] = /* @__PURE__ */ [
  'UNSPECIFIED',
  'SUBMITTED',
  'WORKING',
  'COMPLETED',
  'FAILED',
  'CANCELED',
  'INPUT_REQUIRED',
  'REJECTED',
  'AUTH_REQUIRED',
].map((name) => `TASK_STATE_${name}`);

/** RFC 3339 / ISO 8601 date-time with a zone, as ProtoJSON writes a Timestamp. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;

export interface ListTasksQuery {
  contextId?: string;
  /** A v1.0 state name; absent (or UNSPECIFIED): any state. */
  status?: string;
  /** Milliseconds since the epoch; tasks with a status timestamp at or after it. */
  statusTimestampAfter?: number;
  pageSize: number;
  pageToken?: string;
  historyLength?: number;
  includeArtifacts: boolean;
}

/** The query of a ListTasks request, or the violations (each naming its parameter). */
export function parseListTasksParams(request: Record<string, unknown>): {
  query?: ListTasksQuery;
  violations: FieldViolation[];
} {
  const params = withoutNullFields(request);
  const violations: FieldViolation[] = [];
  const query: ListTasksQuery = { pageSize: LIST_TASKS_DEFAULT_PAGE_SIZE, includeArtifacts: false };
  const tenant = params['tenant'];
  if (tenant !== undefined && typeof tenant !== 'string')
    violations.push({ field: 'tenant', description: 'must be a string' });
  const contextId = params['contextId'];
  if (contextId !== undefined && typeof contextId !== 'string')
    violations.push({ field: 'contextId', description: 'must be a string' });
  else if (typeof contextId === 'string' && contextId !== '') query.contextId = contextId;
  const status = params['status'];
  if (status !== undefined) {
    const name =
      typeof status === 'number' && Number.isInteger(status)
        ? TASK_STATE_NAMES[status]
        : typeof status === 'string'
          ? TASK_STATE_NAMES.find((n) => n === status)
          : undefined;
    if (name === undefined)
      violations.push({ field: 'status', description: `must be a TaskState: ${TASK_STATE_NAMES.join(', ')}` });
    else if (name !== 'TASK_STATE_UNSPECIFIED') query.status = name;
  }
  const after = params['statusTimestampAfter'];
  if (after !== undefined) {
    const ms = typeof after === 'string' && TIMESTAMP.test(after) ? Date.parse(after) : Number.NaN;
    if (Number.isNaN(ms))
      violations.push({
        field: 'statusTimestampAfter',
        description: 'must be an RFC 3339 timestamp (date, time and offset, such as ...T10:00:00Z)',
      });
    else query.statusTimestampAfter = ms;
  }
  const pageSize = optionalInt32(params['pageSize'], 1);
  if (pageSize === 'invalid' || (pageSize !== undefined && pageSize > LIST_TASKS_MAX_PAGE_SIZE))
    violations.push({ field: 'pageSize', description: `must be an integer from 1 to ${LIST_TASKS_MAX_PAGE_SIZE}` });
  else if (pageSize !== undefined) query.pageSize = pageSize;
  const pageToken = params['pageToken'];
  if (pageToken !== undefined && typeof pageToken !== 'string')
    violations.push({ field: 'pageToken', description: 'must be a string' });
  else if (typeof pageToken === 'string' && pageToken !== '') query.pageToken = pageToken;
  const historyLength = optionalInt32(params['historyLength']);
  if (historyLength === 'invalid')
    violations.push({ field: 'historyLength', description: 'must be a non-negative integer' });
  else if (historyLength !== undefined) query.historyLength = historyLength;
  const includeArtifacts = params['includeArtifacts'];
  if (includeArtifacts !== undefined && typeof includeArtifacts !== 'boolean')
    violations.push({ field: 'includeArtifacts', description: 'must be a boolean' });
  else query.includeArtifacts = includeArtifacts === true;
  if (params['metadata'] !== undefined && !isObject(params['metadata']))
    violations.push({ field: 'metadata', description: 'must be an object' });
  return violations.length > 0 ? { violations } : { query, violations };
}

/** Signs and checks page tokens with a key made once per handler (never leaves it). */
export interface PageTokenSigner {
  sign(payload: string): Promise<string>;
  verify(payload: string, mac: string): Promise<boolean>;
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  try {
    return base64UrlToBytes(text);
  } catch {
    return undefined;
  }
}

export function createPageTokenSigner(sharedKey?: () => Promise<Uint8Array>): PageTokenSigner {
  let key: Promise<CryptoKey> | undefined;
  const hmacKey = () => {
    key ??= sharedKey
      ? sharedKey().then((bytes) =>
          crypto.subtle.importKey('raw', bytes as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, [
            'sign',
            'verify',
          ]),
        )
      : (crypto.subtle.generateKey({ name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']) as Promise<CryptoKey>);
    // A shared key that could not be read is read again next time.
    key.catch(() => {
      key = undefined;
    });
    return key;
  };
  const encoder = new TextEncoder();
  return {
    async sign(payload) {
      return bytesToBase64Url(
        new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(), encoder.encode(payload))),
      );
    },
    async verify(payload, mac) {
      const bytes = fromBase64Url(mac);
      return (
        bytes !== undefined && (await crypto.subtle.verify('HMAC', await hmacKey(), bytes, encoder.encode(payload)))
      );
    },
  };
}

interface Cursor {
  /** The filter the token was issued for. */
  f: string;
  /** The last listed task's status timestamp (ms) and id. */
  t: number;
  i: string;
}

const filterKey = (q: ListTasksQuery) =>
  JSON.stringify([q.contextId ?? null, q.status ?? null, q.statusTimestampAfter ?? null]);
const stateName = (state: TaskViewState) => V1_TASK_STATE[state];

/** Newest status first; equal timestamps by task id, descending: a total order, so cursors are stable. */
function compareNewestFirst(a: { t: number; i: string }, b: { t: number; i: string }): number {
  if (a.t !== b.t) return b.t - a.t;
  return a.i < b.i ? 1 : a.i > b.i ? -1 : 0;
}

/** The ListTasks response for `query` over `tasks`, or the violation of a bad `pageToken`. */
export async function listTasks(
  tasks: readonly TaskView[],
  query: ListTasksQuery,
  signer: PageTokenSigner,
): Promise<{ result?: Record<string, unknown>; violation?: FieldViolation }> {
  const key = filterKey(query);
  let cursor: Cursor | undefined;
  if (query.pageToken !== undefined) {
    const [payloadText, mac, extra] = query.pageToken.split('.');
    const payloadBytes = payloadText === undefined ? undefined : fromBase64Url(payloadText);
    const payload = payloadBytes === undefined ? undefined : new TextDecoder().decode(payloadBytes);
    if (extra !== undefined || mac === undefined || payload === undefined || !(await signer.verify(payload, mac))) {
      return { violation: { field: 'pageToken', description: 'is not a page token this agent issued' } };
    }
    const parsed = JSON.parse(payload) as Cursor;
    if (parsed.f !== key)
      return {
        violation: {
          field: 'pageToken',
          description: 'was issued for a different filter (contextId, status, statusTimestampAfter)',
        },
      };
    cursor = parsed;
  }
  const matching = tasks
    .map((task) => ({ task, t: Date.parse(task.timestamp), i: task.id }))
    .filter(({ task, t }) => {
      if (query.contextId !== undefined && task.contextId !== query.contextId) return false;
      if (query.status !== undefined && stateName(task.state) !== query.status) return false;
      return query.statusTimestampAfter === undefined || t >= query.statusTimestampAfter;
    })
    .sort(compareNewestFirst);
  const start = cursor === undefined ? 0 : matching.findIndex((entry) => compareNewestFirst(entry, cursor) > 0);
  const rest = start < 0 ? [] : matching.slice(start);
  const page = rest.slice(0, query.pageSize);
  let nextPageToken = '';
  const last = page[page.length - 1];
  if (rest.length > page.length && last !== undefined) {
    const payload = JSON.stringify({ f: key, t: last.t, i: last.i } satisfies Cursor);
    nextPageToken = `${bytesToBase64Url(new TextEncoder().encode(payload))}.${await signer.sign(payload)}`;
  }
  return {
    result: {
      tasks: page.map(({ task }) =>
        renderTask('v1', task, query.historyLength, { includeArtifacts: query.includeArtifacts }),
      ),
      nextPageToken,
      pageSize: query.pageSize,
      totalSize: matching.length,
    },
  };
}
