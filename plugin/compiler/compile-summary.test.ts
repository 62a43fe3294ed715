/** The compile summary line both compile shells print. */
import { describe, expect, it } from 'vitest';
import { formatCompileSummary, hasCompiledOutput, type CompiledOutput } from './compile-summary';

const output: CompiledOutput = {
  plan: {
    root: { slug: 'write-router', version: '1.4.0' },
    runtime: { chosenClass: 'container-required' },
    digest: '0123456789abcdef'.repeat(4),
  },
  target: 'hb3',
  outDir: 'dist/agents/write-router',
  files: [{ path: 'hb3-job.json' }, { path: 'plan.json' }],
};

describe('formatCompileSummary', () => {
  it("prints the executor's line by default and the CLI's with the plan digest", () => {
    expect(formatCompileSummary(output)).toBe(
      'compiled write-router@1.4.0 for hb3 (container-required) into dist/agents/write-router: hb3-job.json, plan.json',
    );
    expect(formatCompileSummary(output, { planDigest: true })).toBe(
      'compiled write-router@1.4.0 for hb3 (container-required) into dist/agents/write-router: hb3-job.json, plan.json (plan 0123456789ab)',
    );
  });

  it("ends with the adapter's note and shows a missing output folder as ?", () => {
    const { outDir: _none, ...rest } = output;
    expect(
      formatCompileSummary({ ...rest, summary: 'worker.js 71.8 KiB of the 3072.0 KiB budget' }, { planDigest: true }),
    ).toBe(
      'compiled write-router@1.4.0 for hb3 (container-required) into ?: hb3-job.json, plan.json (plan 0123456789ab); worker.js 71.8 KiB of the 3072.0 KiB budget',
    );
  });

  it('tells results with output from those without', () => {
    expect(hasCompiledOutput({})).toBe(false);
    expect(hasCompiledOutput({ plan: undefined, target: 'hb3', files: [] })).toBe(false);
    expect(hasCompiledOutput({ target: undefined, files: [] })).toBe(false);
  });
});
