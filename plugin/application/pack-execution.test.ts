/**
 * Component packs through the application host, offline: a manifest using an admitted pack's
 * components plans against the pack-extended catalog and runs through the host's private adapters;
 * a mode the pack's adapter does not declare is refused at plan time; the catalog lists the pack.
 */
import { describe, expect, it } from 'vitest';
import { createApplicationHost } from './application-host';
import { createApplicationComponentPackRegistry } from './component-pack-registry';
import { APPLICATION_INVOCATION } from './manifest-validate';
import { sealed } from './__test-support__/application-manifests';
import {
  COMPONENT_REVISION,
  optionsFor,
  SUMMARISE_ID,
  syntheticPack,
  validRegistryOptions,
} from './__test-support__/component-packs';
import { exampleWorkspace } from './__test-support__/application-workspace';

async function hostWith(options: Parameters<typeof createApplicationComponentPackRegistry>[0]) {
  const admitted = createApplicationComponentPackRegistry(options);
  if (!admitted.ok) throw new Error(JSON.stringify(admitted.findings));
  const opened = await createApplicationHost({
    workspaceRoot: exampleWorkspace('agentdef-pack-run-'),
    packs: admitted.registry,
  });
  if (!opened.ok) throw new Error(opened.message);
  return opened.service;
}

/** input → <component> (one `inPort` → `outPort`) → output, against the service's active digests. */
async function manifestText(
  service: Awaited<ReturnType<typeof hostWith>>,
  component: string,
  ports: { in: string; out: string; kind: 'json' | 'text' },
  config: unknown,
) {
  const catalog = (await service.catalog()) as { catalogDigest: string; adapterPolicyDigest: string };
  const nodes = [
    { id: 'source', component: { id: 'agentdef.input', revision: '1.0.0' }, config: {} },
    ...(ports.kind === 'text'
      ? [
          {
            id: 'as-text',
            component: { id: 'agentdef.prompt-template', revision: '1.0.0' },
            config: { template: '{{text}}', variables: ['text'] },
          },
        ]
      : []),
    { id: 'step', component: { id: component, revision: COMPONENT_REVISION }, config },
    { id: 'sink', component: { id: 'agentdef.output', revision: '1.0.0' }, config: {} },
  ];
  const edges =
    ports.kind === 'text'
      ? [
          { from: { node: 'source', port: 'value' }, to: { node: 'as-text', port: 'vars' } },
          { from: { node: 'as-text', port: 'prompt' }, to: { node: 'step', port: ports.in } },
        ]
      : [{ from: { node: 'source', port: 'value' }, to: { node: 'step', port: ports.in } }];
  edges.push({ from: { node: 'step', port: ports.out }, to: { node: 'sink', port: 'value' } });
  return JSON.stringify(
    sealed({
      schemaVersion: 'agentdef.application-manifest/v1',
      id: 'pack-run',
      revision: '1.0.0',
      source: { uri: 'urn:agentdef:test:pack-run', sha256: '0'.repeat(64) },
      invocation: APPLICATION_INVOCATION,
      catalogDigest: catalog.catalogDigest,
      adapterPolicyDigest: catalog.adapterPolicyDigest,
      nodes,
      edges,
      entrypoints: [{ node: 'source', port: 'value' }],
      outputs: [{ name: 'result', node: 'sink', port: 'value' }],
      bounds: { maxSteps: 8, maxRuntimeMs: 10_000, maxOutputBytes: 4096 },
    }),
  );
}

describe('component packs through the host', () => {
  it('plans and runs a pack component offline through its private adapter, in both modes', async () => {
    const service = await hostWith(validRegistryOptions());
    const text = await manifestText(
      service,
      SUMMARISE_ID,
      { in: 'text', out: 'summary', kind: 'text' },
      { maxWords: 3 },
    );
    for (const mode of ['dry-run', 'live'] as const) {
      const planned = await service.plan({ manifest: { text, format: 'json' }, mode });
      if (!planned.ok) throw new Error(JSON.stringify(planned.diagnostics));
      const step = planned.plan.steps.find((s) => s.node === 'step')!;
      expect(step.owner.selection).toBe('host-injected');
      const run = await service.execute({
        manifest: { text, format: 'json' },
        mode,
        expectedPlanDigest: planned.plan.digest,
        idempotencyKey: `pack-${mode}`,
        inputs: [{ node: 'source', port: 'value', value: { text: 'one two three four five' } }],
      });
      expect(run.ok && run.run.outputs).toEqual({ result: 'one two three' });
    }
    const catalog = (await service.catalog()) as {
      packs: { id: string }[];
      integrations: { owner: string; available: boolean }[];
    };
    expect(catalog.packs.map((p) => p.id)).toEqual(['acme.text-tools']);
    expect(catalog.integrations.find((i) => i.owner === 'acme.summariser')?.available).toBe(true);
  });

  it('refuses at plan time a mode the pack adapter does not declare, and nothing runs', async () => {
    const pack = syntheticPack('acme.dry', 1);
    const service = await hostWith(optionsFor([pack]));
    const text = await manifestText(service, 'acme.dry.c0', { in: 'value', out: 'value', kind: 'json' }, {});
    const dry = await service.plan({ manifest: { text, format: 'json' }, mode: 'dry-run' });
    expect(dry.ok, JSON.stringify(dry.diagnostics)).toBe(true);
    const live = await service.plan({ manifest: { text, format: 'json' }, mode: 'live' });
    expect(live.ok).toBe(false);
    const diagnostic = live.diagnostics.find((d) => d.rule === 'mode')!;
    expect(diagnostic.path).toBe('/nodes/1/component');
    expect(diagnostic.message).toContain('declares the modes dry-run, not `live`');
    const executed = await service.execute({
      manifest: { text, format: 'json' },
      mode: 'live',
      expectedPlanDigest: dry.ok ? dry.plan.digest : '0'.repeat(64),
      idempotencyKey: 'live',
      inputs: [{ node: 'source', port: 'value', value: {} }],
    });
    expect(executed.ok === false && executed.refusal).toBe('invalid-manifest');
  });
});
