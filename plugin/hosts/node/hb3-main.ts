/** The HB3 container entrypoint's main: the Node host without stdio MCP (containers reach MCP over HTTP). */
import type { HostProgram } from '../../host-contract/node-host-spec';
import { runNodeHost } from './node-host-main';

export function main(program: HostProgram): void {
  void runNodeHost(program);
}
