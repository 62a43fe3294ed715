/** The `application-execute` executor: `agentdef application execute` in the workspace root, for real. */
import '../__test-support__/require-typescript';
import { existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applicationWorkspace, MANIFEST, type ApplicationWorkspace } from '../__test-support__/application-workspace';
import { captureOutput, type CapturedOutput } from '../__test-support__/captured-output';
import { executorContext } from '../test-support';
import applicationExecuteExecutor from './executor';

let ws: ApplicationWorkspace;
let output: CapturedOutput;
const context = () => executorContext(ws.root, 'triage');
const QUESTION = 'request.value={"question":"Why is the build red?"}';

beforeEach(() => {
  ws = applicationWorkspace();
  output = captureOutput();
});
afterEach(() => {
  vi.restoreAllMocks();
  ws.remove();
});

interface Run {
  ok: boolean;
  replayed?: boolean;
  refusal?: string;
  run?: {
    mode: string;
    status: string;
    planDigest: string;
    outputs?: Record<string, { modelCalls: number; agent: { slug: string } }>;
  };
}
const lastRun = () => JSON.parse(output.stdout()) as Run;

describe('application-execute executor', () => {
  it('plans, then runs the application dry-run with the entrypoint value given as one string', async () => {
    expect(
      await applicationExecuteExecutor({ manifest: MANIFEST, mode: 'dry-run', input: QUESTION }, context()),
    ).toEqual({ success: true });
    expect(output.stdout()).toMatch(/^triage@0\.1\.0: succeeded \(dry-run\)\n/);
    expect(output.stdout()).toMatch(/result-1: completed/);
    expect(output.stdout() + output.stderr()).not.toContain(ws.root);
  });

  it('takes a list of inputs and prints the run as JSON: the agent was planned with zero model calls', async () => {
    expect(
      await applicationExecuteExecutor({ manifest: MANIFEST, input: [QUESTION], format: 'json' }, context()),
    ).toEqual({ success: true });
    const response = lastRun();
    expect(response).toMatchObject({ ok: true, replayed: false, run: { mode: 'dry-run', status: 'succeeded' } });
    expect(response.run!.outputs!['plan-1']).toMatchObject({ agent: { slug: 'summarizer' }, modelCalls: 0 });
  });

  it('replays a run recorded in a durable ledger under the same key, even from another call', async () => {
    const options = {
      manifest: MANIFEST,
      input: QUESTION,
      key: 'triage-1',
      ledger: 'ledger.sqlite',
      format: 'json' as const,
    };
    expect(await applicationExecuteExecutor(options, context())).toEqual({ success: true });
    const first = lastRun();
    expect(existsSync(join(ws.root, 'ledger.sqlite'))).toBe(true);
    output.clear();
    expect(await applicationExecuteExecutor(options, context())).toEqual({ success: true });
    const again = lastRun();
    expect(again).toMatchObject({ ok: true, replayed: true });
    expect(again.run).toEqual(first.run);
  });

  it('runs nothing on drift from the accepted plan digest, or without the entrypoint value (no option, no inputs.json)', async () => {
    expect(
      await applicationExecuteExecutor(
        { manifest: MANIFEST, input: QUESTION, expect: 'f'.repeat(64), format: 'json' },
        context(),
      ),
    ).toEqual({ success: false });
    expect(lastRun()).toMatchObject({ ok: false, refusal: 'drift' });
    output.clear();
    rmSync(join(ws.root, dirname(MANIFEST), 'inputs.json'));
    expect(await applicationExecuteExecutor({ manifest: MANIFEST, format: 'json' }, context())).toEqual({
      success: false,
    });
    expect(lastRun()).toMatchObject({ ok: false, refusal: 'invalid-inputs' });
  });

  it('reads the inputs.json beside the manifest when no option names the values, as check does; an explicit input or inputs wins', async () => {
    const inputsDigest = () => (lastRun().run as { inputsDigest?: string }).inputsDigest;
    expect(await applicationExecuteExecutor({ manifest: MANIFEST, format: 'json' }, context())).toEqual({
      success: true,
    });
    expect(lastRun()).toMatchObject({ ok: true, run: { status: 'succeeded' } });
    expect(output.stderr()).toContain('note: entrypoint values from apps/triage/inputs.json, beside the manifest');
    const fromDefault = inputsDigest();
    output.clear();
    expect(
      await applicationExecuteExecutor(
        { manifest: MANIFEST, inputs: 'apps/triage/inputs.json', format: 'json' },
        context(),
      ),
    ).toEqual({ success: true });
    expect(inputsDigest()).toBe(fromDefault);
    expect(output.stderr()).not.toContain('note: entrypoint values from');
    output.clear();
    // The explicit value wins: the file beside the manifest is not read (nor merged) at all.
    expect(
      await applicationExecuteExecutor({ manifest: MANIFEST, input: QUESTION, format: 'json' }, context()),
    ).toEqual({ success: true });
    expect(inputsDigest()).not.toBe(fromDefault);
    const explicit = inputsDigest();
    ws.write('apps/triage/inputs.json', 'not json');
    output.clear();
    expect(
      await applicationExecuteExecutor({ manifest: MANIFEST, input: QUESTION, format: 'json' }, context()),
    ).toEqual({ success: true });
    expect(inputsDigest()).toBe(explicit);
    ws.write(
      'other-inputs.json',
      `${JSON.stringify([{ node: 'request', port: 'value', value: { question: 'Another?' } }])}\n`,
    );
    output.clear();
    expect(
      await applicationExecuteExecutor({ manifest: MANIFEST, inputs: 'other-inputs.json', format: 'json' }, context()),
    ).toEqual({ success: true });
    expect([fromDefault, explicit]).not.toContain(inputsDigest());
    // A broken inputs.json read by default is a usage error that says where the values came from.
    output.clear();
    expect(await applicationExecuteExecutor({ manifest: MANIFEST, format: 'json' }, context())).toEqual({
      success: false,
    });
    expect(output.stderr()).toContain(
      'the entrypoint values beside the manifest (read because neither --input nor --inputs was given): apps/triage/inputs.json is not JSON',
    );
  });

  it('fails, naming the problem, on an input that is not node.port=<json> or a missing manifest', async () => {
    expect(
      await applicationExecuteExecutor({ manifest: MANIFEST, input: 'request.value=not json' }, context()),
    ).toEqual({ success: false });
    expect(output.stderr()).toContain('--input request.value: the value is not JSON');
    expect(await applicationExecuteExecutor({ input: QUESTION } as never, context())).toEqual({ success: false });
    expect(output.stderr()).toContain('agentdef:application-execute: the "manifest" option is required');
  });
});
