/** The local launcher's main: the Node host with stdio MCP servers (official MCP SDK client). */
import type { HostProgram } from '../../host-contract/node-host-spec';
import { startMcpStdioTools } from './mcp-stdio-tools';
import { runNodeHost } from './node-host-main';

export function main(program: HostProgram): void {
  void runNodeHost(program, { startMcp: startMcpStdioTools });
}
