import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { describe, expect, it } from 'vitest';
import planSchema from '../schema/application-plan.v1.schema.json';
import type { ApplicationPlan } from '../schema/generated/application-plan.types';
import type { ExecuteResponse } from './application-service';
import type { GatewayOwner } from './gateway-owner';
import { createMemoryExecutionLedger } from './execution-ledger';
import {
  ARTIFACTS_FOLDER,
  EXAMPLE_INPUTS,
  EXAMPLE_MANIFEST,
  editManifest,
  exampleWorkspace,
  localGateway,
  openHost,
  readManifest,
} from './__test-support__/application-workspace';

const manifest = { path: EXAMPLE_MANIFEST };

async function planned(
  service: Awaited<ReturnType<typeof openHost>>,
  mode: 'dry-run' | 'live' = 'dry-run',
): Promise<ApplicationPlan> {
  const result = await service.plan({ manifest, mode });
  if (!result.ok) throw new Error(JSON.stringify(result.diagnostics, null, 2));
  return result.plan;
}

function succeeded(response: ExecuteResponse) {
  if (!response.ok) throw new Error(`refused: ${response.refusal} ${response.message}`);
  return response;
}

const outbox = (root: string) => {
  const folder = join(root, ARTIFACTS_FOLDER, 'outbox');
  return existsSync(folder) ? readdirSync(folder) : [];
};

/** Wraps the reference gateway; `hooks` replace some of its behaviour. */
function wrappedGateway(root: string, hooks: Partial<GatewayOwner>): GatewayOwner {
  return { ...localGateway(root), ...hooks } as GatewayOwner;
}

describe('the application host: plan', () => {
  it('plans the example: schema-valid, the same digest from two hosts, no configuration in it', async () => {
    const root = exampleWorkspace();
    const a = await planned(await openHost(root));
    const b = await planned(await openHost(root));
    expect(a.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(b).toEqual(a);
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    expect(ajv.validate(planSchema, a), JSON.stringify(ajv.errors)).toBe(true);
    expect(a.steps.map((s) => s.node)).toEqual([
      'request',
      'brief-prompt',
      'digest-agent',
      'agent-plan',
      'release-notes',
      'published-notes',
    ]);
    const text = JSON.stringify(a);
    for (const node of readManifest(root).nodes) {
      for (const value of Object.values(node.config as Record<string, unknown>)) {
        // Short values (a version such as 1.0.0) also occur as public metadata; every longer one must not.
        if (typeof value === 'string' && value.length >= 8) expect(text).not.toContain(value);
      }
    }
  });

  it('reordering nodes, edges, entrypoints and outputs changes neither the source digest nor the plan', async () => {
    const root = exampleWorkspace();
    const before = await planned(await openHost(root));
    editManifest(root, (m) => {
      m.nodes.reverse();
      m.edges.reverse();
      m.outputs.reverse();
    });
    const after = await planned(await openHost(root));
    expect(after.application.sourceSha256).toBe(before.application.sourceSha256);
    expect(after.digest).toBe(before.digest);
  });

  it('binds the registered agent: changing its definition changes the plan digest', async () => {
    const root = exampleWorkspace();
    const before = await planned(await openHost(root));
    const file = join(root, 'examples/text-digest/agent.json');
    const agent = JSON.parse(readFileSync(file, 'utf8'));
    agent.metadata.description = `${agent.metadata.description} (edited)`;
    writeFileSync(file, JSON.stringify(agent, null, 2));
    const after = await planned(await openHost(root));
    expect(after.digest).not.toBe(before.digest);
  });

  it('reports an agent that is not in the workspace at exactly that version, located in the manifest', async () => {
    const root = exampleWorkspace();
    editManifest(root, (m) => {
      m.nodes.find((n: any) => n.id === 'digest-agent').config.version = '1.0.1';
    });
    const result = await (await openHost(root)).plan({ manifest, mode: 'dry-run' });
    expect(result.ok).toBe(false);
    const diagnostic = result.diagnostics.find((d) => d.rule === 'registered-agent')!;
    expect(diagnostic.path).toBe('/nodes/2/config');
    expect(diagnostic.file).toBe(EXAMPLE_MANIFEST);
    expect(diagnostic.line).toBeGreaterThan(20);
    expect(diagnostic.message).toContain('not at exactly 1.0.1');
  });

  it('without an injected gateway, the approved artifact does not plan and says how to inject one', async () => {
    const root = exampleWorkspace();
    const result = await (await openHost(root, { gateway: undefined })).plan({ manifest, mode: 'dry-run' });
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map((d) => d.rule)).toContain('gateway-owner');
    expect(result.diagnostics.find((d) => d.rule === 'gateway-owner')!.suggestion).toContain('--artifacts');
  });

  it('refuses an artifact the operator did not approve for that capability', async () => {
    const root = exampleWorkspace();
    editManifest(root, (m) => {
      m.nodes.find((n: any) => n.id === 'release-notes').config.capability = 'release-notes.delete';
    });
    const result = await (await openHost(root)).plan({ manifest, mode: 'dry-run' });
    expect(result.ok).toBe(false);
    expect(result.diagnostics.find((d) => d.rule === 'gateway-approval')?.message).toContain(
      'is not approved for capability `release-notes.delete`',
    );
  });

  it('refuses an unknown mode, a path outside the workspace, and a manifest that is not one', async () => {
    const root = exampleWorkspace();
    const service = await openHost(root);
    const mode = await service.plan({ manifest, mode: 'preview' as never });
    expect(mode.ok === false && mode.diagnostics[0]!.path).toBe('/mode');
    for (const path of ['../outside/application.json', '/etc/passwd.json', 'examples/../../x.json']) {
      const escaped = await service.plan({ manifest: { path }, mode: 'dry-run' });
      expect(escaped.ok === false && escaped.diagnostics[0]!.message).toContain('inside');
    }
    const text = await service.plan({ manifest: { text: '[1]', format: 'json' }, mode: 'dry-run' });
    expect(text.ok).toBe(false);
  });
});

describe('the application host: execute', () => {
  it('dry-run runs every step without dispatch and plans the agent with zero model calls', async () => {
    const root = exampleWorkspace();
    const service = await openHost(root);
    const plan = await planned(service);
    const response = succeeded(
      await service.execute({
        manifest,
        mode: 'dry-run',
        expectedPlanDigest: plan.digest,
        idempotencyKey: 'dry-1',
        inputs: EXAMPLE_INPUTS,
      }),
    );
    expect(response.run.status).toBe('succeeded');
    expect(response.run.steps.every((s) => s.status === 'completed' && !s.dispatched)).toBe(true);
    const outputs = response.run.outputs as any;
    expect(outputs.agentPlan).toMatchObject({ agent: { slug: 'text-digest', version: '1.0.0' }, modelCalls: 0 });
    expect(outputs.agentPlan.planDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(outputs.releaseNotes).toMatchObject({
      capability: 'release-notes.publish',
      mediaType: 'text/markdown',
      dispatched: false,
    });
    expect(outbox(root)).toEqual([]);
  });

  it('live dispatches the artifact once; the same key replays the recorded run without a second dispatch', async () => {
    const root = exampleWorkspace();
    const ledger = createMemoryExecutionLedger();
    if (!ledger.ok) throw new Error(ledger.message);
    const service = await openHost(root, { ledger: ledger.ledger });
    const plan = await planned(service, 'live');
    const request = {
      manifest,
      mode: 'live' as const,
      expectedPlanDigest: plan.digest,
      idempotencyKey: 'live-1',
      inputs: EXAMPLE_INPUTS,
    };
    const first = succeeded(await service.execute(request));
    expect(first.replayed).toBe(false);
    expect(first.run.steps.find((s) => s.node === 'release-notes')).toEqual({
      node: 'release-notes',
      status: 'completed',
      dispatched: true,
    });
    expect(outbox(root)).toHaveLength(1);
    const second = succeeded(await service.execute(request));
    expect(second.replayed).toBe(true);
    expect(second.run).toEqual(first.run);
    expect(outbox(root)).toHaveLength(1);
    const entry = await ledger.ledger.get('live-1');
    expect(entry.ok && entry.entry?.protected).toBe(true);
  });

  it('rejects drift: a changed manifest under the old digest runs nothing', async () => {
    const root = exampleWorkspace();
    const service = await openHost(root);
    const plan = await planned(service, 'live');
    editManifest(root, (m) => {
      m.nodes.find((n: any) => n.id === 'brief-prompt').config.template = 'Another template about {{topic}}.';
    });
    const response = await service.execute({
      manifest,
      mode: 'live',
      expectedPlanDigest: plan.digest,
      idempotencyKey: 'drift-1',
      inputs: EXAMPLE_INPUTS,
    });
    expect(response.ok).toBe(false);
    if (response.ok) return;
    expect(response.refusal).toBe('drift');
    expect(response.planDigest).not.toBe(plan.digest);
    expect(response.diagnostics[0]!.path).toBe('/expectedPlanDigest');
    expect(outbox(root)).toEqual([]);
  });

  it('the same key with other inputs, or another mode, is refused, never replayed', async () => {
    const root = exampleWorkspace();
    const service = await openHost(root);
    const plan = await planned(service);
    succeeded(
      await service.execute({
        manifest,
        mode: 'dry-run',
        expectedPlanDigest: plan.digest,
        idempotencyKey: 'k',
        inputs: EXAMPLE_INPUTS,
      }),
    );
    const other = await service.execute({
      manifest,
      mode: 'dry-run',
      expectedPlanDigest: plan.digest,
      idempotencyKey: 'k',
      inputs: [{ node: 'request', port: 'value', value: { topic: 'x' } }],
    });
    expect(other.ok === false && other.refusal).toBe('idempotency-conflict');
    const live = await planned(service, 'live');
    const mode = await service.execute({
      manifest,
      mode: 'live',
      expectedPlanDigest: live.digest,
      idempotencyKey: 'k',
      inputs: EXAMPLE_INPUTS,
    });
    expect(mode.ok === false && mode.refusal).toBe('idempotency-conflict');
  });

  it('refuses missing, unknown, repeated and mistyped entrypoint values', async () => {
    const root = exampleWorkspace();
    const service = await openHost(root);
    const plan = await planned(service);
    const cases: unknown[] = [
      [],
      [...EXAMPLE_INPUTS, { node: 'brief-prompt', port: 'vars', value: {} }],
      [...EXAMPLE_INPUTS, ...EXAMPLE_INPUTS],
      [{ node: 'request', port: 'value', value: {}, extra: 1 }],
      'not a list',
    ];
    for (const [i, inputs] of cases.entries()) {
      const response = await service.execute({
        manifest,
        mode: 'dry-run',
        expectedPlanDigest: plan.digest,
        idempotencyKey: `bad-${i}`,
        inputs: inputs as never,
      });
      expect(response.ok === false && response.refusal, JSON.stringify(inputs)).toBe('invalid-inputs');
    }
  });

  it('stops at the approval boundary: a live step needing operator approval, nothing after it runs', async () => {
    const root = exampleWorkspace();
    const approvals = join(root, ARTIFACTS_FOLDER, 'approvals.json');
    writeFileSync(
      approvals,
      readFileSync(approvals, 'utf8').replace('"live": "approved"', '"live": "operator-required"'),
    );
    const service = await openHost(root);
    const plan = await planned(service, 'live');
    const response = succeeded(
      await service.execute({
        manifest,
        mode: 'live',
        expectedPlanDigest: plan.digest,
        idempotencyKey: 'approval',
        inputs: EXAMPLE_INPUTS,
      }),
    );
    expect(response.run.status).toBe('stopped');
    expect(response.run.stop).toMatchObject({ reason: 'approval-required', node: 'release-notes' });
    expect(response.run.steps.find((s) => s.node === 'published-notes')!.status).toBe('not-run');
    expect(response.run.outputs).toBeUndefined();
    expect(response.run.reconciliationRequired).toBe(false);
    expect(outbox(root)).toEqual([]);
  });

  it('blocks a step whose owner evidence changed after planning, before invoking it', async () => {
    const root = exampleWorkspace();
    let calls = 0;
    let invoked = 0;
    const real = localGateway(root);
    const gateway = wrappedGateway(root, {
      evidence: async () => {
        calls += 1;
        const e = await real.evidence();
        // The replan inside execute asks once; the step's re-resolution sees new evidence.
        return calls > 2 && e.ok ? { ok: true, evidence: { ...(e.evidence as object), rotated: true } } : e;
      },
      invoke: async (call) => {
        invoked += 1;
        return real.invoke(call);
      },
    });
    const service = await openHost(root, { gateway });
    const plan = await planned(service, 'live');
    const response = succeeded(
      await service.execute({
        manifest,
        mode: 'live',
        expectedPlanDigest: plan.digest,
        idempotencyKey: 'owner',
        inputs: EXAMPLE_INPUTS,
      }),
    );
    expect(response.run.stop).toMatchObject({
      reason: 'owner-drift',
      node: 'release-notes',
      code: 'owner-evidence-changed',
    });
    expect(response.run.steps.find((s) => s.node === 'release-notes')!.status).toBe('blocked');
    expect(invoked).toBe(0);
  });

  it('propagates cancellation to the owner and records the run as cancelled', async () => {
    const root = exampleWorkspace();
    const controller = new AbortController();
    let ownerSawAbort = false;
    const gateway = wrappedGateway(root, {
      invoke: (call) =>
        new Promise((resolve) => {
          call.signal.addEventListener('abort', () => {
            ownerSawAbort = true;
            resolve({ status: 'failed', code: 'cancelled', message: 'stopped on request' });
          });
          controller.abort();
        }),
    });
    const service = await openHost(root, { gateway });
    const plan = await planned(service, 'live');
    const response = succeeded(
      await service.execute(
        { manifest, mode: 'live', expectedPlanDigest: plan.digest, idempotencyKey: 'cancel', inputs: EXAMPLE_INPUTS },
        controller.signal,
      ),
    );
    expect(ownerSawAbort).toBe(true);
    expect(response.run.stop).toMatchObject({ reason: 'cancelled', node: 'release-notes' });
    expect(response.run.reconciliationRequired).toBe(false);
  });

  it('a failure after the dispatch marker requires reconciliation and protects the ledger entry', async () => {
    const root = exampleWorkspace();
    const ledger = createMemoryExecutionLedger();
    if (!ledger.ok) throw new Error(ledger.message);
    const gateway = wrappedGateway(root, {
      invoke: async (call) => {
        const marked = await call.markDispatched();
        expect(marked.ok).toBe(true);
        return { status: 'failed', code: 'remote-error', message: 'the remote side failed after dispatch' };
      },
    });
    const service = await openHost(root, { gateway, ledger: ledger.ledger });
    const plan = await planned(service, 'live');
    const request = {
      manifest,
      mode: 'live' as const,
      expectedPlanDigest: plan.digest,
      idempotencyKey: 'after-dispatch',
      inputs: EXAMPLE_INPUTS,
    };
    const response = succeeded(await service.execute(request));
    expect(response.run.stop).toMatchObject({ reason: 'failure', code: 'remote-error' });
    expect(response.run.reconciliationRequired).toBe(true);
    const entry = await ledger.ledger.get('after-dispatch');
    expect(entry.ok && entry.entry).toMatchObject({ protected: true, reconciliationRequired: true, state: 'failed' });
    // Never retried by itself: the same key replays the recorded failure.
    const again = succeeded(await service.execute(request));
    expect(again.replayed).toBe(true);
  });

  it('a dry-run can never mark dispatch, and a throwing owner is a failure that repeats nothing it threw', async () => {
    const root = exampleWorkspace();
    let marked: unknown;
    const gateway = wrappedGateway(root, {
      invoke: async (call) => {
        marked = await call.markDispatched();
        throw new Error('secret-token-1234 leaked in a stack');
      },
    });
    const service = await openHost(root, { gateway });
    const plan = await planned(service);
    const response = succeeded(
      await service.execute({
        manifest,
        mode: 'dry-run',
        expectedPlanDigest: plan.digest,
        idempotencyKey: 'throw',
        inputs: EXAMPLE_INPUTS,
      }),
    );
    expect(marked).toEqual({ ok: false, message: 'a dry-run never dispatches' });
    expect(response.run.stop).toMatchObject({ reason: 'failure', code: 'adapter-error' });
    expect(JSON.stringify(response)).not.toContain('secret-token-1234');
  });

  it('stops at the runtime bound while an owner hangs, telling it through the signal', async () => {
    const root = exampleWorkspace();
    // Room for the steps before the hanging one even on a loaded machine; the owner then hangs until the bound.
    editManifest(root, (m) => {
      m.bounds.maxRuntimeMs = 3000;
    });
    const gateway = wrappedGateway(root, {
      invoke: (call) =>
        new Promise((resolve) =>
          call.signal.addEventListener('abort', () =>
            resolve({ status: 'failed', code: 'aborted', message: 'aborted' }),
          ),
        ),
    });
    const service = await openHost(root, { gateway });
    const plan = await planned(service);
    const response = succeeded(
      await service.execute({
        manifest,
        mode: 'dry-run',
        expectedPlanDigest: plan.digest,
        idempotencyKey: 'slow',
        inputs: EXAMPLE_INPUTS,
      }),
    );
    expect(response.run.stop).toMatchObject({ reason: 'bound', code: 'max-runtime', node: 'release-notes' });
  });

  it('stops at the output bound', async () => {
    const root = exampleWorkspace();
    editManifest(root, (m) => {
      m.bounds.maxOutputBytes = 64;
    });
    const service = await openHost(root);
    const plan = await planned(service);
    const response = succeeded(
      await service.execute({
        manifest,
        mode: 'dry-run',
        expectedPlanDigest: plan.digest,
        idempotencyKey: 'big',
        inputs: EXAMPLE_INPUTS,
      }),
    );
    expect(response.run.stop).toMatchObject({ reason: 'bound', code: 'max-output-bytes' });
    expect(response.run.outputs).toBeUndefined();
  });
});

describe('the application host: catalog', () => {
  it('lists each owner as an opaque integration record: availability and an evidence digest only', async () => {
    const root = exampleWorkspace();
    const catalog = (await (await openHost(root)).catalog()) as any;
    const gateway = catalog.integrations.find((i: any) => i.owner === 'agentdef.gateway');
    expect(gateway).toMatchObject({
      selection: 'host-injected',
      components: ['agentdef.approved-artifact@1.0.0'],
      available: true,
    });
    expect(gateway.evidenceDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(catalog.integrations.map((i: any) => i.owner)).toEqual(
      [...catalog.integrations.map((i: any) => i.owner)].sort(),
    );
    expect(JSON.stringify(catalog.integrations)).not.toContain('approvals');
    // Without a gateway the record says so, with no reason or setting in it.
    const bare = (await (await openHost(root, { gateway: undefined })).catalog()) as any;
    expect(bare.integrations.find((i: any) => i.owner === 'agentdef.gateway')).toEqual({
      owner: 'agentdef.gateway',
      selection: 'host-injected',
      components: ['agentdef.approved-artifact@1.0.0'],
      available: false,
      evidenceDigest: null,
    });
  });
});
