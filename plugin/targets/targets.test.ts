/** The target a value that is none probably means (what `--target` answers with, in the CLI, the library and the executor). */
import { describe, expect, it } from 'vitest';
import { compileAgent } from '../compiler/compile';
import { COMPILE_TARGETS, hostOf, suggestTarget, targetForHost, unknownTargetProblem } from './targets';

describe('suggestTarget', () => {
  it("maps a host's name, a near miss of one and a typo of a target to that target", () => {
    for (const [given, meant] of [
      ['worker', 'cloudflare-dynamic-worker'],
      ['workers', 'cloudflare-dynamic-worker'],
      ['Worker', 'cloudflare-dynamic-worker'],
      ['cloudflare', 'cloudflare-dynamic-worker'],
      ['container', 'hb3'],
      ['hb4', 'hb3'],
      ['HB3', 'hb3'],
      ['kubernets', 'kubernetes'],
      ['kube', 'kubernetes'],
      ['local', 'local-mac'],
      ['local-mca', 'local-mac'],
      ['aut', 'auto'],
    ] as const) {
      expect(suggestTarget(given), given).toBe(meant);
    }
  });

  it('suggests nothing for what is close to no target, and every suggestion is a target', () => {
    for (const given of ['lambda', 'aws', '', 'x', 'nomad']) expect(suggestTarget(given), given).toBeUndefined();
    for (const given of ['w', 'wo', 'hb', 'lo', 'cl', 'auto-mac', 'hb33']) {
      const guess = suggestTarget(given);
      if (guess !== undefined) expect(['auto', ...COMPILE_TARGETS]).toContain(guess);
    }
  });

  it('the library answers an unknown target with the one it means, and compiles nothing', async () => {
    const result = await compileAgent({
      file: 'examples/text-stats/agent.json',
      workspaceRoot: process.cwd(),
      target: 'worker' as never,
      outDir: 'tmp/never-written',
    });
    expect(result.ioError).toBe(unknownTargetProblem('worker'));
    expect(result.ioError).toBe(
      'unknown target "worker": did you mean cloudflare-dynamic-worker? The targets are auto, cloudflare-dynamic-worker, hb3, kubernetes or local-mac',
    );
    expect(result.files).toBeUndefined();
    expect(unknownTargetProblem('aws')).toBe(
      'unknown target "aws": use auto, cloudflare-dynamic-worker, hb3, kubernetes or local-mac',
    );
  });
});

describe('targetForHost', () => {
  it('auto takes hb3 for the container host; kubernetes runs on the same host, only when asked for', () => {
    expect(targetForHost('container')).toBe('hb3');
    expect(hostOf('kubernetes')).toBe('container');
    expect(COMPILE_TARGETS.indexOf('kubernetes')).toBe(COMPILE_TARGETS.indexOf('hb3') + 1);
  });
});
