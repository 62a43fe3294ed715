/**
 * The stdio MCP servers of a local host, through the official MCP SDK client: each server is
 * spawned (`StdioClientTransport`), initialised, and asked for its tools; a declared tool the
 * server does not offer, or offers with a different input schema, stops the start with a clear
 * message. Tool calls go through `client.callTool`; the result is the tool's
 * `structuredContent`, else its text, else its content blocks (as for MCP over HTTP), and
 * `isError` becomes a `tool_failed` error. `close()` stops every server.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { ToolHandler } from '../../runtime/agent-loop';
import { RuntimeError } from '../../runtime/errors';
import { HostStartError } from './host-error';
import type { HostMcpServer } from '../../host-contract/node-host-spec';
import { inputSchemaDifference } from './tool-schema-diff';

export interface DeclaredMcpTool {
  toolId: string;
  server: string;
  /** The tool's name on the server. */
  name: string;
  inputSchema?: Record<string, unknown>;
  /** `slug@version` of the agent that declares it (for messages). */
  agent: string;
}

export interface StartMcpOptions {
  servers: Record<string, HostMcpServer>;
  tools: DeclaredMcpTool[];
  /** Values of the servers' `env` references, already resolved (`secret:` from the secret source). */
  resolveEnv: (server: string, variable: string, ref: HostMcpServer['env'][string]) => string | undefined;
  /** Working directory of the servers (the workspace root): relative args are taken from here. */
  cwd: string;
  /** How long a server may take to initialise and list its tools. */
  startTimeoutMs?: number;
  log?: (event: string, fields: Record<string, unknown>) => void;
}

export interface McpStdioTools {
  handlers: Record<string, ToolHandler>;
  /** Process ids of the running servers. */
  pids(): number[];
  close(): Promise<void>;
}

function describeCommand(server: HostMcpServer): string {
  return [server.command, ...server.args].join(' ');
}

async function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(onTimeout()), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

interface Started {
  name: string;
  client: Client;
  transport: StdioClientTransport;
}

/** The environment a server starts with: the SDK's default variables and its `env` resolved; throws a start error naming the first one missing. */
export function mcpServerEnv(
  name: string,
  server: HostMcpServer,
  resolveEnv: StartMcpOptions['resolveEnv'],
): Record<string, string> {
  const env: Record<string, string> = { ...getDefaultEnvironment() };
  for (const [variable, ref] of Object.entries(server.env)) {
    const value = resolveEnv(name, variable, ref);
    if (value === undefined) {
      throw new HostStartError(
        `MCP server "${name}" needs ${ref.from === 'secret' ? 'secret' : 'environment variable'} ${ref.name} for its ${variable}, which is not set`,
      );
    }
    env[variable] = value;
  }
  return env;
}

async function startOne(name: string, server: HostMcpServer, options: StartMcpOptions): Promise<Started> {
  const env = mcpServerEnv(name, server, options.resolveEnv);
  const transport = new StdioClientTransport({
    command: server.command,
    args: server.args,
    env,
    cwd: options.cwd,
    stderr: 'pipe',
  });
  const stderrLines: string[] = [];
  transport.stderr?.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) if (line.trim() !== '') stderrLines.push(line.trim());
    if (stderrLines.length > 20) stderrLines.splice(0, stderrLines.length - 20);
  });
  let exited = false;
  const client = new Client({ name: 'agentdef-host', version: '1.0.0' });
  client.onclose = () => {
    exited = true;
  };
  const timeoutMs = options.startTimeoutMs ?? 15_000;
  try {
    await withTimeout(client.connect(transport), timeoutMs, () => new Error('timeout'));
  } catch (error) {
    await transport.close().catch(() => undefined);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT')
      throw new HostStartError(
        `MCP server "${name}" cannot start: command "${server.command}" was not found; install it or fix "servers.${name}.command" in mcp.json`,
      );
    if ((error as Error).message === 'timeout')
      throw new HostStartError(
        `MCP server "${name}" (${describeCommand(server)}) did not answer initialize within ${timeoutMs} ms; run it by hand to see why, or fix it in mcp.json`,
      );
    // Give the last stderr lines a moment to arrive.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const last = stderrLines.at(-1);
    throw new HostStartError(
      `MCP server "${name}" (${describeCommand(server)}) ${exited ? 'exited while starting' : 'failed to initialise'}${last ? `: ${last.slice(0, 200)}` : ''}; run it by hand to see why, or fix "servers.${name}" in mcp.json`,
    );
  }
  return { name, client, transport };
}

async function listAllTools(client: Client): Promise<{ name: string; inputSchema?: unknown }[]> {
  const out: { name: string; inputSchema?: unknown }[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : {});
    out.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

function resultValue(name: string, result: Record<string, unknown>): unknown {
  const blocks = Array.isArray(result['content']) ? (result['content'] as { type?: string; text?: string }[]) : [];
  const text = blocks.every((b) => b.type === 'text') ? blocks.map((b) => b.text ?? '').join('\n') : undefined;
  if (result['isError'])
    throw new RuntimeError('tool_failed', `${name}: ${(text ?? 'the tool reported an error').slice(0, 500)}`);
  if (result['structuredContent'] !== undefined) return result['structuredContent'];
  return text ?? blocks;
}

export async function startMcpStdioTools(options: StartMcpOptions): Promise<McpStdioTools> {
  const started: Started[] = [];
  const close = async () => {
    await Promise.all(started.splice(0).map((s) => s.client.close().catch(() => undefined)));
  };
  const handlers: Record<string, ToolHandler> = {};
  try {
    const names = [...new Set(options.tools.map((t) => t.server))].sort();
    for (const name of names) {
      const server = options.servers[name];
      if (!server)
        throw new HostStartError(
          `MCP server "${name}" is not in this output's mcp-servers.json: declare it in the workspace's mcp.json and compile again`,
        );
      const one = await startOne(name, server, options);
      started.push(one);
      let offered: { name: string; inputSchema?: unknown }[];
      try {
        offered = await listAllTools(one.client);
      } catch {
        throw new HostStartError(
          `MCP server "${name}" (${describeCommand(server)}) failed to list its tools; run it by hand to see why`,
        );
      }
      for (const tool of options.tools.filter((t) => t.server === name)) {
        const match = offered.find((o) => o.name === tool.name);
        if (!match) {
          const list = offered.map((o) => o.name).join(', ') || 'none';
          throw new HostStartError(
            `MCP server "${name}" does not offer tool "${tool.name}" that ${tool.agent} declares (it offers: ${list}); fix the server in mcp.json or the agent's toolInventory`,
          );
        }
        if (tool.inputSchema) {
          const difference = inputSchemaDifference(tool.inputSchema, match.inputSchema);
          if (difference)
            throw new HostStartError(
              `tool "${tool.name}" of MCP server "${name}" does not match the inputSchema ${tool.agent} declares: ${difference}`,
            );
        }
        const client = one.client;
        handlers[tool.toolId] = async (args, context) => {
          try {
            const result = await client.callTool({ name: tool.name, arguments: args }, undefined, {
              signal: context.signal,
            });
            return resultValue(tool.name, result as Record<string, unknown>);
          } catch (error) {
            if (error instanceof RuntimeError) throw error;
            if (context.signal.aborted) throw context.signal.reason ?? error;
            throw new RuntimeError(
              'mcp_error',
              `MCP server ${name}: ${tool.name} failed (${error instanceof Error ? error.message.slice(0, 200) : 'error'})`,
            );
          }
        };
      }
      options.log?.('mcp.ready', { server: name, tools: offered.length, pid: one.transport.pid ?? undefined });
    }
  } catch (error) {
    await close();
    throw error;
  }
  return {
    handlers,
    pids: () => started.map((s) => s.transport.pid).filter((p): p is number => typeof p === 'number'),
    close,
  };
}
