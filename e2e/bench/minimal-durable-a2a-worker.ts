/**
 * The benchmark's Durable Object baseline: the hand-written minimal Worker (minimal-a2a-worker.ts)
 * that also keeps its task, as one would write it by hand: each SendMessage puts the completed
 * task, once, into a SQLite-backed Durable Object (`this.ctx.storage.sql`, one object per agent,
 * bound as `TASKS`), awaits the put, and answers. GetTask reads it back. No eviction, no size
 * budget, no working state: just the work and one kept task per request.
 */
import { DurableObject, type DurableObjectState } from 'cloudflare:workers';
import { measureText } from '../../examples/tools/text-metrics';
import worker from './minimal-a2a-worker';

/** The object's namespace binding, as far as the Worker uses it (its stubs answer the object's methods over RPC). */
interface Env {
  TASKS: {
    idFromName(name: string): unknown;
    get(id: unknown): { put(id: string, text: string): Promise<void>; get(id: string): Promise<string | null> };
  };
}

/** The tasks, in the object's SQLite storage. */
export class HandwrittenTaskStore extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS tasks (id TEXT PRIMARY KEY, text TEXT NOT NULL)');
  }

  put(id: string, text: string): void {
    this.ctx.storage.sql.exec('INSERT OR REPLACE INTO tasks (id, text) VALUES (?, ?)', id, text);
  }

  get(id: string): string | null {
    const row = this.ctx.storage.sql.exec<{ text: string }>('SELECT text FROM tasks WHERE id = ?', id).toArray()[0];
    return row ? row.text : null;
  }
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

type RpcBody = {
  id?: string | number;
  method?: string;
  params?: { id?: string; message?: { messageId?: string; contextId?: string; parts?: { text?: string }[] } };
};

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname !== '/a2a/v1' || request.method !== 'POST') return worker.fetch(request);
    let body: RpcBody;
    try {
      body = JSON.parse(await request.text()) as RpcBody;
    } catch {
      return json({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Invalid JSON payload' } });
    }
    const id = body.id ?? null;
    const store = env.TASKS.get(env.TASKS.idFromName('text-stats'));
    if (body.method === 'GetTask') {
      const kept = await store.get(String(body.params?.id ?? ''));
      return kept === null
        ? json({ jsonrpc: '2.0', id, error: { code: -32001, message: 'Task not found' } })
        : json({ jsonrpc: '2.0', id, result: JSON.parse(kept) });
    }
    if (body.method !== 'SendMessage')
      return json({ jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } });
    const message = body.params?.message;
    const text = (message?.parts ?? []).map((p) => p.text ?? '').join('\n');
    const answer = JSON.stringify(measureText(text));
    const taskId = crypto.randomUUID();
    const contextId = message?.contextId || crypto.randomUUID();
    const task = {
      id: taskId,
      contextId,
      status: { state: 'TASK_STATE_COMPLETED', timestamp: new Date().toISOString() },
      artifacts: [
        { artifactId: `${taskId}-answer`, name: 'answer', parts: [{ text: answer, mediaType: 'application/json' }] },
      ],
      history: [
        { messageId: message?.messageId ?? '', contextId, taskId, role: 'ROLE_USER', parts: message?.parts ?? [] },
      ],
    };
    await store.put(taskId, JSON.stringify(task));
    return json({ jsonrpc: '2.0', id, result: { task } });
  },
};
