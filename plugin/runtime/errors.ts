/**
 * The runtime's one error type. Every failure the runtime surfaces (in a run result, a receipt, an
 * A2A error, a log line) carries a stable `code` and a message that is safe to show: it never holds
 * an API key, a request body or a stack trace. Hosts match on `code`, people read `message`.
 */

/** Every code the runtime surfaces (docs/reference/error-codes.md lists them). */
export const RUNTIME_ERROR_CODES = [
  'egress_blocked',
  'config_invalid',
  'missing_secret',
  'provider_http_error',
  'provider_unreachable',
  'provider_bad_response',
  'tool_unavailable',
  'tool_failed',
  'context_budget_exceeded',
  'composition_failed',
  'router_invalid_choice',
  'evaluation_failed',
  'evaluator_unreadable',
  'mcp_error',
  'aborted',
  'internal',
] as const;

export type RuntimeErrorCode = (typeof RUNTIME_ERROR_CODES)[number];

export class RuntimeError extends Error {
  readonly code: RuntimeErrorCode;
  /** Extra safe fields (a host name, an HTTP status), never secrets. */
  readonly details: Readonly<Record<string, string | number | boolean>>;

  constructor(code: RuntimeErrorCode, message: string, details: Record<string, string | number | boolean> = {}) {
    super(message);
    this.name = 'RuntimeError';
    this.code = code;
    this.details = details;
  }
}

export function isRuntimeError(value: unknown): value is RuntimeError {
  return value instanceof RuntimeError;
}

/** The `{ code, message }` pair a result or receipt carries for any thrown value. */
export function describeError(error: unknown): { code: RuntimeErrorCode; message: string } {
  if (error instanceof RuntimeError) return { code: error.code, message: error.message };
  if (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError')) {
    return { code: 'aborted', message: 'the run was aborted' };
  }
  // Foreign errors can carry anything (request bodies, URLs with tokens); only their class is kept.
  const kind = error instanceof Error ? error.name : typeof error;
  return { code: 'internal', message: `internal error (${kind})` };
}
