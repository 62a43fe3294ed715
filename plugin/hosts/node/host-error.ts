/**
 * A problem that stops a host from starting (a missing secret, an MCP server that will not start,
 * an unreachable Ollama, a port in use). Its message is one line that names what is missing and
 * how to provide it; it never carries a secret value. Hosts print it and exit non-zero.
 */
export class HostStartError extends Error {
  constructor(message: string) {
    super(message.replace(/\s*\n\s*/g, ' '));
    this.name = 'HostStartError';
  }
}

/** Exit code of a host that could not start. */
export const START_FAILED_EXIT = 78;
