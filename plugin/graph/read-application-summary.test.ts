import { describe, expect, it } from 'vitest';
import { asText, edited, positionOf, validManifest } from '../application/__test-support__/application-manifests';
import { REGISTERED_AGENT_COMPONENT, summarizeApplication } from './read-application-summary';

const agentNode = (id: string, slug: string, version: string) => ({
  id,
  component: { id: REGISTERED_AGENT_COMPONENT, revision: '1.0.0' },
  config: { slug, version },
});

/** The fixture with a second registered agent beside its `planner`. */
const twoAgents = () =>
  edited((m) => {
    m.nodes.push(agentNode('reviewer', 'review-agent', '2.0.0'));
    m.edges.push({ from: { node: 'template', port: 'prompt' }, to: { node: 'reviewer', port: 'prompt' } });
  });

describe('summarizeApplication', () => {
  it('reads the id, the revision and every registered agent with the line of its node (JSON)', () => {
    const text = asText(twoAgents(), 'json');
    expect(summarizeApplication(text, 'apps/triage/application.json')).toEqual({
      parsed: true,
      id: 'support-triage',
      idAt: positionOf(text, '"support-triage"'),
      revision: '1.0.0',
      agents: [
        // the line of `{`, which opens the node, just above its id
        { slug: 'support-agent', version: '1.2.0', line: positionOf(text, '"id": "planner"').line - 1 },
        { slug: 'review-agent', version: '2.0.0', line: positionOf(text, '"id": "reviewer"').line - 1 },
      ],
    });
  });

  it('reads YAML (by file extension) the same way', () => {
    const text = asText(twoAgents(), 'yaml');
    const summary = summarizeApplication(text, 'apps/triage/application.yaml');
    expect(summary).toMatchObject({ parsed: true, id: 'support-triage', revision: '1.0.0' });
    expect(summary.agents).toEqual([
      { slug: 'support-agent', version: '1.2.0', line: positionOf(text, 'id: planner').line },
      { slug: 'review-agent', version: '2.0.0', line: positionOf(text, 'id: reviewer').line },
    ]);
    expect(summarizeApplication(text, 'apps/triage/application.yml')).toEqual(summary);
  });

  it('takes only registered-agent nodes whose slug and version are plainly stated', () => {
    const manifest = edited((m) => {
      m.nodes.push(
        { id: 'no-version', component: { id: REGISTERED_AGENT_COMPONENT, revision: '1.0.0' }, config: { slug: 'x' } },
        agentNode('bad-slug', 'Not A Slug', '1.0.0'),
        agentNode('numeric', 'numeric', 1 as never),
        {
          id: 'lookalike',
          component: { id: 'acme.registered-agent', revision: '1.0.0' },
          config: { slug: 'acme', version: '1.0.0' },
        },
        { id: 'no-config', component: { id: REGISTERED_AGENT_COMPONENT, revision: '1.0.0' } },
        // any revision of the component counts (the validator judges the revision)
        {
          id: 'other-revision',
          component: { id: REGISTERED_AGENT_COMPONENT, revision: '9.9.9' },
          config: { slug: 'later', version: '0.1.0' },
        },
        'not an object',
      );
    });
    expect(
      summarizeApplication(asText(manifest, 'json'), 'application.json').agents.map((a) => `${a.slug}@${a.version}`),
    ).toEqual(['support-agent@1.2.0', 'later@0.1.0']);
  });

  it('keeps what an invalid manifest states, and leaves out an id that is not a slug', () => {
    const invalid = { ...validManifest(), schemaVersion: 'wrong', bounds: 'none', revision: '1.0' } as Record<
      string,
      unknown
    >;
    expect(summarizeApplication(JSON.stringify(invalid), 'application.json')).toMatchObject({
      parsed: true,
      id: 'support-triage',
      revision: '1.0',
      agents: [{ slug: 'support-agent' }],
    });
    for (const id of ['Support_Triage', 'a'.repeat(65), 42, null]) {
      const summary = summarizeApplication(JSON.stringify({ ...validManifest(), id }), 'application.json');
      expect(summary.parsed).toBe(true);
      expect(summary.id, String(id)).toBeUndefined();
    }
    expect(summarizeApplication('{"nodes": {"planner": {}}}', 'application.json')).toEqual({
      parsed: true,
      agents: [],
    });
  });

  it('gives an empty summary, never a throw, for text that does not parse', () => {
    for (const [text, file] of [
      ['{ "id": "half', 'application.json'],
      ['', 'application.json'],
      ['[1, 2]', 'application.json'],
      ['id: [', 'application.yaml'],
      ['id: a\nid: b\n', 'application.yaml'],
    ] as const) {
      expect(summarizeApplication(text, file), text).toEqual({ agents: [], parsed: false });
    }
  });

  it('reads past a byte order mark', () => {
    expect(summarizeApplication(`\uFEFF${asText(validManifest(), 'json')}`, 'application.json')).toMatchObject({
      parsed: true,
      id: 'support-triage',
    });
  });
});
