/**
 * A third-party Nx plugin that does the least a plugin can: for every file agentdef's glob matches,
 * a project with a name and nothing else. The graph bench runs it on the agentdef workspace's
 * folders to split what any non-built-in plugin costs under Nx's plugin isolation (its worker
 * process, the glob, the messages) from what agentdef's project configurations cost Nx (merging,
 * sending and caching eight targets per project with their inputs).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { INFERENCE_GLOB } from '../../plugin/graph/create-nodes';

export const MINIMAL_PLUGIN_NAME = 'bench-minimal-nx-plugin';

const PLUGIN_SOURCE = `const { posix } = require('node:path');
exports.name = ${JSON.stringify(MINIMAL_PLUGIN_NAME)};
exports.createNodesV2 = [${JSON.stringify(INFERENCE_GLOB)}, async (files) => files.map((file) => {
  const root = posix.dirname(file);
  return [file, { projects: { [root]: { name: posix.basename(root) } } }];
})];
`;

/** Installs the plugin in `workspace`'s node_modules; returns the name nx.json registers. */
export function installMinimalNxPlugin(workspace: string): string {
  const dir = join(workspace, 'node_modules', MINIMAL_PLUGIN_NAME);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: MINIMAL_PLUGIN_NAME, version: '1.0.0', main: 'index.js' }, null, 2)}\n`,
  );
  writeFileSync(join(dir, 'index.js'), PLUGIN_SOURCE);
  return MINIMAL_PLUGIN_NAME;
}
