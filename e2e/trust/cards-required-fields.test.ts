/**
 * The card agentdef builds has every field A2A v1.0.1 marks REQUIRED (the derived required-fields
 * file copied in e2e/fixtures/conformance/a2a/), in the card and in each nested message, and its
 * security is the documented derivation (agent-card.ts header): no scheme, no requirement, since
 * the definition names no caller authentication and the endpoint enforces none. The card of a
 * definition also passes the `card-exports` rule when cached in `metadata.cardExports`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cardExportsRule } from '../../plugin/definition/rules/card-exports';
import { DEFAULT_RULE_OPTIONS } from '../../plugin/definition/rules/rule';
import { loadExample } from '../../plugin/definition/rules/test-support';
import { agenticConfig, toolOnlyConfig } from '../../plugin/runtime/__test-support__/configs';
import { buildAgentCard, cardSecurity } from '../../plugin/runtime/agent-card';
import { signAgentCard } from '../../plugin/runtime/card-signature';
import { generateReceiptKeyPair } from '../../plugin/runtime/receipts';

type Derived = Record<string, { required: string[]; fields: { json: string; type: string; repeated: boolean }[] }>;
const derived = JSON.parse(
  readFileSync(join(__dirname, '../fixtures/conformance/a2a/a2a-v1.0.1.required-fields.derived.json'), 'utf8'),
) as Derived;

/** Every REQUIRED field missing anywhere in a message (by JSON Pointer). */
function missingRequired(value: unknown, message: string, path = ''): string[] {
  const spec = derived[message];
  if (!spec || value === null || typeof value !== 'object') return [];
  const record = value as Record<string, unknown>;
  const missing = spec.required.filter((name) => record[name] === undefined).map((name) => `${path}/${name}`);
  for (const field of spec.fields) {
    const child = record[field.json];
    if (child === undefined || !derived[field.type]) continue;
    if (field.repeated && Array.isArray(child))
      child.forEach((item, i) => missing.push(...missingRequired(item, field.type, `${path}/${field.json}/${i}`)));
    else missing.push(...missingRequired(child, field.type, `${path}/${field.json}`));
  }
  return missing;
}

const configs = [
  ['tool-only', toolOnlyConfig()],
  ['agentic', agenticConfig('openai-chat', 'https://api.example.com/v1')],
] as const;

describe.each(configs)('the %s card', (_label, config) => {
  it('has every A2A v1.0.1 REQUIRED field, signed or not', async () => {
    const card = buildAgentCard(config, { requestOrigin: 'https://agent.example.com' });
    expect(derived['AgentCard']!.required.length).toBeGreaterThan(5);
    expect(missingRequired(card, 'AgentCard')).toEqual([]);
    const signed = await signAgentCard(card, (await generateReceiptKeyPair()).privateJwk);
    expect(missingRequired(signed, 'AgentCard')).toEqual([]);
  });

  it('declares no security scheme and no requirement (the documented derivation)', () => {
    expect(cardSecurity(config)).toEqual({});
    const card = buildAgentCard(config, { requestOrigin: 'https://agent.example.com' });
    expect(card.securitySchemes).toBeUndefined();
    expect(card.securityRequirements).toBeUndefined();
  });
});

describe('the check finds what it should', () => {
  it('names a REQUIRED field missing deep inside', () => {
    const card = buildAgentCard(toolOnlyConfig(), { requestOrigin: 'https://agent.example.com' }) as unknown as Record<
      string,
      unknown
    >;
    const broken = { ...card, supportedInterfaces: [{ url: 'https://a.example/' }], skills: [{ id: 's' }] };
    delete (broken as Record<string, unknown>)['version'];
    expect(missingRequired(broken, 'AgentCard').sort()).toEqual(
      [
        '/skills/0/description',
        '/skills/0/name',
        '/skills/0/tags',
        '/supportedInterfaces/0/protocolBinding',
        '/supportedInterfaces/0/protocolVersion',
        '/version',
      ].sort(),
    );
  });
});

describe('metadata.cardExports', () => {
  it('a signed card built from the definition (the fields plugin/compiler/runtime-config.ts maps) passes the card-exports rule', async () => {
    const definition = loadExample('code-search');
    const config = toolOnlyConfig();
    const { identity, metadata, capabilityContract } = definition;
    config.agent = {
      ...config.agent,
      id: identity.id,
      slug: identity.slug,
      name: identity.name,
      version: identity.versionSemver,
      versionId: identity.versionId,
      description: metadata.description,
    };
    config.skills = capabilityContract.skills.map((s) => ({
      id: s.id,
      name: s.name,
      description: s.description,
      version: s.version,
      tags: [...s.tags],
    }));
    const card = await signAgentCard(
      buildAgentCard(config, { requestOrigin: 'https://code-search.example.com' }),
      (await generateReceiptKeyPair()).privateJwk,
    );
    definition.metadata.cardExports = { agentCard: JSON.parse(JSON.stringify(card)) };
    expect(cardExportsRule.check(definition, DEFAULT_RULE_OPTIONS)).toEqual([]);
  });
});
