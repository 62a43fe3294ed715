/**
 * The text printer never echoes a source line that looks like it holds a secret, whichever
 * diagnostic points at it: the secrets rule hides its own lines, and a schema error on an unknown
 * field, a wrong enum or a bad pattern whose line holds a key is hidden the same way. Lines without
 * one are still printed with their caret.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { Diagnostic } from './diagnostic';
import { formatDiagnostics, formatOne } from './format-diagnostics';
import { validateDefinitionSource } from './validate-definition';

const REPO = join(__dirname, '..', '..');
const example = () =>
  JSON.parse(readFileSync(join(REPO, 'examples', 'web-summarizer', 'agent.json'), 'utf8')) as Record<string, any>;

// Split so that no scanner takes these test values for real credentials.
const SECRETS = [
  'sk-proj-' + 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd',
  'AKIA' + 'Z3Q7R2M9K4P8W1N6',
  'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8',
  'xoxb-' + '123456789012-123456789012-AbCdEfGhIjKlMnOpQrStUvWx',
];

/** Three places a schema error points at a line holding the value: an unknown field, a pattern, an enum. */
function withSecret(secret: string): Record<string, any> {
  const definition = example();
  definition['toolInventory'][0]['toolId'] = secret;
  definition['modelSet'][0]['providerId'] = secret;
  definition['modelSet'][0]['tier'] = secret;
  return definition;
}

describe('printing diagnostics never echoes a line holding a secret', () => {
  for (const secret of SECRETS) {
    for (const format of ['json', 'yaml'] as const) {
      it(`hides every line holding ${secret.slice(0, 4)}… in ${format}`, () => {
        const file = `agent.${format}`;
        const text = format === 'json' ? JSON.stringify(withSecret(secret), null, 2) : stringify(withSecret(secret));
        const result = validateDefinitionSource(text, file, format);
        expect(result.diagnostics.length).toBeGreaterThanOrEqual(3);
        const printed = formatDiagnostics(result.diagnostics, { format: 'text', sources: new Map([[file, text]]) });
        expect(printed).not.toContain(secret);
        expect(printed).toContain('(line hidden: it may hold a secret)');
        expect(
          formatDiagnostics(result.diagnostics, { format: 'json', sources: new Map([[file, text]]) }),
        ).not.toContain(secret);
      });
    }
  }

  it('still prints a line without a secret, with its caret', () => {
    const text = '{\n  "identity": { "slug": "Not A Slug" }\n}\n';
    const diagnostic: Diagnostic = {
      severity: 'error',
      code: 'agent_definition_invalid',
      rule: 'schema',
      message: 'bad slug',
      file: 'agent.json',
      line: 2,
      column: 27,
      path: '/identity/slug',
    };
    const printed = formatOne(diagnostic, text);
    expect(printed).toContain('2 |   "identity": { "slug": "Not A Slug" }');
    expect(printed).not.toContain('line hidden');
    expect(formatOne(diagnostic, text.replace('Not A Slug', SECRETS[0]!))).toContain(
      '2 | (line hidden: it may hold a secret)',
    );
  });
});
