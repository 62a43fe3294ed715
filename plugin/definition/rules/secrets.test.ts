import { describe, expect, it } from 'vitest';
import { cpuTimeOf } from '../../../e2e/support/cpu-time';
import type { AgentDefinition } from '../../schema/generated/agent-definition.types';
import { validateDefinitionSource } from '../validate-definition';
import { AGENT_DEFINITION_WORDS } from '../../schema/generated/agent-definition.words';
import { DEFAULT_RULE_OPTIONS } from './rule';
import { SECRET_SUGGESTION, highEntropyBlob, secretFreeSchemaWords, secretKinds, secretsRule as rule } from './secrets';
import { EXAMPLE_FILES, baseDefinition, loadExample, runRule, summarize } from './test-support';

// Fake credentials in the shapes of real ones (built by concatenation so scanners of this
// repository do not mistake the test for a leak).
const OPENAI = 'sk-' + 'proj-' + 'Q7vR2mX9kL4pT8wZ1nB6cF3hJ5dS0aYe';
const ANTHROPIC = 'sk-' + 'ant-api03-' + 'h4Jx9QmT2vLr7KpZ8sNc1WbF5yGd3Ra6';
const AWS = 'AKIA' + 'Z3Q7R2M9K4P8W1N6';
const AWS_SESSION = 'ASIA' + 'Y5T2V8B3N6M1Q4R7';
const GITHUB = 'ghp_' + '4f9Kq2Lm7Rx1Tz8Vb3Nc6Wd0Ys5Hj2Pa9Eg';
const GITHUB_PAT = 'github_pat_' + '11ABCDEFG0abcdefghijkl_mnopqrstuvwxyz0123456789';
const SLACK = 'xoxb-' + '1234567890-0987654321-Ab3Cd5Ef7Gh9';
const GOOGLE = 'AIza' + 'SyD4q9Xv2Lm7Rt1Kp8Zn3Bw6Hc0Fj5Ye2Ga';
const PEM = '-----BEGIN ' + 'RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7q9\n-----END RSA PRIVATE KEY-----';
const JWT =
  'eyJ' +
  'hbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.' +
  'eyJ' +
  'zdWIiOiJhY21lIiwiaWF0IjoxNzAwMDAwMDAwfQ.' +
  'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const BASE64 = 'Zk9xR3c2TmJ0WTh2UTFtS2ZwN0xyOXpBc0U0Z0h1SjA';
const HEX = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';

function assertRedacted(findings: unknown, ...secrets: string[]): void {
  const text = JSON.stringify(findings);
  for (const secret of secrets) {
    expect(text).not.toContain(secret);
    // Not even a recognisable fragment of the key body.
    expect(text).not.toContain(secret.slice(-12));
  }
}

function withNote(def: AgentDefinition, value: unknown): AgentDefinition {
  def.metadata.notes = { debug: value };
  return def;
}

describe('secrets', () => {
  it.each(Object.keys(EXAMPLE_FILES))('passes the %s example', (slug) => {
    expect(runRule(rule, loadExample(slug))).toEqual([]);
  });

  it.each([
    ['an OpenAI API key', OPENAI],
    ['an Anthropic API key', ANTHROPIC],
    ['an AWS access key id', AWS],
    ['an AWS access key id', AWS_SESSION],
    ['a GitHub token', GITHUB],
    ['a GitHub token', GITHUB_PAT],
    ['a Slack token', SLACK],
    ['a Google API key', GOOGLE],
    ['a private key', PEM],
    ['a JSON Web Token', JWT],
  ])('finds %s anywhere in the document, without echoing it', (kind, secret) => {
    const def = withNote(baseDefinition(), `token=${secret} (temporary)`);
    const findings = runRule(rule, def);
    expect(summarize(findings)).toEqual([
      { path: '/metadata/notes/debug', code: 'agent_definition_invalid', severity: 'error' },
    ]);
    expect(findings[0]).toMatchObject({ rule: 'secrets', redactSource: true, suggestion: SECRET_SUGGESTION });
    expect(findings[0]?.message).toContain('metadata.notes.debug');
    expect(findings[0]?.message).toContain(kind);
    assertRedacted(findings, secret);
  });

  it('finds secrets in descriptions, invariants and other typed fields', () => {
    const def = baseDefinition();
    def.metadata.description = `Routes edits. Use ${OPENAI} for testing.`;
    def.capabilityContract.invariants.push(`Never log ${GITHUB}.`);
    const findings = runRule(rule, def);
    expect(findings.map((f) => f.path)).toEqual(['/capabilityContract/invariants/2', '/metadata/description']);
    assertRedacted(findings, OPENAI, GITHUB);
  });

  it('reports every secret, one finding per field', () => {
    const def = baseDefinition();
    def.metadata.notes = { a: AWS, b: [SLACK, 'fine', JWT], c: { d: `${OPENAI} and ${AWS}` } };
    const findings = runRule(rule, def);
    expect(findings.map((f) => f.path)).toEqual([
      '/metadata/notes/a',
      '/metadata/notes/b/0',
      '/metadata/notes/b/2',
      '/metadata/notes/c/d',
    ]);
    expect(findings[3]?.message).toContain('an OpenAI API key and an AWS access key id');
    assertRedacted(findings, AWS, SLACK, JWT, OPENAI);
  });

  it('flags a secret-ref whose ref is a high-entropy blob', () => {
    const def = baseDefinition();
    def.runtimeRequirements.bindings[0] = { kind: 'secret-ref', name: 'OPENAI_API_KEY', ref: `env://${BASE64}` };
    const findings = runRule(rule, def);
    expect(summarize(findings)).toEqual([
      { path: '/runtimeRequirements/bindings/0/ref', code: 'agent_definition_invalid', severity: 'error' },
    ]);
    expect(findings[0]?.message).toContain('runtimeRequirements.bindings[0].ref');
    expect(findings[0]?.message).toContain('base64');
    expect(findings[0]?.redactSource).toBe(true);
    assertRedacted(findings, BASE64);
  });

  it('flags hex and base64 blobs in binding fields and sampling parameters', () => {
    const def = baseDefinition();
    def.runtimeRequirements.bindings.push(
      { kind: 'custom', name: 'SIGNER', type: 'hmac' },
      { kind: 'kv', name: 'CACHE', namespaceId: BASE64 },
    );
    def.modelSet[0]!.samplingParams = { temperature: 0, stop: ['</answer>', HEX, BASE64] };
    const findings = runRule(rule, def);
    expect(findings.map((f) => f.path)).toEqual([
      '/modelSet/0/samplingParams/stop/1',
      '/modelSet/0/samplingParams/stop/2',
      '/runtimeRequirements/bindings/3/namespaceId',
    ]);
    expect(findings[0]?.message).toContain('hex');
    assertRedacted(findings, HEX, BASE64);
  });

  it('leaves blobs outside bindings and sampling parameters alone (only unmistakable shapes count there)', () => {
    const def = withNote(baseDefinition(), HEX);
    def.metadata.description = `Checksum ${BASE64}.`;
    expect(runRule(rule, def)).toEqual([]);
  });

  it('does not flag resource ids, references or names', () => {
    const def = baseDefinition();
    def.runtimeRequirements.bindings.push(
      { kind: 'kv', name: 'ROUTER_STATE', namespaceId: '0f2ac74b498b48028cb68387c421e279' },
      { kind: 'd1', name: 'DB', databaseId: 'c020574a-5623-407b-be0c-cd192bab9545' },
      {
        kind: 'secret-ref',
        name: 'OPENAI_API_KEY_FOR_PRODUCTION_SERVICE',
        ref: 'secrets-store://platform-team/production/AnthropicKey2025',
      },
      { kind: 'service', name: 'ROUTER', service: 'acme-write-router-production-eu-west-2-canary' },
    );
    def.metadata.description = 'Risk-assessment-and-mitigation-pipeline for task-scheduling and desk-booking.';
    expect(runRule(rule, def)).toEqual([]);
  });

  it('reports a secret used as a property name at the enclosing object, never in the path', () => {
    const def = baseDefinition();
    def.metadata.notes = { [AWS]: { nested: OPENAI } };
    const findings = runRule(rule, def);
    expect(findings.map((f) => f.path)).toEqual(['/metadata/notes', '/metadata/notes']);
    expect(findings[0]?.message).toMatch(/property name/);
    assertRedacted(findings, AWS, OPENAI);
  });

  it('escapes JSON Pointer segments', () => {
    const def = baseDefinition();
    def.metadata.notes = { 'a/b~c': AWS };
    expect(runRule(rule, def).map((f) => f.path)).toEqual(['/metadata/notes/a~1b~0c']);
  });

  it('has detectors that ignore look-alike words', () => {
    expect(secretKinds('task-scheduling-and-desk-booking-system')).toEqual([]);
    expect(secretKinds('sk-learn-style-classifier-pipeline')).toEqual([]);
    expect(secretKinds('AKIA is the prefix of AWS key ids')).toEqual([]);
    expect(highEntropyBlob('ProductionOpenAIKey2024v2SecondaryBackup')).toBeUndefined();
    expect(highEntropyBlob(BASE64)).toBe('a long base64 string');
    expect(highEntropyBlob(HEX)).toBe('a long hex string');
  });

  it('scans hostile long strings in linear time (no regular-expression backtracking blow-up)', () => {
    const n = 100_000;
    const hostile = [
      '-'.repeat(n) + 'BEGIN',
      `--BEGIN ${'A'.repeat(n)}`,
      'a'.repeat(n) + '://',
      `a://${':'.repeat(n)}`,
      `a://${'b:'.repeat(n / 2)}`,
      'eyJ'.repeat(n / 3),
      'eyJabcd.'.repeat(n / 8),
      `sk-${'A'.repeat(n)}`,
      `kty: ${' d: '.repeat(n / 4)}`,
      `"kty":${'"d":"'.repeat(n / 5)}`,
      `aws ${'Ab1/'.repeat(n / 4)}`,
      `hooks.slack.com/services/${'a/'.repeat(n / 2)}`,
      'a://b:c@'.repeat(n / 8),
    ];
    for (const text of hostile) {
      expect(cpuTimeOf(() => secretKinds(text, 'aws')).cpuMs, text.slice(0, 12)).toBeLessThan(500);
    }
  });

  it('masks the value in schema messages too: a pasted key where a reference belongs is named by kind, not quoted', () => {
    const def = baseDefinition();
    def.runtimeRequirements.bindings[0] = { kind: 'secret-ref', name: 'OPENAI_API_KEY', ref: OPENAI } as never;
    (def.metadata as unknown as Record<string, unknown>)[GITHUB] = 'x';
    const result = validateDefinitionSource(JSON.stringify(def, null, 2), 'agent.json', 'json');
    const schema = result.diagnostics.filter((d) => d.rule === 'schema');
    expect(schema.map((d) => d.path)).toEqual(
      expect.arrayContaining(['/runtimeRequirements/bindings/0/ref', '/metadata']),
    );
    for (const d of schema)
      if (d.path === '/runtimeRequirements/bindings/0/ref' || d.path === '/metadata') expect(d.redactSource).toBe(true);
    assertRedacted(result.diagnostics, OPENAI, GITHUB);
  });
});

describe('the schema words the scan skips', () => {
  it('are only words no check would flag, in any field', () => {
    const skipped = secretFreeSchemaWords();
    for (const word of skipped) {
      expect(AGENT_DEFINITION_WORDS).toContain(word);
      // The field matters only to the AWS secret key (40 characters) and to blobs (32 and more).
      expect(secretKinds(word, 'runtimeRequirements.bindings[0].aws_secret_access_key')).toEqual([]);
      expect(highEntropyBlob(word)).toBeUndefined();
    }
  });

  it('are most of the schema, so the shortcut is not silently lost', () => {
    expect(secretFreeSchemaWords().size).toBeGreaterThan(0.9 * AGENT_DEFINITION_WORDS.length);
  });

  it('leave every other string scanned: a secret beside schema words, as a value and as a name', () => {
    const definition = {
      ...baseDefinition(),
      metadata: { labels: { signingKeyRef: OPENAI, [GITHUB]: 'bindings' } },
    } as unknown as AgentDefinition;
    const findings = rule.check(definition, DEFAULT_RULE_OPTIONS);
    expect(findings.map((f) => f.path).sort()).toEqual(['/metadata/labels', '/metadata/labels/signingKeyRef']);
    assertRedacted(findings, OPENAI, GITHUB);
  });
});
