/**
 * The portable runtime: bundled INTO compiled outputs (Workers, container entrypoints, local
 * launchers). Web-standard APIs only; imports nothing from Node built-ins, Nx, the compiler or the
 * adapters (enforced by portability.test.ts).
 */
export * from './runtime-config';
export * from './errors';
export * from './agent-card';
export * from './card-secrets';
export * from './a2a-handler';
export * from './a2a-wire';
export * from './agent-loop';
export * from './composition';
export * from './compaction';
export * from './egress';
export * from './receipts';
export * from './mcp-http-tool';
export * from './run-agent';
export * from './runtime-parts';
export * from './run-receipt';
export * from './run-budget';
export * from './run-id';
export * from './jcs';
export * from './json-pointer';
export * from './redact';
export * from './transcript';
export * from './base64url';
export * from './providers/model-turn';
export * from './providers/openai-chat';
export * from './providers/anthropic-messages';
export * from './providers/ollama-chat';
export * from './providers/create-model-client';
export * from './hybrid/hybrid-leaf';
export * from './hybrid/grade';
export * from './hybrid/route';
export * from './hybrid/model-calls';
export type * from './hybrid/hybrid-trace';
