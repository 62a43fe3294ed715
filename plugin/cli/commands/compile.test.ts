import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCompileCommand } from './compile';
import { captureRun, copyExamplesWorkspace } from './test-support';

let root: string;
beforeEach(() => {
  root = copyExamplesWorkspace('agentdef-cli-compile-');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const run = (argv: string[], cwd = root) => captureRun(runCompileCommand, argv, cwd);

describe('agentdef compile', () => {
  it('compiles for the planned target and prints a one-line summary', async () => {
    const { code, stdout, stderr } = await run(['examples/write-router/agent.json']);
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /^compiled write-router@1\.4\.0 for hb3 \(container-required\) into dist\/agents\/write-router: hb3-job\.json, hb3-workflow\.json, .*plan\.json.* \(plan [0-9a-f]{12}\)\n$/,
    );
    expect(stderr).toMatch(/^(warning[^\n]*\n[\s\S]*)?$/);
    expect(readdirSync(join(root, 'dist/agents/write-router')).sort()).toEqual(
      expect.arrayContaining(['hb3-job.json', 'hb3-workflow.json', 'image', 'jobs', 'plan.json']),
    );
  });

  it('prints the summary as one JSON line with --format json, and takes --out from the working directory', async () => {
    const { code, stdout } = await run(
      ['agent.json', '--format', 'json', '--out', '../../build/wr'],
      join(root, 'examples/write-router'),
    );
    expect(code).toBe(0);
    expect(stdout.trimEnd().split('\n')).toHaveLength(1);
    const summary = JSON.parse(stdout);
    expect(summary).toMatchObject({
      ok: true,
      root: 'write-router@1.4.0',
      target: 'hb3',
      chosenClass: 'container-required',
      outDir: 'build/wr',
    });
    expect(summary.files).toEqual(
      expect.arrayContaining(['plan.json', 'hb3-job.json', 'hb3-workflow.json', 'image/entrypoint.mjs']),
    );
    expect(summary.planDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(existsSync(join(root, 'build/wr/plan.json'))).toBe(true);
  });

  it('fails closed (exit 1, nothing written) for a target the tree forbids', async () => {
    const { code, stdout, stderr } = await run([
      'examples/write-router/agent.json',
      '--target',
      'cloudflare-dynamic-worker',
    ]);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain('error[runtime_capability_mismatch]');
    expect(stderr).toContain('splice-resolver@0.4.2: tuned model pin "qwen2.5-coder-7b-splice-lora"');
    expect(stderr).toContain('{ "slug": "splice-resolver", "version": "0.4.2" }');
    expect(existsSync(join(root, 'dist'))).toBe(false);
  });

  it('honours an explicit target the tree allows', async () => {
    const { code, stdout } = await run(['examples/write-router/agent.json', '--target', 'local-mac']);
    expect(code).toBe(0);
    expect(stdout).toContain('for local-mac');
    expect(readdirSync(join(root, 'dist/agents/write-router')).sort()).toEqual([
      '.agentdef-output.json',
      'agentdef-write-router.service',
      'dev.agentdef.write-router.plist',
      'launch.mjs',
      'launcher.json',
      'mcp-servers.json',
      'plan.json',
    ]);
  });

  it('exits 2 on a bad target, a missing file, or an output folder it must not replace', async () => {
    const bad = await run(['examples/write-router/agent.json', '--target', 'lambda']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      '--target "lambda" is not allowed. It must be one of auto, cloudflare-dynamic-worker, hb3, kubernetes, local-mac',
    );
    // A host's name or a typo is answered with the target it means.
    for (const [given, meant] of [
      ['worker', 'cloudflare-dynamic-worker'],
      ['hb4', 'hb3'],
      ['local', 'local-mac'],
      ['Container', 'hb3'],
    ]) {
      const typo = await run(['examples/write-router/agent.json', '--target', given!]);
      expect(typo.code).toBe(2);
      expect(typo.stderr).toContain(
        `--target "${given}" is not allowed: did you mean "${meant}"? It must be one of auto, cloudflare-dynamic-worker, hb3, kubernetes, local-mac`,
      );
    }
    expect((await run(['missing/agent.json'])).code).toBe(2);
    const guarded = await run(['examples/write-router/agent.json', '--out', 'examples']);
    expect(guarded.code).toBe(2);
    expect(guarded.stderr).toContain('refusing to replace examples');
  });
});
