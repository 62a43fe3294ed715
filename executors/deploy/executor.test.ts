/** The `deploy` executor: `nx run <agent>:deploy` on the project's compiled output, `--dry-run` (dryRun) only printing. */
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { captureOutput } from '../__test-support__/captured-output';
import { executorContext } from '../test-support';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { compileAgent } from '../../plugin/compiler/compile';
import deployExecutor from './executor';

const REPO = join(__dirname, '..', '..');
let root: string;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'agentdef-deploy-executor-'));
  writeFileSync(join(root, 'nx.json'), '{}\n');
  cpSync(join(REPO, 'examples', 'code-search'), join(root, 'examples', 'code-search'), { recursive: true });
  writeFileSync(
    join(root, 'mcp.json'),
    JSON.stringify({ servers: { 'code-search-index': { command: 'node', args: ['server.mjs'] } } }),
  );
  const compiled = await compileAgent({ file: join(root, 'examples/code-search/agent.json'), workspaceRoot: root });
  expect(compiled.outDir).toBe('dist/agents/code-search');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

const context = (projectName: string) => executorContext(root, projectName, 'deploy');

describe('deploy executor', () => {
  it('prints only with dryRun (or dry-run as Nx may pass it), then installs and uninstalls the project output', async () => {
    const out = captureOutput();
    for (const flag of [{ dryRun: true }, { 'dry-run': true }]) {
      expect(await deployExecutor({ service: 'systemd', into: 'services', ...flag }, context('code-search'))).toEqual({
        success: true,
      });
    }
    expect(out.stdout()).toContain(
      'dry run: would install the systemd service for code-search at services/agentdef-code-search.service',
    );
    expect(existsSync(join(root, 'services'))).toBe(false);
    expect(await deployExecutor({ service: 'systemd', into: 'services', port: 7411 }, context('code-search'))).toEqual({
      success: true,
    });
    expect(readdirSync(join(root, 'services'))).toEqual(['agentdef-code-search.service']);
    expect(
      await deployExecutor({ service: 'systemd', into: 'services', uninstall: true }, context('code-search')),
    ).toEqual({ success: true });
    expect(readdirSync(join(root, 'services'))).toEqual([]);
  });

  it('fails on a missing output or a bad option', async () => {
    const out = captureOutput();
    expect(await deployExecutor({ outputPath: 'dist/agents/nothing', dryRun: true }, context('nothing'))).toEqual({
      success: false,
    });
    expect(out.stderr()).toContain('dist/agents/nothing is not a compile output');
    expect(await deployExecutor({ port: 70000 }, context('code-search'))).toEqual({ success: false });
    expect(await deployExecutor({ service: 'upstart' as never }, context('code-search'))).toEqual({ success: false });
    expect(out.stderr()).toContain('service must be launchd or systemd');
  });
});
