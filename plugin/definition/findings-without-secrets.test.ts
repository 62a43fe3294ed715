/**
 * No diagnostic quotes a secret, whichever rule wrote it: a literal credential the secrets rule
 * finds is reported by kind only, and a rule that quotes the same text in its own message (the
 * agentfacts-export rule quotes `identity.name` when an exported label differs) has it redacted,
 * its pointer stopped before a secret name, and its source line hidden.
 */
import { describe, expect, it } from 'vitest';
import { projectAgentFacts } from '../trust/agentfacts';
import type { Finding } from './diagnostic';
import { formatDiagnostics } from './format-diagnostics';
import { findingsWithoutSecrets } from './findings-without-secrets';
import { loadExample } from './rules/test-support';
import { validateDefinitionSource } from './validate-definition';

const TOKEN = 'ghp_' + '4f9Kq2Lm7Rx1Tz8Vb3Nc6Wd0Ys5Hj2Pa9Eg';
const URL_PASSWORD = 'Zq8!pW3r-Lk2';

function definitionWithStaleFacts(name: string) {
  const definition = loadExample('text-stats');
  const projected = projectAgentFacts(definition, { target: 'local-mac', port: 8080 });
  if (!projected.ok) throw new Error(JSON.stringify(projected.failures));
  definition.metadata.cardExports = {
    ...definition.metadata.cardExports,
    agentFacts: structuredClone(projected.facts),
  };
  // The export was made before the name changed: agentfacts-export quotes the name it expected.
  definition.identity.name = name;
  return definition;
}

describe('diagnostics never quote a secret another rule found', () => {
  it.each([
    ['a provider token', TOKEN],
    ['a token inside a sentence', `Text stats ${TOKEN} agent`],
  ])('identity.name holding %s: the agentfacts-export finding is kept, the token is not', (_what, name) => {
    const text = JSON.stringify(definitionWithStaleFacts(name), null, 2);
    const result = validateDefinitionSource(text, 'agents/text-stats/agent.json', 'json');
    const rules = result.diagnostics.map((d) => d.rule);
    expect(rules).toContain('secrets');
    const label = result.diagnostics.find((d) => d.rule === 'agentfacts-export');
    expect(label?.path).toBe('/metadata/cardExports/agentFacts/label');
    expect(label?.message).toContain('[redacted]');
    expect(label?.line).toBeGreaterThan(0);
    expect(JSON.stringify(result.diagnostics)).not.toContain(TOKEN.slice(4));
    const printed = formatDiagnostics(result.diagnostics, {
      format: 'text',
      sources: new Map([['agents/text-stats/agent.json', text]]),
    });
    expect(printed).toContain('agentfacts-export');
    expect(printed).not.toContain(TOKEN.slice(4));
  });

  it('a definition without a secret keeps every finding as it was', () => {
    const text = JSON.stringify(definitionWithStaleFacts('Another name'), null, 2);
    const result = validateDefinitionSource(text, 'agents/text-stats/agent.json', 'json');
    const label = result.diagnostics.find((d) => d.rule === 'agentfacts-export');
    expect(label?.message).toContain('"Another name"');
    expect(label?.redactSource).toBeUndefined();
  });

  it('redacts every form of the secret in messages and suggestions, and stops a pointer before a secret name', () => {
    const secretName = `password=${URL_PASSWORD}`;
    const definition = { a: { [secretName]: { b: `https://user:${URL_PASSWORD}@example.com/x` } } };
    const findings: Finding[] = [
      { rule: 'secrets', path: '/a', message: 'A property name inside a looks like a secret.' },
      {
        rule: 'other',
        path: `/a/${secretName.replaceAll('~', '~0').replaceAll('/', '~1')}/b`,
        message: `Expected ${JSON.stringify(secretName)}, and ${encodeURIComponent(URL_PASSWORD)}.`,
        suggestion: `Remove ${URL_PASSWORD.toUpperCase()}.`,
      },
    ];
    const [secrets, other] = findingsWithoutSecrets(findings, definition);
    expect(secrets).toEqual(findings[0]);
    expect(other?.path).toBe('/a');
    expect(other?.redactSource).toBe(true);
    for (const text of [other?.message, other?.suggestion]) {
      expect(text).toContain('[redacted]');
      expect(text?.toLowerCase()).not.toContain(URL_PASSWORD.toLowerCase().slice(0, 8));
      expect(text).not.toContain(encodeURIComponent(URL_PASSWORD));
    }
  });
});
