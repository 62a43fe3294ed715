/**
 * The Worker host glue: bundled INTO compiled Workers (as `agentdef:worker-host`) next to the
 * portable runtime, never run by the compiler. Web-standard APIs only; no `cloudflare:*` import
 * (the generated entry modules own the `WorkerEntrypoint` classes and hand their `env`, `ctx` and
 * props to these functions), so it bundles the same from TypeScript sources and compiled CommonJS.
 */
export * from './host-types';
export * from '../../host-contract/worker-host-plan';
export * from './egress-gateway';
export * from './egress-guard';
export * from './receipt-sink';
export * from './worker-telemetry';
export * from './agent-deps';
export * from './isolate-runner';
export * from './isolate-entry';
export * from './loader-host';
export * from './task-store-object';
export * from './task-store-client';
