/**
 * The little of `cloudflare:workers` (provided by workerd at run time) the benchmark's
 * hand-written Durable Object Worker uses (minimal-durable-a2a-worker.ts), typed for `tsc`.
 */
declare module 'cloudflare:workers' {
  export interface SqlStorage {
    exec<T extends Record<string, unknown>>(query: string, ...bindings: unknown[]): { toArray(): T[] };
  }
  export interface DurableObjectState {
    storage: { sql: SqlStorage };
  }
  export class DurableObject<Env = unknown> {
    protected ctx: DurableObjectState;
    protected env: Env;
    constructor(ctx: DurableObjectState, env: Env);
  }
}
