/**
 * oasf-export: an OASF record in metadata.cardExports.oasf must be the projection of the
 * definition and validate against the OASF definitions; a hand-edited name, a changed skill, a
 * forged taxonomy id, a missing required attribute or an A2A module whose card is not the exported
 * card is located at its JSON Pointer.
 */
import { describe, expect, it } from 'vitest';
import type { AgentDefinition } from '../../schema/generated/agent-definition.types';
import { projectOasfRecord } from '../oasf/oasf-record';
import { oasfExportRule as rule } from './oasf-export';
import { baseDefinition, runRule } from './test-support';

function withRecord(edit: (record: Record<string, unknown>) => void, card?: Record<string, unknown>): AgentDefinition {
  const d = baseDefinition();
  const projected = projectOasfRecord(d, {
    createdAt: '2026-05-01T12:00:00Z',
    serviceUrl: 'https://write-router.example.workers.dev/',
    worker: true,
    ...(card !== undefined ? { agentCard: card } : {}),
  });
  if (!projected.ok) throw new Error(JSON.stringify(projected.findings));
  const record = JSON.parse(JSON.stringify(projected.record)) as Record<string, unknown>;
  edit(record);
  d.metadata.cardExports = { ...(card !== undefined ? { agentCard: card } : {}), oasf: record };
  return d;
}

const paths = (d: AgentDefinition) => runRule(rule, d).map((f) => f.path);
const card = { name: 'Write router', supportedInterfaces: [{ protocolVersion: '1.0' }] };

describe('oasf-export', () => {
  it('passes a definition without an OASF record, and one whose record is the projection', () => {
    expect(runRule(rule, baseDefinition())).toEqual([]);
    expect(
      runRule(
        rule,
        withRecord(() => {}),
      ),
    ).toEqual([]);
    expect(
      runRule(
        rule,
        withRecord(() => {}, card),
      ),
    ).toEqual([]);
  });

  it('reports a hand-edited name, description or skill list', () => {
    expect(paths(withRecord((r) => (r['name'] = 'Hand written')))).toEqual(['/metadata/cardExports/oasf/name']);
    expect(paths(withRecord((r) => (r['description'] = 'Another agent')))).toEqual([
      '/metadata/cardExports/oasf/description',
    ]);
    expect(
      paths(
        withRecord(
          (r) => (r['skills'] = [{ id: 10302, name: 'language_processing/language_generation/summarization' }]),
        ),
      ),
    ).toEqual(['/metadata/cardExports/oasf/skills']);
  });

  it('reports what does not validate: a forged id, a missing required attribute', () => {
    const forged = paths(withRecord((r) => ((r['skills'] as { id: number }[])[0]!.id = 99999)));
    expect(forged).toEqual(['/metadata/cardExports/oasf/skills/0/id', '/metadata/cardExports/oasf/skills']);
    expect(paths(withRecord((r) => delete r['created_at']))).toEqual(['/metadata/cardExports/oasf']);
  });

  it("reports an A2A module whose card is not the definition's exported card", () => {
    const d = withRecord(() => {}, card);
    (d.metadata.cardExports as { agentCard: Record<string, unknown> }).agentCard = { ...card, name: 'Other' };
    expect(paths(d)).toEqual(['/metadata/cardExports/oasf/modules/0/data/card_data']);
  });

  it('reports a definition whose skills map to no OASF skill, at the skill', () => {
    const d = withRecord(() => {});
    d.capabilityContract.skills[0]!.id = 'zz.qq';
    d.capabilityContract.skills[0]!.tags = ['zzz'];
    expect(paths(d)).toEqual(['/capabilityContract/skills/0']);
  });
});
