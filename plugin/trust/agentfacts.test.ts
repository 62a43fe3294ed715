/** The AgentFacts projection: schema-valid for every example, endpoints per target, located failures. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { toolOnlyConfig } from '../runtime/__test-support__/configs';
import { buildAgentCard } from '../runtime/agent-card';
import type { AgentDefinition } from '../schema/generated/agent-definition.types';
import { agentFactsEndpoint, projectAgentFacts, REPUTATION_SCHEME, validateAgentFacts } from './agentfacts';

const ROOT = join(__dirname, '..', '..');
const FIXTURES = join(ROOT, 'e2e', 'fixtures', 'conformance', 'nanda');

function examples(): [string, AgentDefinition][] {
  const out: [string, AgentDefinition][] = [];
  for (const name of readdirSync(join(ROOT, 'examples'))) {
    for (const file of ['agent.json', 'agent.yaml']) {
      try {
        const text = readFileSync(join(ROOT, 'examples', name, file), 'utf8');
        out.push([name, (file.endsWith('.json') ? JSON.parse(text) : parseYaml(text)) as AgentDefinition]);
      } catch {
        // not this file
      }
    }
  }
  return out;
}

const textDigest = () => examples().find(([name]) => name === 'text-digest')![1];

describe('AgentFacts schema copy', () => {
  it('is the byte copy of the conformance fixture, and both official examples validate', () => {
    expect(readFileSync(join(__dirname, 'agentfacts.schema.json'), 'utf8')).toBe(
      readFileSync(join(FIXTURES, 'agentfacts_schema.upstream-copy.json'), 'utf8'),
    );
    for (const file of ['readme-basic-agentfacts.json', 'readme-advanced-agentfacts.json']) {
      expect(validateAgentFacts(JSON.parse(readFileSync(join(FIXTURES, 'examples', file), 'utf8')))).toEqual([]);
    }
  });
  it('locates schema failures', () => {
    const failures = validateAgentFacts({ id: 'x', skills: [{ id: 1 }] });
    expect(failures.map((f) => f.pointer)).toContain('#/facts');
    expect(failures.map((f) => f.pointer)).toContain('#/facts/skills/0/id');
  });
});

describe('projectAgentFacts', () => {
  it('projects every example with skills to schema-valid facts, deterministically', () => {
    const all = examples();
    expect(all.length).toBeGreaterThan(5);
    for (const [name, definition] of all) {
      const first = projectAgentFacts(definition, { target: 'local-mac', port: 8787 });
      expect(first.ok, name).toBe(true);
      expect(projectAgentFacts(definition, { target: 'local-mac', port: 8787 })).toEqual(first);
    }
  });

  it('maps the definition field by field', () => {
    const d = textDigest();
    const result = projectAgentFacts(d, {
      target: 'cloudflare-dynamic-worker',
      workerUrl: 'https://text-digest.acme.workers.dev',
      ttlSeconds: 3600,
      providerDid: 'did:key:z6Mkabc',
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.facts).toMatchObject({
      id: 'kym://agents/text-digest@1.0.0',
      agent_name: `urn:agentdef:agent:${d.identity.id}`,
      label: 'Text digest',
      version: '1.0.0',
      provider: { name: 'docs-platform', url: 'https://github.com/acme/agents', did: 'did:key:z6Mkabc' },
      endpoints: { static: ['https://text-digest.acme.workers.dev/'] },
      capabilities: {
        modalities: ['data', 'text'],
        authentication: { methods: [] },
        tags: ['pipeline', 'text', 'workers'],
      },
      skills: [
        { id: 'text.digest', inputModes: ['text/plain'], outputModes: ['application/json'], latencyBudgetMs: 5000 },
      ],
      reputation: { scheme: REPUTATION_SCHEME, attestations: [] },
      ttl: 3600,
    });
  });

  it('gives the loopback URL for the launcher targets', () => {
    expect(agentFactsEndpoint({ target: 'local-mac', port: 4100 })).toEqual({
      ok: true,
      url: 'http://127.0.0.1:4100/',
    });
    expect(agentFactsEndpoint({ target: 'hb3', port: 9000 })).toEqual({ ok: true, url: 'http://127.0.0.1:9000/' });
  });

  it("names exactly the URL the agent card's JSONRPC interfaces name (the service root), whatever path the Worker URL carries", () => {
    const cases: [Parameters<typeof agentFactsEndpoint>[0], string][] = [
      [
        { target: 'cloudflare-dynamic-worker', workerUrl: 'https://text-digest.acme.workers.dev' },
        'https://text-digest.acme.workers.dev',
      ],
      [
        { target: 'cloudflare-dynamic-worker', workerUrl: 'https://text-digest.acme.workers.dev/a2a/v1' },
        'https://text-digest.acme.workers.dev',
      ],
      [
        { target: 'cloudflare-dynamic-worker', workerUrl: 'https://agents.example.com:8443/some/path/' },
        'https://agents.example.com:8443',
      ],
      [{ target: 'local-mac', port: 4100 }, 'http://127.0.0.1:4100'],
      [{ target: 'hb3', port: 65535 }, 'http://127.0.0.1:65535'],
    ];
    for (const [options, origin] of cases) {
      const endpoint = agentFactsEndpoint(options);
      const card = buildAgentCard({ ...toolOnlyConfig(), card: { ...toolOnlyConfig().card, publicUrl: origin } });
      const jsonRpc = card.supportedInterfaces.filter((i) => i.protocolBinding === 'JSONRPC').map((i) => i.url);
      expect(jsonRpc.length).toBeGreaterThan(0);
      expect(endpoint).toEqual({ ok: true, url: jsonRpc[0] });
      expect(new Set(jsonRpc)).toEqual(new Set([jsonRpc[0]]));
      expect(endpoint.ok && endpoint.url.includes('/a2a/v1')).toBe(false);
    }
  });

  it('claims the streaming capability exactly when the served card declares it', () => {
    const result = projectAgentFacts(textDigest(), { target: 'local-mac', port: 8787 });
    expect(result.ok).toBe(true);
    const card = buildAgentCard({
      ...toolOnlyConfig(),
      card: { ...toolOnlyConfig().card, publicUrl: 'http://127.0.0.1:8787' },
    });
    expect(result.ok && result.facts.capabilities.streaming).toBe(card.capabilities.streaming);
  });

  it('says what is missing, where', () => {
    const d = textDigest();
    const cases: [Parameters<typeof projectAgentFacts>[1], string][] = [
      [{ target: 'cloudflare-dynamic-worker' }, '#/options/workerUrl'],
      [{ target: 'cloudflare-dynamic-worker', workerUrl: 'http://insecure.example' }, '#/options/workerUrl'],
      [{ target: 'cloudflare-dynamic-worker', workerUrl: 'https://u:p@x.example' }, '#/options/workerUrl'],
      [{ target: 'local-mac' }, '#/options/port'],
      [{ target: 'hb3', port: 70000 }, '#/options/port'],
      [{ target: 'local-mac', port: 1, ttlSeconds: 0 }, '#/options/ttlSeconds'],
    ];
    for (const [options, pointer] of cases) {
      const result = projectAgentFacts(d, options);
      expect(!result.ok && result.failures.map((f) => f.pointer)).toContain(pointer);
    }
    const noSkills = {
      ...d,
      capabilityContract: { ...d.capabilityContract, skills: [] },
    } as unknown as AgentDefinition;
    const empty = projectAgentFacts(noSkills, { target: 'local-mac', port: 1 });
    expect(!empty.ok && empty.failures[0]?.pointer).toBe('/capabilityContract/skills');
    const notDefinition = projectAgentFacts({} as AgentDefinition, { target: 'local-mac', port: 1 });
    expect(notDefinition.ok).toBe(false);
  });
});
