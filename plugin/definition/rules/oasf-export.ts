/**
 * `metadata.cardExports.oasf`, when present, is the OASF record agentdef projects from this
 * definition (oasf/oasf-record.ts), never hand-written: it validates against the copied OASF
 * definitions (required attributes, dictionary types, taxonomy ids and names that pair), and its
 * name, version, schema_version, description, authors, skills and domains are the projection's;
 * its A2A module carries `metadata.cardExports.agentCard` when both are present. What depends on
 * where and when the agent is published (created_at, locators, MCP connections) is not compared.
 * The taxonomy is read only when a definition carries an OASF record.
 */
import type { Finding } from '../diagnostic';
import { projectOasfRecord } from '../oasf/oasf-record';
import { validateOasfRecord } from '../oasf/validate-oasf-record';
import type { SemanticRule } from './rule';

const RULE = 'oasf-export';
const BASE = '/metadata/cardExports/oasf';
const SUGGESTION =
  'Remove metadata.cardExports.oasf, or regenerate it with `agentdef export oasf` or publish; never edit it by hand.';
const COMPARED = ['name', 'version', 'schema_version', 'description', 'authors', 'skills', 'domains'] as const;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export const oasfExportRule: SemanticRule = {
  name: RULE,
  description:
    'metadata.cardExports.oasf, when present, is the OASF record projected from this definition and validates against the OASF definitions.',
  check(definition) {
    const record: unknown = definition.metadata.cardExports?.oasf;
    if (record === undefined) return [];
    const findings: Finding[] = [];
    const report = (path: string, message: string) =>
      findings.push({ rule: RULE, path: `${BASE}${path}`, message, suggestion: SUGGESTION });
    for (const failure of validateOasfRecord(record))
      report(failure.pointer, `The exported OASF record does not validate: ${failure.message}.`);
    if (!isObject(record)) return findings;
    const projected = projectOasfRecord(definition);
    if (!projected.ok) {
      // The definition itself does not map (an unmappable skill): those findings say where.
      findings.push(...projected.findings);
      return findings;
    }
    const expected = projected.record as unknown as Record<string, unknown>;
    for (const field of COMPARED) {
      if (!same(record[field], expected[field]))
        report(
          `/${field}`,
          `The exported OASF record's ${field} is not the projection of this definition (${JSON.stringify(expected[field] ?? null).slice(0, 200)}).`,
        );
    }
    const card = definition.metadata.cardExports?.agentCard;
    const modules = Array.isArray(record['modules']) ? record['modules'] : [];
    const a2a = modules.findIndex((m) => isObject(m) && m['name'] === 'integration/a2a');
    if (card !== undefined && a2a >= 0) {
      const data = (modules[a2a] as Record<string, unknown>)['data'];
      if (!isObject(data) || !same(data['card_data'], card))
        report(`/modules/${a2a}/data/card_data`, "The OASF record's A2A card is not metadata.cardExports.agentCard.");
    }
    return findings;
  },
};
