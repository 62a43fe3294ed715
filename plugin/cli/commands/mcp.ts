/**
 * `agentdef mcp [--workspace <dir>] [--artifacts <dir>] [--ledger <sqlite file | postgres://… | secret:NAME>] [--host <module>]`: serves the three
 * application tools (`agentdef.application.catalog`, `.plan`, `.execute`) as a stdio MCP server
 * until the client closes its input.
 *
 * - `--workspace`: the workspace manifests and registered agents are read from (default: found
 *   from the working directory, like the other verbs).
 * - `--artifacts`: the reference gateway's folder of approved artifacts, workspace-relative
 *   (default `approved-artifacts`; local-gateway-owner.ts).
 * - `--ledger`: a durable SQLite execution ledger (default: in memory, process-local), so that an
 *   execute repeated with the same idempotency key after a restart replays the recorded run; or a
 *   PostgreSQL connection string (`postgres://…`, or `secret:NAME` to read it from the keychain or
 *   `AGENTDEF_SECRET_NAME`), a ledger shared by every host given that database. A connection
 *   string is never printed: the start-up line says `execution ledger: PostgreSQL`.
 * - `--host`: an embedding host module admitting component packs (open-application-host.ts).
 *
 * Standard output carries the MCP protocol only: the command's own messages go to stderr, and
 * while it serves, `console` output is sent to stderr too. Packs and operator authority are host
 * API only; nothing here takes them from the command line or a tool call.
 */
import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { format } from 'node:util';
import { findWorkspaceRoot } from '../../definition/workspace-root';
import { EXIT, type CliIo } from '../io';
import { serveApplicationMcp } from '../mcp-server';
import { MCP } from '../specs/mcp';
import { ledgerLabel, openApplicationHost } from '../../operations/open-application-host';
import { parseCommand, usageError } from '../usage';

/** The streams the protocol runs over: the process's own unless a test gives others. */
export interface McpStreams {
  readonly input: Readable;
  readonly output: Writable;
}

function packageVersion(): string {
  try {
    return String(
      (JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { version: unknown })
        .version,
    );
  } catch {
    return '0.0.0';
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Sends `console.log`/`info`/`debug`/`warn` to stderr until the returned function restores them. */
function consoleToStderr(io: CliIo): () => void {
  const saved = { log: console.log, info: console.info, debug: console.debug, warn: console.warn };
  const toStderr = (...args: unknown[]) => io.stderr(`${format(...args)}\n`);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  console.warn = toStderr;
  return () => Object.assign(console, saved);
}

export async function runMcpCommand(argv: string[], io: CliIo, streams?: McpStreams): Promise<number> {
  const parsed = parseCommand(io, MCP, argv);
  if (typeof parsed === 'number') return parsed;
  const { values } = parsed;
  const workspaceRoot =
    values.workspace !== undefined ? resolve(io.cwd, values.workspace) : (findWorkspaceRoot(io.cwd) ?? resolve(io.cwd));
  if (!isDirectory(workspaceRoot))
    return usageError(io, `the workspace ${values.workspace ?? workspaceRoot} is not a folder`, MCP);

  if (values.ledger === '')
    return usageError(
      io,
      '--ledger needs the path of a SQLite file (or a postgres:// connection string, or secret:NAME)',
      MCP,
    );
  const host = await openApplicationHost({
    workspaceRoot,
    cwd: io.cwd,
    artifacts: values.artifacts,
    ledger: values.ledger,
    host: values.host,
  });
  if (!host.ok) {
    // A flag's own problem (`--artifacts: …`, `--ledger: …`, `--host: …`) comes with the usage line.
    if (host.message.startsWith('--')) return usageError(io, host.message, MCP);
    io.stderr(`error: the application host cannot start: ${host.message}\n`);
    return EXIT.usage;
  }
  const ledgerKind = ledgerLabel(values.ledger);

  const restoreConsole = consoleToStderr(io);
  const stopOnSignal = () => {
    void serving?.stop();
  };
  let serving: Awaited<ReturnType<typeof serveApplicationMcp>> | undefined;
  try {
    serving = await serveApplicationMcp({
      service: host.service,
      version: packageVersion(),
      log: (line) => io.stderr(`${line}\n`),
      ...(streams ? { input: streams.input, output: streams.output } : {}),
    });
    process.once('SIGINT', stopOnSignal);
    process.once('SIGTERM', stopOnSignal);
    io.stderr(`agentdef mcp: serving the application tools over stdio (execution ledger: ${ledgerKind})\n`);
    await serving.closed;
  } finally {
    process.off('SIGINT', stopOnSignal);
    process.off('SIGTERM', stopOnSignal);
    restoreConsole();
    await host.service.close();
  }
  return EXIT.ok;
}
