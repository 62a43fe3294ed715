/**
 * The Node host entry installs the network guard before anything else is evaluated (its first
 * import), and evaluates no tool module before the first tool call: a tool's top-level code never
 * runs before the host has armed the guard with its allow-list (so it cannot change a built-in
 * the allow-list is computed with). The bundled entry is run for real here, with `--help`.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NodeHostSpec } from '../host-contract/node-host-spec';
import { createEsbuildBundler } from './bundle';
import { HOST_TOOLS_MODULE, hostEntrySource, hostToolsSource } from './node-host-entry';
import { tempWorkspace, type TempWorkspace } from './test-support';
import { HUNG_CHILD_MS } from '../../e2e/support/hung-child';

const TOOLS = [{ toolId: 'capture', module: './tools/capture.ts', export: 'capture' }];

let ws: TempWorkspace;
beforeEach(() => {
  ws = tempWorkspace({
    'tools/capture.ts': 'process.stderr.write("TOOL-EVALUATED\\n");\nexport function capture() {\n  return 1;\n}\n',
  });
});
afterEach(() => ws.remove());

describe('the Node host entry', () => {
  it('imports the network guard first and no tool module statically', () => {
    const source = hostEntrySource('hb3-main', {} as NodeHostSpec, TOOLS);
    const imports = source.split('\n').filter((line) => line.startsWith('import '));
    expect(imports).toEqual([
      'import "agentdef:node-host/network-guard-install";',
      'import { main } from "agentdef:node-host/hb3-main";',
    ]);
    expect(source).toContain(`import("./${HOST_TOOLS_MODULE}")`);
    expect(hostToolsSource(TOOLS)).toBe('export { capture as __tool0 } from "agentdef:workspace/tools/capture.ts";\n');
  });

  it.each(['hb3-main', 'launcher-main'] as const)(
    '%s: the bundled entry evaluates no tool module until a tool is called',
    async (main) => {
      const bundler = createEsbuildBundler({ workspaceRoot: ws.root });
      const out = await bundler.bundle({
        entry: { path: 'agentdef-host-entry.mjs', contents: hostEntrySource(main, {} as NodeHostSpec, TOOLS) },
        files: { [HOST_TOOLS_MODULE]: hostToolsSource(TOOLS) },
        platform: 'node',
        target: 'node20',
        minify: 'syntax',
        banner:
          "import { createRequire as __agentdefCreateRequire } from 'node:module';\nconst require = __agentdefCreateRequire(import.meta.url);",
        sourcemap: false,
        outFile: 'entry.mjs',
      });
      expect(out.ok).toBe(true);
      const code = (out as { code: string }).code;
      expect(code).toMatch(/installNetworkGuard\(\)[;,]/);
      ws.write('entry.mjs', code);
      const run = spawnSync(process.execPath, [join(ws.root, 'entry.mjs'), '--help'], {
        cwd: ws.root,
        encoding: 'utf8',
        timeout: HUNG_CHILD_MS,
      });
      expect(run.status).toBe(0);
      expect(run.stdout).toContain('usage: node');
      // The tool module is in the bundle, and was not evaluated: nothing called a tool.
      expect(code).toContain('TOOL-EVALUATED');
      expect(run.stderr).not.toContain('TOOL-EVALUATED');
    },
  );
});
