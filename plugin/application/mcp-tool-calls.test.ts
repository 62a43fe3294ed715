/**
 * One tool call without the SDK: refused arguments never reach the service, the abort signal
 * reaches `execute`, a throwing service gives an error result without its reason, and against the
 * real application host every structured result validates against the tool's output schema.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asText } from './__test-support__/application-manifests';
import { GREETER_PATH, greeterManifest, writeMcpWorkspace } from './__test-support__/mcp-workspace';
import { createApplicationHost } from './application-host';
import type { ApplicationService, ExecuteRequest, PlanRequest } from './application-service';
import { callApplicationTool } from './mcp-tool-calls';
import { type ApplicationToolName, CATALOG_TOOL, EXECUTE_TOOL, PLAN_TOOL, toolContract } from './mcp-tool-contracts';

/** A service that records what reaches it and answers nothing useful. */
function recordingService(behaviour: 'answer' | 'throw' = 'answer') {
  const calls: { op: string; request?: PlanRequest | ExecuteRequest; signal?: AbortSignal }[] = [];
  const service: ApplicationService = {
    catalog: async () => {
      calls.push({ op: 'catalog' });
      if (behaviour === 'throw') throw new Error('secret-internal-detail');
      return { schemaVersion: 'x' };
    },
    plan: async (request) => {
      calls.push({ op: 'plan', request });
      if (behaviour === 'throw') throw new Error('secret-internal-detail');
      return { ok: false, diagnostics: [] };
    },
    execute: async (request, signal) => {
      calls.push({ op: 'execute', request, ...(signal ? { signal } : {}) });
      return { ok: false, refusal: 'drift', message: 'drifted', diagnostics: [] };
    },
    close: async () => {},
  };
  return { service, calls };
}

const validators = new Map<ApplicationToolName, ReturnType<Ajv2020['compile']>>();
function conformsToOutputSchema(tool: ApplicationToolName, structured: unknown): void {
  let validate = validators.get(tool);
  if (validate === undefined) {
    validate = new Ajv2020({ strict: true, allErrors: true }).compile(toolContract(tool).outputSchema);
    validators.set(tool, validate);
  }
  expect(validate(structured), JSON.stringify(validate.errors)).toBe(true);
}

describe('calls against a recording service', () => {
  it.each([
    [CATALOG_TOOL, { operator: true }],
    [PLAN_TOOL, { manifestPath: '../x.json', mode: 'live' }],
    [PLAN_TOOL, { manifestPath: 'x.json', mode: 'live', packs: [{ id: 'p' }] }],
    [
      EXECUTE_TOOL,
      {
        manifestPath: 'x.json',
        mode: 'live',
        expectedPlanDigest: 'a'.repeat(64),
        idempotencyKey: 'k',
        inputs: [{ node: 'n', port: 'p', json: '{"a":1,"a":2}' }],
      },
    ],
  ] as const)('%s refuses hostile arguments without calling the service', async (tool, args) => {
    const { service, calls } = recordingService();
    const result = await callApplicationTool(service, tool, args);
    expect(calls).toEqual([]);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ ok: false, refusal: 'invalid-arguments' });
    expect(result.text).toMatch(/^refused: invalid arguments/);
    conformsToOutputSchema(tool, result.structuredContent);
  });

  it('passes the abort signal on to execute', async () => {
    const { service, calls } = recordingService();
    const controller = new AbortController();
    const args = {
      manifestPath: 'x.json',
      mode: 'live',
      expectedPlanDigest: 'a'.repeat(64),
      idempotencyKey: 'k',
      inputs: [{ node: 'n', port: 'p', json: '1' }],
    };
    const result = await callApplicationTool(service, EXECUTE_TOOL, args, controller.signal);
    expect(calls.map((c) => c.op)).toEqual(['execute']);
    expect(calls[0]?.signal).toBe(controller.signal);
    expect(calls[0]?.request).toEqual({
      manifest: { path: 'x.json' },
      mode: 'live',
      expectedPlanDigest: 'a'.repeat(64),
      idempotencyKey: 'k',
      inputs: [{ node: 'n', port: 'p', value: 1 }],
    });
    expect(result).toMatchObject({ isError: true, text: 'nothing ran (drift): drifted' });
  });

  it('turns a throwing service into an error result that keeps the reason for the server log only', async () => {
    const { service } = recordingService('throw');
    for (const [tool, args] of [
      [CATALOG_TOOL, {}],
      [PLAN_TOOL, { manifestPath: 'x.json', mode: 'dry-run' }],
    ] as const) {
      const result = await callApplicationTool(service, tool, args);
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      expect(result.text).not.toContain('secret-internal-detail');
      expect(result.internalError).toBe('secret-internal-detail');
    }
  });
});

describe('calls against the real application host', () => {
  let root: string;
  let service: ApplicationService;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'agentdef-mcp-calls-'));
    writeMcpWorkspace(root);
    const opened = await createApplicationHost({ workspaceRoot: root });
    if (!opened.ok) throw new Error(opened.message);
    service = opened.service;
  });
  afterAll(async () => {
    await service?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('catalog, plan, execute, replay, conflict and drift each give structured content that matches the output schema', async () => {
    const catalog = await callApplicationTool(service, CATALOG_TOOL, undefined);
    expect(catalog.isError).toBe(false);
    expect(catalog.text).toMatch(/^catalog [0-9a-f]{64}: 5 components, 0 packs$/);
    conformsToOutputSchema(CATALOG_TOOL, catalog.structuredContent);

    const plan = await callApplicationTool(service, PLAN_TOOL, { manifestPath: GREETER_PATH, mode: 'dry-run' });
    expect(plan.isError).toBe(false);
    conformsToOutputSchema(PLAN_TOOL, plan.structuredContent);
    const digest = (plan.structuredContent as { plan: { digest: string } }).plan.digest;
    expect(plan.text).toBe(`plan ${digest} for greeter@1.0.0 (dry-run): 3 steps`);

    const args = {
      manifestPath: GREETER_PATH,
      mode: 'dry-run',
      expectedPlanDigest: digest,
      idempotencyKey: 'calls-1',
      inputs: [{ node: 'who', port: 'value', json: '{"name":"Ada"}' }],
    };
    const first = await callApplicationTool(service, EXECUTE_TOOL, args);
    expect(first.structuredContent).toMatchObject({
      ok: true,
      replayed: false,
      run: { status: 'succeeded', outputs: { greeting: 'Hello Ada' } },
    });
    conformsToOutputSchema(EXECUTE_TOOL, first.structuredContent);

    const again = await callApplicationTool(service, EXECUTE_TOOL, args);
    expect(again.structuredContent).toMatchObject({ ok: true, replayed: true });
    expect((again.structuredContent as { run: unknown }).run).toEqual(
      (first.structuredContent as { run: unknown }).run,
    );
    expect(again.text).toMatch(/^replayed the recorded run/);
    conformsToOutputSchema(EXECUTE_TOOL, again.structuredContent);

    const conflict = await callApplicationTool(service, EXECUTE_TOOL, {
      ...args,
      inputs: [{ node: 'who', port: 'value', json: '{"name":"Bob"}' }],
    });
    expect(conflict).toMatchObject({
      isError: true,
      structuredContent: { ok: false, refusal: 'idempotency-conflict' },
    });
    conformsToOutputSchema(EXECUTE_TOOL, conflict.structuredContent);

    const drift = await callApplicationTool(service, EXECUTE_TOOL, {
      ...args,
      idempotencyKey: 'calls-2',
      expectedPlanDigest: 'f'.repeat(64),
    });
    expect(drift).toMatchObject({
      isError: true,
      structuredContent: { ok: false, refusal: 'drift', planDigest: digest },
    });
    conformsToOutputSchema(EXECUTE_TOOL, drift.structuredContent);
  });

  it('an invalid manifest text gives located diagnostics that match the output schema', async () => {
    const broken = greeterManifest() as unknown as { nodes: { config: Record<string, unknown> }[] };
    (broken.nodes[1] as { config: Record<string, unknown> }).config.command = 'rm -rf /';
    const plan = await callApplicationTool(service, PLAN_TOOL, {
      manifestText: asText(broken, 'json'),
      mode: 'dry-run',
    });
    expect(plan.isError).toBe(true);
    expect(plan.structuredContent).toMatchObject({ ok: false });
    const diagnostics = (plan.structuredContent as { diagnostics: { path: string; line: number }[] }).diagnostics;
    expect(diagnostics.length).toBeGreaterThan(0);
    expect(diagnostics.every((d) => d.line >= 1)).toBe(true);
    expect(plan.text).toMatch(/^the manifest is invalid: manifest\.json:\d+:\d+ /);
    conformsToOutputSchema(PLAN_TOOL, plan.structuredContent);
  });
});
