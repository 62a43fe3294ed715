/**
 * What `agentdef dev --watch` watches (dev-watch-files.ts): the root definition, workspace
 * children, tools.json and mcp.json, and the tool modules with their imports, never a file outside
 * the workspace, whatever a module imports or a plan names.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { insideWorkspace, watchedFiles } from './dev-watch-files';

const repoRoot = join(__dirname, '..', '..');
const root = mkdtempSync(join(tmpdir(), 'agentdef-dev-watch-files-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('watchedFiles', () => {
  it('follows the tool module and its imports inside the workspace, and leaves out what a module imports from outside it or from a package', async () => {
    const workspace = join(root, 'ws');
    mkdirSync(join(workspace, 'agents', 'stats'), { recursive: true });
    mkdirSync(join(workspace, 'tools', 'lib'), { recursive: true });
    writeFileSync(join(workspace, 'package.json'), '{}\n');
    writeFileSync(join(root, 'outside.ts'), "export const OUTSIDE = 'outside';\n");
    writeFileSync(
      join(workspace, 'agents', 'stats', 'agent.json'),
      readFileSync(join(repoRoot, 'examples', 'text-stats', 'agent.json')),
    );
    writeFileSync(
      join(workspace, 'tools.json'),
      JSON.stringify({ tools: { 'text-metrics': { module: './tools/metrics.ts', export: 'countText' } } }),
    );
    writeFileSync(
      join(workspace, 'tools', 'metrics.ts'),
      "import { OUTSIDE } from '../../outside';\nimport { LABEL } from './lib/label';\nimport { parse } from 'yaml';\nexport const countText = () => ({ OUTSIDE, LABEL, parse });\n",
    );
    writeFileSync(join(workspace, 'tools', 'lib', 'label.ts'), "export const LABEL = 'x';\n");
    writeFileSync(join(workspace, 'tools', 'unused.ts'), 'export const UNUSED = 1;\n');
    const files = await watchedFiles({
      workspaceRoot: workspace,
      rootFile: 'agents/stats/agent.json',
      target: 'cloudflare-dynamic-worker',
    });
    expect(files).toEqual([
      'agents/stats/agent.json',
      'mcp.json',
      'tools.json',
      'tools/lib/label.ts',
      'tools/metrics.ts',
    ]);
  });

  it('still watches the definition, tools.json and mcp.json when the definition does not parse (so fixing it is seen)', async () => {
    const workspace = join(root, 'broken');
    mkdirSync(join(workspace, 'agent'), { recursive: true });
    writeFileSync(join(workspace, 'package.json'), '{}\n');
    writeFileSync(join(workspace, 'agent', 'agent.json'), '{ "schemaVersion": ');
    expect(await watchedFiles({ workspaceRoot: workspace, rootFile: 'agent/agent.json', target: 'hb3' })).toEqual([
      'agent/agent.json',
      'mcp.json',
      'tools.json',
    ]);
  });

  it('takes only workspace-relative names that stay inside the workspace', () => {
    for (const name of [
      '',
      '.',
      '..',
      '../x.json',
      'a/../../x.json',
      '/etc/passwd',
      'C:/x.json',
      'a\\..\\x.json',
      'a\0b',
    ])
      expect(insideWorkspace(name)).toBeUndefined();
    expect(insideWorkspace('agents/./x/../y/agent.json')).toBe('agents/y/agent.json');
  });
});
