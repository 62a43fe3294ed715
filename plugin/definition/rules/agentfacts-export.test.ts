/**
 * The agentfacts-export rule against the real projection (plugin/trust/agentfacts.ts): what the
 * trust layer generates, the rule accepts, for every example; a definition-dependent field edited,
 * the rule refuses at its pointer under /metadata/cardExports/agentFacts; what depends on the
 * deployment (endpoint, ttl, reputation) is not compared. This test alone holds the two layers.
 */
import { describe, expect, it } from 'vitest';
import type { AgentDefinition } from '../../schema/generated/agent-definition.types';
import { generateReceiptKeyPair } from '../../runtime/receipts';
import { projectAgentFacts } from '../../trust/agentfacts';
import { issueAgentFactsCredential } from '../../trust/agentfacts-credential';
import { agentFactsExportRule } from './agentfacts-export';
import { EXAMPLE_FILES, loadExample, runRule } from './test-support';

const BASE = '/metadata/cardExports/agentFacts';

function withProjection(slug: string): { definition: AgentDefinition; facts: Record<string, unknown> } {
  const definition = loadExample(slug);
  const projected = projectAgentFacts(definition, { target: 'local-mac', port: 8080 });
  if (!projected.ok) throw new Error(JSON.stringify(projected.failures));
  const facts = structuredClone(projected.facts) as unknown as Record<string, unknown>;
  definition.metadata.cardExports = { ...definition.metadata.cardExports, agentFacts: facts };
  return { definition, facts };
}

const pathsOf = (definition: AgentDefinition) => runRule(agentFactsExportRule, definition).map((f) => f.path);

describe('agentfacts-export', () => {
  it('accepts the projection the trust layer generates, for every example', () => {
    for (const slug of Object.keys(EXAMPLE_FILES)) {
      const { definition } = withProjection(slug);
      expect(runRule(agentFactsExportRule, definition), slug).toEqual([]);
    }
  });

  it('is silent when there is no agentFacts export', () => {
    const definition = loadExample('text-stats');
    delete definition.metadata.cardExports;
    expect(runRule(agentFactsExportRule, definition)).toEqual([]);
  });

  it('does not compare what depends on the deployment: endpoint, ttl, reputation', () => {
    const { definition, facts } = withProjection('text-stats');
    const worker = projectAgentFacts(definition, {
      target: 'cloudflare-dynamic-worker',
      workerUrl: 'https://text-stats.example.workers.dev',
      ttlSeconds: 60,
    });
    if (!worker.ok) throw new Error(JSON.stringify(worker.failures));
    expect(worker.facts.endpoints).not.toEqual(facts['endpoints']);
    facts['endpoints'] = worker.facts.endpoints;
    facts['ttl'] = 60;
    (facts['reputation'] as { attestations: unknown[] }).attestations.push({ issuer: 'did:web:x', score: 0.5 });
    expect(runRule(agentFactsExportRule, definition)).toEqual([]);
  });

  const edits: [string, (facts: Record<string, any>) => void, string][] = [
    ['id', (f) => (f['id'] = 'kym://agents/other@1.0.0'), '/id'],
    ['agent_name', (f) => (f['agent_name'] = 'urn:agent:acme:text-stats'), '/agent_name'],
    ['label', (f) => (f['label'] = 'Another name'), '/label'],
    ['description', (f) => (f['description'] = 'Something else.'), '/description'],
    ['version', (f) => (f['version'] = '9.9.9'), '/version'],
    ['provider name', (f) => (f['provider'].name = 'someone-else'), '/provider/name'],
    ['provider url', (f) => (f['provider'].url = 'https://example.com/other'), '/provider/url'],
    ['a capability tag', (f) => f['capabilities'].tags.push('extra-tag'), '/capabilities/tags'],
    ['the modalities', (f) => (f['capabilities'].modalities = ['video']), '/capabilities/modalities'],
    ['a skill description', (f) => (f['skills'][0].description = 'Does other things.'), '/skills/0'],
    ['a skill input mode', (f) => (f['skills'][0].inputModes = ['image/png']), '/skills/0'],
    ['the skill list', (f) => f['skills'].push({ ...f['skills'][0], id: 'extra' }), '/skills'],
    ['a malformed proof', (f) => (f['proof'] = { type: 'DataIntegrityProof', cryptosuite: 'none' }), '/proof'],
  ];
  for (const [what, edit, pointer] of edits) {
    it(`refuses an export whose ${what} is not the definition's, at ${BASE}${pointer}, saying to regenerate`, () => {
      const { definition, facts } = withProjection('text-stats');
      edit(facts);
      const findings = runRule(agentFactsExportRule, definition);
      expect(findings.map((f) => f.path)).toEqual([`${BASE}${pointer}`]);
      expect(findings[0]!.rule).toBe('agentfacts-export');
      expect(findings[0]!.suggestion).toContain('agentdef export agentfacts');
    });
  }

  it('accepts the well-formed proof of a real signed credential', async () => {
    const { definition, facts } = withProjection('text-digest');
    const { privateJwk } = await generateReceiptKeyPair();
    const issued = await issueAgentFactsCredential(definition, {
      target: 'local-mac',
      port: 8080,
      issuedAt: '2026-03-01T12:00:00Z',
      privateJwk,
    });
    if (!issued.ok) throw new Error(JSON.stringify(issued.failures));
    facts['proof'] = (issued.credential as { proof: unknown }).proof;
    expect(pathsOf(definition)).toEqual([]);
  });
});
