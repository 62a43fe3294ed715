/**
 * `mcp-servers.json`: the stdio MCP servers a local launcher starts, as the workspace's mcp.json
 * maps them (command, args, environment references, never values), with the tools each serves
 * to which agent. The launcher carries the same table in its host spec; this file is for people and
 * tools that inspect the output. Commands run in the workspace (`AGENTDEF_WORKSPACE`).
 */
import type { NodeHostSpec } from '../../host-contract/node-host-spec';
import { agentKey } from '../../host-contract/node-host-spec';

export interface McpServersFile {
  cwd: 'workspace';
  servers: Record<
    string,
    {
      command: string;
      args: string[];
      env: Record<string, string>;
      tools: { tool: string; toolId: string; agent: string }[];
    }
  >;
}

export function mcpServersFile(host: NodeHostSpec): McpServersFile {
  const servers: McpServersFile['servers'] = {};
  for (const [name, server] of Object.entries(host.mcpServers)) {
    servers[name] = {
      command: server.command,
      args: [...server.args],
      env: Object.fromEntries(Object.entries(server.env).map(([k, ref]) => [k, `${ref.from}:${ref.name}`])),
      tools: [],
    };
  }
  for (const node of Object.values(host.nodes)) {
    for (const tool of node.config.tools) {
      if (tool.kind === 'mcp-stdio' && tool.mcpServer && servers[tool.mcpServer])
        servers[tool.mcpServer]!.tools.push({ tool: tool.name, toolId: tool.id, agent: agentKey(node) });
    }
  }
  return { cwd: 'workspace', servers };
}
