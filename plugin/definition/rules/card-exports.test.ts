/**
 * card-exports: an exported AgentCard must be the compiler's card of this definition; any
 * hand-written drift (a missing REQUIRED field, another name or version, a changed skill, a wrong
 * pinning tuple, a malformed signature entry) is located at its JSON Pointer. The e2e check that
 * the compiler's own card passes is e2e/trust/cards-exports.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { AgentDefinition } from '../../schema/generated/agent-definition.types';
import { cardExportsRule as rule } from './card-exports';
import { baseDefinition, runRule } from './test-support';

const b64 = (value: unknown) => btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** The card the compiler exports for a definition (the fields this rule compares). */
function exportedCard(d: AgentDefinition): Record<string, unknown> {
  return {
    name: d.identity.name,
    description: d.metadata.description,
    supportedInterfaces: [
      { url: 'https://agent.example.com/a2a/v1', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ],
    version: d.identity.versionSemver,
    capabilities: {
      extensions: [
        {
          uri: 'urn:agentdef:extension:pinning-tuple:v1',
          params: { card: d.identity.slug, cardVersion: d.identity.versionSemver, versionId: d.identity.versionId },
        },
      ],
    },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: d.capabilityContract.skills.map((s) => ({
      id: s.id,
      name: s.name,
      description: s.description,
      tags: s.tags,
    })),
    signatures: [{ protected: b64({ alg: 'EdDSA', typ: 'JOSE', kid: 'k1' }), signature: 'A'.repeat(86) }],
  };
}

function withCard(edit: (card: Record<string, unknown>) => void): AgentDefinition {
  const d = baseDefinition();
  const card = exportedCard(d);
  edit(card);
  d.metadata.cardExports = { agentCard: card };
  return d;
}

const paths = (d: AgentDefinition) => runRule(rule, d).map((f) => f.path);

describe('card-exports', () => {
  it('passes a definition without cardExports, and one whose card is the generated one', () => {
    expect(runRule(rule, baseDefinition())).toEqual([]);
    expect(
      runRule(
        rule,
        withCard(() => {}),
      ),
    ).toEqual([]);
  });

  it('reports a missing REQUIRED field and a hand-edited name or version', () => {
    expect(paths(withCard((c) => delete c['defaultOutputModes']))).toEqual(['/metadata/cardExports/agentCard']);
    expect(paths(withCard((c) => (c['name'] = 'Hand written')))).toEqual(['/metadata/cardExports/agentCard/name']);
    expect(paths(withCard((c) => (c['version'] = '9.9.9')))).toEqual(['/metadata/cardExports/agentCard/version']);
  });

  it('reports changed skills and a wrong pinning tuple', () => {
    expect(paths(withCard((c) => ((c['skills'] as Record<string, unknown>[])[0]!['tags'] = ['other'])))).toEqual([
      '/metadata/cardExports/agentCard/skills/0',
    ]);
    expect(paths(withCard((c) => (c['skills'] as unknown[]).push({ id: 'extra' })))).toEqual([
      '/metadata/cardExports/agentCard/skills',
    ]);
    const wrongTuple = withCard(
      (c) =>
        ((c['capabilities'] as { extensions: { params: Record<string, unknown> }[] }).extensions[0]!.params[
          'versionId'
        ] = '01ARZ3NDEKTSV4RRFFQ69G5FAV'),
    );
    expect(paths(wrongTuple)).toEqual(['/metadata/cardExports/agentCard/capabilities/extensions/0/params/versionId']);
    expect(paths(withCard((c) => (c['capabilities'] = {})))).toEqual([
      '/metadata/cardExports/agentCard/capabilities/extensions',
    ]);
  });

  it('reports a malformed signature entry', () => {
    expect(
      paths(withCard((c) => (c['signatures'] = [{ protected: b64({ alg: 'ES256', kid: 'k1' }), signature: 'x' }]))),
    ).toEqual(['/metadata/cardExports/agentCard/signatures/0']);
    expect(paths(withCard((c) => (c['signatures'] = [{ protected: '!!', signature: 'x' }])))).toEqual([
      '/metadata/cardExports/agentCard/signatures/0',
    ]);
    expect(paths(withCard((c) => (c['signatures'] = 'signed')))).toEqual([
      '/metadata/cardExports/agentCard/signatures',
    ]);
    const finding = runRule(
      rule,
      withCard((c) => (c['name'] = 'x')),
    )[0]!;
    expect(finding.rule).toBe('card-exports');
    expect(finding.suggestion).toContain('regenerate it with the compiler');
  });
});
