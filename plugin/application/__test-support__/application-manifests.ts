/**
 * Test fixtures for application manifests: a small catalog view of the five built-in component
 * shapes (input, prompt template, registered agent, approved artifact, output), a valid manifest
 * wired through them, `sealed()` to write the real source digest into a changed copy, and helpers
 * that find where a piece of text sits, so tests can check the line and column of a diagnostic
 * independently of the validator's own locating.
 */
import { stringify as toYaml } from 'yaml';
import type { ApplicationManifest } from '../../schema/generated/application-manifest.types';
import type { ComponentCatalogView, ComponentPorts } from '../graph-rules';
import { APPLICATION_INVOCATION } from '../manifest-validate';
import { digestApplicationManifestSource } from '../source-digest';

export const CATALOG_DIGEST = 'c'.repeat(64);
export const ADAPTER_POLICY_DIGEST = 'a'.repeat(64);

/** Ports by `id@revision`. */
export const TEST_COMPONENTS: Record<string, ComponentPorts> = {
  'agentdef.input@1.0.0': { inputs: { value: { kind: 'json', required: true } }, outputs: { value: { kind: 'json' } } },
  'agentdef.prompt-template@1.0.0': {
    inputs: { vars: { kind: 'json', required: true } },
    outputs: { prompt: { kind: 'text' } },
  },
  'agentdef.registered-agent@1.0.0': {
    inputs: { prompt: { kind: 'text', required: true }, context: { kind: 'json', required: false } },
    outputs: { plan: { kind: 'agent-plan' } },
  },
  'agentdef.approved-artifact@1.0.0': {
    inputs: { request: { kind: 'json', required: true } },
    outputs: { artifact: { kind: 'artifact' } },
  },
  'agentdef.output@1.0.0': {
    inputs: { value: { kind: 'json', required: true } },
    outputs: { value: { kind: 'json' } },
  },
};

/** Exact lookup only: `1.0` or `latest` finds nothing. */
export const TEST_CATALOG: ComponentCatalogView = {
  lookup: (id, revision) =>
    Object.hasOwn(TEST_COMPONENTS, `${id}@${revision}`) ? TEST_COMPONENTS[`${id}@${revision}`] : undefined,
};

/** question (input) → template → planner (registered agent) → result (output). */
export function validManifest(): ApplicationManifest {
  return sealed({
    schemaVersion: 'agentdef.application-manifest/v1',
    id: 'support-triage',
    revision: '1.0.0',
    source: { uri: 'workspace:/examples/support-triage/application.json', sha256: '0'.repeat(64) },
    invocation: APPLICATION_INVOCATION,
    catalogDigest: CATALOG_DIGEST,
    adapterPolicyDigest: ADAPTER_POLICY_DIGEST,
    nodes: [
      {
        id: 'question',
        component: { id: 'agentdef.input', revision: '1.0.0' },
        config: { description: 'the customer question' },
      },
      {
        id: 'template',
        component: { id: 'agentdef.prompt-template', revision: '1.0.0' },
        config: { template: 'Triage: {{question}}' },
      },
      {
        id: 'planner',
        component: { id: 'agentdef.registered-agent', revision: '1.0.0' },
        config: { slug: 'support-agent', version: '1.2.0' },
      },
      { id: 'result', component: { id: 'agentdef.output', revision: '1.0.0' }, config: {} },
    ],
    edges: [
      { from: { node: 'question', port: 'value' }, to: { node: 'template', port: 'vars' } },
      { from: { node: 'template', port: 'prompt' }, to: { node: 'planner', port: 'prompt' } },
      { from: { node: 'planner', port: 'plan' }, to: { node: 'result', port: 'value' } },
    ],
    entrypoints: [{ node: 'question', port: 'value' }],
    outputs: [{ name: 'plan', node: 'result', port: 'value' }],
    bounds: { maxSteps: 16, maxRuntimeMs: 60_000, maxOutputBytes: 65_536 },
  });
}

/** A deep copy of `manifest` (any shape) with `source.sha256` set to its real digest. */
export function sealed<T>(manifest: T): T {
  const copy = structuredClone(manifest) as { source?: { sha256?: string } };
  const digest = digestApplicationManifestSource(copy);
  if (!digest.ok) throw new Error(`fixture has no digest: ${digest.reason}`);
  if (copy.source && typeof copy.source === 'object') copy.source.sha256 = digest.sha256;
  return copy as T;
}

/** A changed, re-sealed copy: `edit` may mutate the copy it is given. */
export function edited(edit: (manifest: any) => void, base: unknown = validManifest()): ApplicationManifest {
  const copy = structuredClone(base) as any;
  edit(copy);
  return sealed(copy);
}

export function asText(manifest: unknown, format: 'json' | 'yaml'): string {
  return format === 'json'
    ? `${JSON.stringify(manifest, null, 2)}\n`
    : toYaml(manifest, { aliasDuplicateObjects: false });
}

/** The 1-based line and column where the `nth` (1-based) occurrence of `needle` starts, plus `shift` characters. */
export function positionOf(text: string, needle: string, nth = 1, shift = 0): { line: number; column: number } {
  let at = -1;
  for (let i = 0; i < nth; i++) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`${JSON.stringify(needle)} occurs fewer than ${nth} times`);
  }
  const offset = at + shift;
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}
