/**
 * The attack tests' Node hosts: the example `text-stats` (whose tools.json the test has pointed at
 * a hostile tool module) compiled for the HB3 container or the local launcher, without errors.
 */
import { expect } from 'vitest';
import { compileAgent } from '../../../plugin/compiler/compile';
import type { ExampleWorkspace } from '../../worker/support/example-workspace';

export async function compileTextStatsFor(ws: ExampleWorkspace, target: 'hb3' | 'local-mac', out: string): Promise<void> {
  ws.edit('text-stats', (d) => {
    d.runtimeRequirements.runtimeCapabilityClass = target === 'hb3' ? 'container-required' : 'local-host-required';
  });
  const result = await compileAgent({ file: ws.definition('text-stats'), workspaceRoot: ws.root, target, outDir: out });
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
}
