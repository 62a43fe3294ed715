/**
 * `agentdef deploy --allow-unregistered` on a Worker: wrangler deploys with the var
 * `AGENTDEF_DEPLOYMENT_UNREGISTERED=1` (its real dry run accepts the flag), and the Worker that
 * has that var, through the loader or directly, serves a card carrying the kym-registration
 * extension with `unregistered: true`; without the var (or with another value) the card has no mark.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNREGISTERED_DEPLOYMENT_ENV } from '../../plugin/runtime/agent-card';
import {
  deployWorker,
  readWorkerDeployPlan,
  wranglerDeployArgs,
} from '../../plugin/targets/cloudflare-dynamic-worker/deploy';
import { compileWorker, exampleWorkspace, repoRoot, type ExampleWorkspace } from './support/example-workspace';
import { startCompiledWorker } from './support/start-compiled-worker';

const MARK = { uri: 'urn:agentdef:extension:kym-registration:v1', params: { unregistered: true } };
let ws: ExampleWorkspace;
let outDir: string;
let home: string;

beforeAll(async () => {
  ws = exampleWorkspace('unregistered');
  home = mkdtempSync(join(tmpdir(), 'agentdef-unregistered-home-'));
  const compiled = await compileWorker(ws.root, 'text-stats');
  expect(compiled.result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  outDir = compiled.outDir;
});
afterAll(() => {
  ws.remove();
  rmSync(home, { recursive: true, force: true });
});

async function servedExtensions(mode: 'loader' | 'direct', vars?: Record<string, string>) {
  const worker = await startCompiledWorker(outDir, { mode, ...(vars ? { vars } : {}) });
  try {
    const card = (await (await fetch(`${worker.url}/.well-known/agent-card.json`)).json()) as {
      capabilities: { extensions?: { uri: string; params?: unknown }[] };
    };
    return card.capabilities.extensions ?? [];
  } finally {
    await worker.dispose();
  }
}

describe('an unregistered Worker deployment', () => {
  it.each(['loader', 'direct'] as const)('serves a card marked unregistered when the var is set (%s)', async (mode) => {
    expect(await servedExtensions(mode, { [UNREGISTERED_DEPLOYMENT_ENV]: '1' })).toContainEqual(
      expect.objectContaining(MARK),
    );
    const unmarked = [
      ...(await servedExtensions(mode)),
      ...(await servedExtensions(mode, { [UNREGISTERED_DEPLOYMENT_ENV]: 'true' })),
    ];
    expect(unmarked.map((e) => e.uri)).not.toContain(MARK.uri);
  });

  it('deploys with the var: the command says so and wrangler dry-runs it', async () => {
    const plan = readWorkerDeployPlan(outDir);
    if ('error' in plan) throw new Error(plan.error);
    expect(wranglerDeployArgs(plan)).not.toContain('--var');
    expect(wranglerDeployArgs(plan, undefined, { unregistered: true })).toEqual([
      'deploy',
      '--config',
      plan.config,
      '--var',
      `${UNREGISTERED_DEPLOYMENT_ENV}:1`,
    ]);
    let stdout = '';
    let stderr = '';
    const code = await deployWorker(
      {
        outDir,
        workspaceRoot: ws.root,
        dryRun: true,
        unregistered: true,
        stdout: (text) => void (stdout += text),
        stderr: (text) => void (stderr += text),
        env: {
          PATH: process.env['PATH'] ?? '',
          HOME: home,
          XDG_CONFIG_HOME: join(home, '.config'),
          WRANGLER_LOG_PATH: join(home, 'logs'),
          CI: 'true',
          NO_COLOR: '1',
        },
      },
      () => join(repoRoot, 'node_modules', 'wrangler', 'bin', 'wrangler.js'),
    );
    expect(code, `${stdout}\n${stderr}`).toBe(0);
    expect(stdout).toContain(`--var ${UNREGISTERED_DEPLOYMENT_ENV}:1`);
    // wrangler lists the var among the bindings it would deploy.
    expect(`${stdout}${stderr}`).toMatch(/env\.AGENTDEF_DEPLOYMENT_UNREGISTERED \(.*\)\s+Environment Variable/);
  });
});
