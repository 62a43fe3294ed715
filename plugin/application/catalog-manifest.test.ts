/**
 * Manifests written against the real built-in catalog: validated with its active digests and its
 * view, they give no diagnostic; a stale digest, an inexact revision or a kind mismatch is caught.
 */
import { describe, expect, it } from 'vitest';
import { builtinCatalog, catalogView } from './catalog';
import { sealed, validManifest } from './__test-support__/application-manifests';
import { APPLICATION_INVOCATION, validateApplicationManifestValue } from './manifest-validate';

const catalog = builtinCatalog();
const options = {
  catalog: catalogView(catalog),
  activeDigests: { catalogDigest: catalog.catalogDigest, adapterPolicyDigest: catalog.adapterPolicyDigest },
};
const c = (id: string) => ({ id, revision: '1.0.0' });

function envelope(id: string, rest: Record<string, unknown>) {
  return {
    schemaVersion: 'agentdef.application-manifest/v1',
    id,
    revision: '1.0.0',
    source: { uri: `workspace:/examples/${id}/application.json`, sha256: '0'.repeat(64) },
    invocation: APPLICATION_INVOCATION,
    catalogDigest: catalog.catalogDigest,
    adapterPolicyDigest: catalog.adapterPolicyDigest,
    bounds: { maxSteps: 16, maxRuntimeMs: 60_000, maxOutputBytes: 65_536 },
    ...rest,
  };
}

/** The shared fixture (question → template → planner → result), bound to the real catalog's digests. */
const agentManifest = () => {
  const manifest = structuredClone(validManifest()) as Record<string, any>;
  manifest['catalogDigest'] = catalog.catalogDigest;
  manifest['adapterPolicyDigest'] = catalog.adapterPolicyDigest;
  manifest['nodes'][1].config.variables = ['question'];
  return manifest;
};

/** request (input) → artifact (approved artifact) → result (output). */
const artifactManifest = () =>
  envelope('ticket-filer', {
    nodes: [
      { id: 'request', component: c('agentdef.input'), config: {} },
      {
        id: 'artifact',
        component: c('agentdef.approved-artifact'),
        config: { artifactDigest: 'd'.repeat(64), capability: 'tickets.create' },
      },
      { id: 'result', component: c('agentdef.output'), config: { description: 'the filed ticket' } },
    ],
    edges: [
      { from: { node: 'request', port: 'value' }, to: { node: 'artifact', port: 'request' } },
      { from: { node: 'artifact', port: 'artifact' }, to: { node: 'result', port: 'value' } },
    ],
    entrypoints: [{ node: 'request', port: 'value' }],
    outputs: [{ name: 'ticket', node: 'result', port: 'value' }],
  });

describe('manifests against the built-in catalog', () => {
  it.each([
    ['input → prompt-template → registered-agent → output', agentManifest],
    ['input → approved-artifact → output', artifactManifest],
  ])('%s validates with no diagnostic', (_name, manifest) => {
    const result = validateApplicationManifestValue(sealed(manifest()), 'application.json', options);
    expect(result.diagnostics).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('reports a stale catalog digest', () => {
    const stale = sealed({ ...agentManifest(), catalogDigest: 'e'.repeat(64) });
    const result = validateApplicationManifestValue(stale, 'application.json', options);
    expect(result.valid).toBe(false);
    expect(result.diagnostics.map((d) => [d.rule, d.path])).toContainEqual(['stale-digest', '/catalogDigest']);
  });

  it('reports an inexact revision and a kind mismatch at their places', () => {
    const inexact = agentManifest() as any;
    inexact.nodes[2].component.revision = '1.0.1';
    const r1 = validateApplicationManifestValue(sealed(inexact), 'application.json', options);
    expect(r1.diagnostics.map((d) => [d.rule, d.path])).toContainEqual(['unknown-component', '/nodes/2/component']);

    // input (json) straight into the registered agent's `prompt` (text): json is not text.
    const mismatch = agentManifest() as any;
    mismatch.nodes.splice(1, 1);
    mismatch.edges = [
      { from: { node: 'question', port: 'value' }, to: { node: 'planner', port: 'prompt' } },
      { from: { node: 'planner', port: 'plan' }, to: { node: 'result', port: 'value' } },
    ];
    const r2 = validateApplicationManifestValue(sealed(mismatch), 'application.json', options);
    expect(r2.diagnostics.map((d) => [d.rule, d.path])).toContainEqual(['kind-mismatch', '/edges/0']);
  });
});
