/** `agentdef deploy`: its arguments, and a local-mac output installed and removed through the CLI from the workspace. */
import { cpSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileAgent } from '../../compiler/compile';
// runCli loads the command tables with Node's require (see require-typescript.ts).
import '../../../executors/__test-support__/require-typescript';
import { runCli } from '../main';
import { runDeployCommand } from './deploy';
import { captureRun, copyExamplesWorkspace } from './test-support';

let root: string;
beforeAll(async () => {
  root = copyExamplesWorkspace('agentdef-deploy-cli-');
  cpSync(join(__dirname, '..', '..', '..', 'mcp.json'), join(root, 'mcp.json'));
  const compiled = await compileAgent({ file: join(root, 'examples/code-search/agent.json'), workspaceRoot: root });
  expect(compiled.outDir).toBe('dist/agents/code-search');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('agentdef deploy', () => {
  it('is listed in the help', async () => {
    let out = '';
    expect(await runCli(['--help'], { cwd: root, stdout: (s) => (out += s), stderr: () => {} })).toBe(0);
    expect(out).toContain('agentdef deploy <output folder> [--dry-run]');
  });

  it('refuses bad arguments with the usage', async () => {
    for (const [argv, message] of [
      [[], 'name the compile output folder'],
      [['a', 'b'], 'name one output folder'],
      [
        ['dist/agents/code-search', '--service', 'upstart'],
        '--service "upstart" is not allowed. It must be one of launchd, systemd',
      ],
      [['dist/agents/code-search', '--port', 'x'], '--port must be a number'],
      [['dist/agents/code-search', '--force'], "Unknown option '--force'"],
    ] as const) {
      const result = await captureRun(runDeployCommand, [...argv], root);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(message);
      expect(result.stderr).toContain('usage: agentdef deploy');
    }
  });

  it('installs and uninstalls the service into --into, printing paths relative to the workspace', async () => {
    const dry = await captureRun(
      runDeployCommand,
      ['dist/agents/code-search', '--service', 'systemd', '--into', 'services', '--dry-run'],
      root,
    );
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(
      'dry run: would install the systemd service for code-search at services/agentdef-code-search.service',
    );
    const installed = await captureRun(
      runDeployCommand,
      ['../dist/agents/code-search', '--service', 'systemd', '--into', 'services'],
      join(root, 'examples'),
    );
    expect(installed.code).toBe(0);
    expect(installed.stdout).toContain(
      'installed the systemd service for code-search at examples/services/agentdef-code-search.service',
    );
    expect(readdirSync(join(root, 'examples', 'services'))).toEqual(['agentdef-code-search.service']);
    const removed = await captureRun(
      runDeployCommand,
      ['../dist/agents/code-search', '--service', 'systemd', '--into', 'services', '--uninstall'],
      join(root, 'examples'),
    );
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain('removed examples/services/agentdef-code-search.service');
    expect(readdirSync(join(root, 'examples', 'services'))).toEqual([]);
  });
});
