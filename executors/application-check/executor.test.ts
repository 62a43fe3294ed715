/** The `application-check` executor: `agentdef application check` in the workspace root, for real. */
import '../__test-support__/require-typescript';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applicationWorkspace, MANIFEST, type ApplicationWorkspace } from '../__test-support__/application-workspace';
import { captureOutput, type CapturedOutput } from '../__test-support__/captured-output';
import { executorContext } from '../test-support';
import applicationCheckExecutor from './executor';

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

describe('application-check executor', () => {
  it('passes every local verification check of a generated application, with its sample inputs', async () => {
    expect(await applicationCheckExecutor({ manifest: MANIFEST }, context())).toEqual({ success: true });
    const lines = output.stdout().split('\n');
    expect(lines.filter((l) => /^ {2}FAIL /.test(l))).toEqual([]);
    for (const check of ['canonical-hashing', 'catalog-and-plan-privacy', 'offline-execution', 'idempotency'])
      expect(
        lines.some((l) => new RegExp(`^ {2}ok +${check} `).test(l)),
        check,
      ).toBe(true);
  });

  it('fails the offline dry-run without the entrypoint values, and takes them from --inputs', async () => {
    const inputs = readFileSync(join(ws.root, 'apps/triage/inputs.json'), 'utf8');
    rmSync(join(ws.root, 'apps/triage/inputs.json'));
    expect(await applicationCheckExecutor({ manifest: MANIFEST }, context())).toEqual({ success: false });
    expect(output.stdout()).toMatch(/FAIL +offline-execution/);
    output.clear();
    ws.write('samples/triage.json', inputs);
    expect(await applicationCheckExecutor({ manifest: MANIFEST, inputs: 'samples/triage.json' }, context())).toEqual({
      success: true,
    });
  });

  it('fails on a manifest changed after its digest was written, and without a manifest', async () => {
    ws.write(
      MANIFEST,
      readFileSync(join(ws.root, MANIFEST), 'utf8').replace('"maxRuntimeMs": 60000', '"maxRuntimeMs": 1000'),
    );
    expect(await applicationCheckExecutor({ manifest: MANIFEST }, context())).toEqual({ success: false });
    expect(output.stdout() + output.stderr()).toContain('/source/sha256');
    expect(await applicationCheckExecutor({} as never, context())).toEqual({ success: false });
    expect(output.stderr()).toContain('agentdef:application-check: the "manifest" option is required');
  });
});
