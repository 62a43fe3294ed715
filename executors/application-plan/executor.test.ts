/** The `application-plan` executor: `agentdef application plan` in the workspace root, for real. */
import '../__test-support__/require-typescript';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { positionOf } from '../../plugin/application/__test-support__/application-manifests';
import { applicationWorkspace, MANIFEST, type ApplicationWorkspace } from '../__test-support__/application-workspace';
import { captureOutput, type CapturedOutput } from '../__test-support__/captured-output';
import { executorContext } from '../test-support';
import applicationPlanExecutor from './executor';

let ws: ApplicationWorkspace;
let output: CapturedOutput;
const context = () => executorContext(ws.root, 'triage');

beforeEach(() => {
  ws = applicationWorkspace();
  output = captureOutput();
});
afterEach(() => {
  vi.restoreAllMocks();
  ws.remove();
});

describe('application-plan executor', () => {
  it('prints the plan of the manifest, dry-run by default, with no path of this machine', async () => {
    expect(await applicationPlanExecutor({ manifest: MANIFEST }, context())).toEqual({ success: true });
    expect(output.stdout()).toMatch(/^triage@0\.1\.0: plan \(dry-run\)\n {2}plan digest {6}[0-9a-f]{64}\n/);
    expect(output.stdout()).toMatch(/agent-1 +agentdef\.registered-agent@1\.0\.0/);
    expect(output.stdout() + output.stderr()).not.toContain(ws.root);
  });

  it('plans for a live run with --mode=live and prints the plan itself with --format=json', async () => {
    expect(await applicationPlanExecutor({ manifest: MANIFEST, format: 'json' }, context())).toEqual({ success: true });
    const dryRun = JSON.parse(output.stdout()) as { mode: string; digest: string };
    output.clear();
    expect(await applicationPlanExecutor({ manifest: MANIFEST, mode: 'live', format: 'json' }, context())).toEqual({
      success: true,
    });
    const live = JSON.parse(output.stdout()) as { mode: string; digest: string };
    expect([dryRun.mode, live.mode]).toEqual(['dry-run', 'live']);
    expect(live.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(live.digest).not.toBe(dryRun.digest);
  });

  it('fails with located diagnostics when the manifest changed after its digest was written', async () => {
    const text = readFileSync(join(ws.root, MANIFEST), 'utf8').replace(
      '"template": "{{question}}"',
      '"template": "Q: {{question}}"',
    );
    ws.write(MANIFEST, text);
    expect(await applicationPlanExecutor({ manifest: MANIFEST }, context())).toEqual({ success: false });
    const at = positionOf(text, '"sha256"', 1, '"sha256": '.length);
    expect(output.stderr()).toContain(`${MANIFEST}:${at.line}:${at.column}`);
    expect(output.stderr()).toContain('/source/sha256');
    expect(output.stdout()).toBe('');
  });

  it('fails, naming the problem, without a manifest or with a manifest that is not there', async () => {
    expect(await applicationPlanExecutor({} as never, context())).toEqual({ success: false });
    expect(output.stderr()).toContain('agentdef:application-plan: the "manifest" option is required');
    expect(await applicationPlanExecutor({ manifest: 'apps/none/application.json' }, context())).toEqual({
      success: false,
    });
    expect(await applicationPlanExecutor({ manifest: MANIFEST, mode: 'later' as never }, context())).toEqual({
      success: false,
    });
    expect(output.stderr()).toContain('--mode "later" is not allowed. It must be one of dry-run, live');
  });
});
