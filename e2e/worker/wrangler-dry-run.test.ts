/**
 * wrangler 4.86.0 accepts the emitted wrangler.jsonc and bundle: `wrangler deploy --dry-run`
 * runs offline with HOME, XDG_CONFIG_HOME and its log folder inside a temp folder, no metrics,
 * no update check, and writes exactly the Worker we emitted.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileWorker, exampleWorkspace, repoRoot, type ExampleWorkspace } from './support/example-workspace';
import { HUNG_CHILD_MS } from '../support/hung-child';

let ws: ExampleWorkspace;
let home: string;

beforeAll(() => {
  ws = exampleWorkspace('wrangler');
  home = mkdtempSync(join(tmpdir(), 'agentdef-wrangler-home-'));
});
afterAll(() => {
  ws.remove();
  rmSync(home, { recursive: true, force: true });
});

function dryRun(cwd: string, outdir: string) {
  mkdirSync(join(home, '.config'), { recursive: true });
  const run = spawnSync(
    process.execPath,
    [join(repoRoot, 'node_modules', 'wrangler', 'bin', 'wrangler.js'), 'deploy', '--dry-run', '--outdir', outdir],
    {
      cwd,
      encoding: 'utf8',
      timeout: HUNG_CHILD_MS,
      env: {
        PATH: process.env['PATH'] ?? '',
        HOME: home,
        XDG_CONFIG_HOME: join(home, '.config'),
        WRANGLER_LOG_PATH: join(home, 'logs'),
        WRANGLER_SEND_METRICS: 'false',
        WRANGLER_HIDE_BANNER: 'true',
        CI: 'true',
        NO_COLOR: '1',
      },
    },
  );
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe('wrangler deploy --dry-run', () => {
  it.each([
    ['text-digest', ['env.AGENTDEF_RECEIPTS', 'KV Namespace', 'env.LOADER', 'Worker Loader']],
    ['web-summarizer', ['env.AGENTDEF_RECEIPTS', 'env.SUMMARY_CACHE', 'KV Namespace']],
    ['text-stats', []],
  ] as const)('accepts the wrangler.jsonc and worker.js of %s', async (slug, bindings) => {
    const compiled = await compileWorker(ws.root, slug);
    expect(compiled.result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const outdir = join(home, `out-${slug}`);
    const run = dryRun(compiled.outDir, outdir);
    expect(run.status, run.output).toBe(0);
    expect(run.output).toContain('--dry-run: exiting now.');
    for (const text of bindings) expect(run.output).toContain(text);
    expect(readFileSync(join(outdir, 'worker.js'), 'utf8')).toBe(compiled.files.get('worker.js'));
    // secrets are listed by name only
    const config = compiled.files.get('wrangler.jsonc')!;
    if (slug === 'web-summarizer') expect(config).toContain('"OPENAI_API_KEY"');
    expect(config).not.toContain('secrets-store://');
  });

  it('rejects a config whose main module is missing (the check can fail)', async () => {
    const compiled = await compileWorker(ws.root, 'text-stats');
    writeFileSync(
      join(compiled.outDir, 'wrangler.jsonc'),
      compiled.files.get('wrangler.jsonc')!.replace('"main": "worker.js"', '"main": "missing.js"'),
    );
    const run = dryRun(compiled.outDir, join(home, 'out-broken'));
    expect(run.status).not.toBe(0);
  });
});
