/** Test support: the bundled worker.js of an example, planned and emitted in memory (nothing written). */
import { join } from 'node:path';
import { expect } from 'vitest';
import { emitAgent, planAgent } from '../../../compiler/compile';
import { loadWorkspaceConfig } from '../../../compiler/workspace-config';

const ROOT = join(__dirname, '..', '..', '..', '..');

/** `examples/<example>/agent.json` compiled for cloudflare-dynamic-worker: its worker.js text. */
export async function exampleWorkerJs(example: string): Promise<string> {
  const planned = await planAgent({
    file: `examples/${example}/agent.json`,
    workspaceRoot: ROOT,
    target: 'cloudflare-dynamic-worker',
  });
  expect(planned.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const emitted = await emitAgent(
    { plan: planned.plan!, resolved: planned.resolved! },
    { workspaceRoot: ROOT, workspace: loadWorkspaceConfig(ROOT).config },
  );
  return emitted.files!.find((f) => f.path === 'worker.js')!.contents;
}
