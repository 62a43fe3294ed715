/**
 * The secret detector, format by format: for each credential shape one positive and one near miss,
 * placed at several depths of a real definition (a top-level description, a skill example, a deep
 * free-form note, a tool's input-schema default, a property name), written as JSON and as YAML and
 * validated from text. A positive is an error of rule `secrets`, located (JSON Pointer, line and
 * column at the value) and never echoing the value; a near miss validates clean.
 */
import { describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import type { AgentDefinition } from '../../schema/generated/agent-definition.types';
import { validateDefinitionSource } from '../validate-definition';
import { baseDefinition } from './test-support';

// Fake credentials in the shapes of real ones, built by concatenation so scanners of this
// repository do not mistake the test for a leak.
const ED25519_D = 'nWGxne_9Wm' + 'C6LrZbkoiz-5vDRSAqrKyJC0jSIJ4yqkE';
const PUBLIC_JWK = { kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' };
const AWS_KEY = 'Zq3+Vb8/Lm2X' + 'c7Rt1Wn9Ks4Hd6Fp0Gy5Je2Ta8Uo';

/** [format, a string holding the credential, a near miss that is not one]. */
const FORMATS: readonly [string, string, string][] = [
  ['an OpenAI API key', 'sk-' + 'proj-' + 'Q7vR2mX9kL4pT8wZ1nB6cF3hJ5dS0aYe', 'sk-learn-style-classifier-pipeline'],
  ['an Anthropic API key', 'sk-' + 'ant-api03-' + 'h4Jx9QmT2vLr7KpZ8sNc1WbF5yGd3Ra6', 'sk-ant-colony-optimisation'],
  ['a Stripe secret key', 'sk_' + 'live_' + '51H8xQ2eZvKYlo2C9f3Lm7RtWq', 'sk_live_mode_enabled'],
  ['a Stripe secret key', 'rk_' + 'live_' + '51H8xQ2eZvKYlo2C9f3Lm7RtWq', 'rk_live_ratio'],
  ['a Hugging Face token', 'hf_' + 'aBcDeFgHiJkLmNoPqRsTuVwXyZ12345678', 'hf_transformers_pipeline_for_classification'],
  ['a GitLab token', 'glpat-' + 'xY3k9Lm2Qr7Tv1Wz8Bn4', 'glpat-token-goes-here'],
  ['an npm token', 'npm_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8', 'npm_config_registry_url_for_the_mirror'],
  [
    'a SendGrid API key',
    'SG.' + 'aB3dE5fG7hI9jK1lM3nO5p' + '.' + 'qR7sT9uV1wX3yZ5aB7cD9eF1gH3iJ5kL7mN9oP1qR3s',
    'SG.version.2 of the mail API',
  ],
  ['a Google OAuth token', 'ya29.' + 'a0AfH6SMBx7Qk2Lm9Rt4Vw1Zn8Bc3Xy', 'ya29.the-quick-brown-fox-jumps'],
  [
    'a Google OAuth client secret',
    'GOCSPX-' + 'Ab3Cd5Ef7Gh9Ij1Kl3Mn5Op7Qr9S',
    'GOCSPX- is the prefix of client secrets',
  ],
  [
    'a Slack webhook URL',
    'https://hooks.slack.com/services/' + 'T0123ABCD/B0456EFGH/xYz123AbC456dEf789GhI012',
    'https://api.slack.com/messaging/webhooks',
  ],
  ['a Slack token', 'xoxb-' + '1234567890-0987654321-Ab3Cd5Ef7Gh9', 'xoxo-hugs-and-kisses'],
  ['an AWS access key id', 'AKIA' + 'Z3Q7R2M9K4P8W1N6', 'AKIA is the prefix of AWS key ids'],
  [
    'an AWS secret access key',
    'aws_secret_access_key = ' + 'Zq3+Vb8/Lm2Xc7Rt1Wn9Ks4Hd6Fp0Gy5Je2Ta8Uo',
    'aws_region = us-east-1, aws_profile = default',
  ],
  ['a GitHub token', 'ghp_' + '4f9Kq2Lm7Rx1Tz8Vb3Nc6Wd0Ys5Hj2Pa9Eg', 'ghp_ tokens are classic PATs'],
  ['a GitHub token', 'github_pat_' + '11ABCDEFG0abcdefghijkl_mnopqrstuvwxyz0123456789', 'github_pat_ fine-grained'],
  ['a Google API key', 'AIza' + 'SyD4q9Xv2Lm7Rt1Kp8Zn3Bw6Hc0Fj5Ye2Ga', 'AIza keys are restricted'],
  [
    'a PyPI token',
    'pypi-' + 'AgEIcHlwaS5vcmcCJGE4ZjM2YzVhLTk0ZDctNGJmZC1hYjE2LTk5MmE4ZmRjYzBhMQACKlsz',
    'pypi-publish workflow',
  ],
  ['a Docker Hub token', 'dckr_' + 'pat_' + 'Ab3Cd5Ef7Gh9Ij1Kl3Mn5Op7Qr9', 'dckr_pat_ tokens'],
  [
    'a JSON Web Token',
    'eyJ' +
      'hbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.' +
      'eyJ' +
      'zdWIiOiJhY21lIn0.' +
      'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
    'eyJhbGciOi is a JWT header prefix',
  ],
  [
    'a private key',
    '-----BEGIN ' + 'PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----',
    '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA\n-----END PUBLIC KEY-----',
  ],
  [
    'a private key',
    '-----BEGIN ' + 'OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA',
    'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl user@host',
  ],
  [
    'a password in a URL',
    'postgres://admin:' + 'S3cr3tPa55w0rd' + '@db.internal:5432/app',
    'postgres://admin:${DB_PASSWORD}@db.internal:5432/app',
  ],
  [
    'a password in a URL',
    'https://deploy:' + 'x9Kq2Lm7Rx1T' + '@registry.example.com/v2/',
    'ssh://git@github.com/acme/agents.git',
  ],
  ['a private key (JWK)', JSON.stringify({ ...PUBLIC_JWK, d: ED25519_D }), JSON.stringify(PUBLIC_JWK)],
  // Issue 23: the shapes that still passed the earlier probe.
  [
    'a private key (JWK)',
    JSON.stringify({ d: ED25519_D, x: PUBLIC_JWK.x }),
    JSON.stringify({ d: 'deadline-2025-06', x: PUBLIC_JWK.x }),
  ],
  ['a private key (JWK)', `{k: '${ED25519_D}'}`, "{k: 'kilometres'}"],
  ['an AWS secret access key', 'AWS_SECRET_ACCESS_KEY=' + AWS_KEY, 'AWS_SECRET_ACCESS_KEY=${AWS_SECRET_ACCESS_KEY}'],
  ['an AWS secret access key', AWS_KEY, 'Zq3xVb8yLm2Xc7Rt1Wn9Ks4Hd6Fp0Gy5Je2Ta8Uo'],
  [
    'a secret assigned to a secret-named variable',
    'export X_SECRET="' + 'q8Vn2Lx7Rt4Kp1Zw' + '"',
    'export X_SECRET="$X_SECRET"',
  ],
  ['a secret assigned to a secret-named variable', 'X_TOKEN: ' + 'Tq9Lm2Xv7Rk4Pz1W', 'X_TOKEN: secrets-store://team/x'],
  [
    'a secret assigned to a secret-named variable',
    '"apiKey": "' + 'Hn4Qz8Lw2Rv6Tk1M' + '"',
    '"apiKey": "OPENAI_API_KEY"',
  ],
  [
    'a private key',
    '-----begin rsa ' + 'private key-----\nMIIEpAIBAAKCAQEA7q9\n-----end rsa private key-----',
    '-----begin public key-----\nMCowBQYDK2VwAyEA\n-----end public key-----',
  ],
  [
    'a private key',
    '-----BEGINRSA' + 'PRIVATEKEY-----MIIEpAIBAAKCAQEA7q9-----ENDRSAPRIVATEKEY-----',
    '-----BEGINPUBLICKEY-----MCowBQYDK2VwAyEA-----ENDPUBLICKEY-----',
  ],
  [
    'a private key',
    'MIIEvQIBADAN' + 'BgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQ',
    'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA',
  ],
  ['an Authorization header', 'Authorization: Bearer ' + 'Q7vR2mX9kL4pT8wZ1nB6', 'Authorization: Bearer <token>'],
];

/** Where a string is placed: a JSON Pointer and how to put it there. */
const PLACES: readonly [string, (def: AgentDefinition, value: string) => void][] = [
  ['/metadata/description', (def, v) => (def.metadata.description = `Routes edits. ${v}`)],
  ['/capabilityContract/skills/0/examples/0', (def, v) => (def.capabilityContract.skills[0]!.examples = [v])],
  [
    '/metadata/notes/ops/rotation/1/material',
    (def, v) => (def.metadata.notes = { ops: { rotation: ['first', { material: v }] } }),
  ],
  [
    '/toolInventory/0/inputSchema/properties/target/default',
    (def, v) =>
      (def.toolInventory[0]!.inputSchema = { type: 'object', properties: { target: { type: 'string', default: v } } }),
  ],
];

function validate(def: AgentDefinition, format: 'json' | 'yaml') {
  const text = format === 'json' ? JSON.stringify(def, null, 2) : toYaml(def);
  return { text, result: validateDefinitionSource(text, `agent.${format}`, format) };
}

function secretDiagnostics(def: AgentDefinition, format: 'json' | 'yaml') {
  const { text, result } = validate(def, format);
  return { text, diagnostics: result.diagnostics.filter((d) => d.rule === 'secrets'), all: result.diagnostics };
}

/** What a near miss must not cause: a secrets finding or a schema error (other rules judge other things, e.g. newlines in notes). */
function problems(result: ReturnType<typeof validateDefinitionSource>) {
  return result.diagnostics.filter((d) => d.rule === 'secrets' || d.rule === 'schema');
}

function expectNotEchoed(value: unknown, secret: string): void {
  const text = JSON.stringify(value);
  const body = secret.replace(/^.*?(?=[A-Za-z0-9+/_-]{12,}$)/s, '');
  expect(text).not.toContain(secret);
  expect(text).not.toContain(body.slice(-12));
}

describe.each(['json', 'yaml'] as const)('secret formats in %s', (format) => {
  it.each(FORMATS.map(([kind, positive, negative]) => [kind, positive, negative] as const))(
    '%s: found at every depth, located, not echoed; its near miss is clean',
    (kind, positive, negative) => {
      for (const [pointer, place] of PLACES) {
        const def = baseDefinition();
        place(def, positive);
        const { text, diagnostics } = secretDiagnostics(def, format);
        expect(
          diagnostics.map((d) => d.path),
          `${kind} at ${pointer}`,
        ).toEqual([pointer]);
        const d = diagnostics[0]!;
        expect(d).toMatchObject({ severity: 'error', redactSource: true, file: `agent.${format}` });
        expect(d.message).toContain(kind);
        // Located at the value: the line holds the field's name, or (YAML block scalar, list item) is just below it.
        const lines = text.split('\n');
        const key = pointer
          .split('/')
          .filter((s) => !/^\d+$/.test(s))
          .pop()!;
        expect(d.line).toBeGreaterThan(1);
        expect(
          lines.slice(Math.max(0, d.line - 3), d.line).join('\n'),
          `${kind} at ${pointer}: line ${d.line}`,
        ).toContain(key);
        expectNotEchoed(diagnostics, positive);

        const near = baseDefinition();
        place(near, negative);
        const clean = validate(near, format).result;
        expect(problems(clean), `${kind} near miss at ${pointer}`).toEqual([]);
      }
    },
  );

  it('a credential used as a property name is reported at the object holding it, never in the path', () => {
    for (const [kind, positive] of FORMATS) {
      if (positive.includes('\n')) continue; // not a sensible key in YAML's plain form; covered as a value
      const def = baseDefinition();
      def.metadata.notes = { deep: { [positive]: 'x' } };
      const { diagnostics } = secretDiagnostics(def, format);
      expect(
        diagnostics.map((d) => d.path),
        kind,
      ).toEqual(['/metadata/notes/deep']);
      expectNotEchoed(diagnostics, positive);
    }
  });

  it('a JWK object with private members anywhere is reported at the private member; a public JWK is clean', () => {
    for (const member of ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k']) {
      const def = baseDefinition();
      def.metadata.notes = { keys: [{ ...PUBLIC_JWK, [member]: ED25519_D }] };
      def.toolInventory[0]!.inputSchema = { type: 'object', examples: [{ signer: { kty: 'oct', k: ED25519_D } }] };
      const { diagnostics } = secretDiagnostics(def, format);
      expect(diagnostics.map((d) => d.path).sort()).toEqual([
        `/metadata/notes/keys/0/${member}`,
        '/toolInventory/0/inputSchema/examples/0/signer/k',
      ]);
      expect(diagnostics[0]!.message).toContain('private key material');
      expectNotEchoed(diagnostics, ED25519_D);
    }
    // Without a key type (issue 23): a private member with its member's shape still counts.
    const bare = baseDefinition();
    bare.metadata.notes = { keys: [{ d: ED25519_D, x: PUBLIC_JWK.x }], other: { k: ED25519_D } };
    const found = secretDiagnostics(bare, format).diagnostics;
    expect(found.map((d) => d.path).sort()).toEqual(['/metadata/notes/keys/0/d', '/metadata/notes/other/k']);
    expectNotEchoed(found, ED25519_D);
    const notKeys = baseDefinition();
    notKeys.metadata.notes = { axis: [{ d: 'north', x: 3 }], point: { k: 'kilometres', d: 12 } };
    expect(problems(validate(notKeys, format).result)).toEqual([]);
    const pub = baseDefinition();
    pub.metadata.notes = {
      keys: [PUBLIC_JWK],
      schema: { properties: { d: { type: 'string' }, kty: { type: 'string' } } },
    };
    expect(problems(validate(pub, format).result)).toEqual([]);
  });

  it('an AWS secret access key counts in any field named for AWS, and not without the context', () => {
    const key = 'Zq3+Vb8/Lm2Xc7Rt1Wn9Ks4Hd6Fp0Gy5Je2Ta8Uo';
    const def = baseDefinition();
    def.metadata.notes = { deploy: { awsSecretAccessKey: key } };
    const { diagnostics } = secretDiagnostics(def, format);
    expect(diagnostics.map((d) => d.path)).toEqual(['/metadata/notes/deploy/awsSecretAccessKey']);
    expect(diagnostics[0]!.message).toContain('an AWS secret access key');
    expectNotEchoed(diagnostics, key);
    const bare = baseDefinition();
    bare.metadata.notes = { checksum: 'Zq3xVb8yLm2Xc7Rt1Wn9Ks4Hd6Fp0Gy5Je2Ta8Uo is a checksum' };
    expect(problems(validate(bare, format).result)).toEqual([]);
  });

  it('the provenance repo URL with a password is reported (it is published in the card)', () => {
    const def = baseDefinition();
    def.metadata.provenance.repo =
      'https://ci-bot:' + 'glpat-' + 'xY3k9Lm2Qr7Tv1Wz8Bn4' + '@gitlab.example.com/acme/agents.git';
    const { diagnostics } = secretDiagnostics(def, format);
    expect(diagnostics.map((d) => d.path)).toEqual(['/metadata/provenance/repo']);
    expect(diagnostics[0]!.message).toMatch(
      /a GitLab token and a password in a URL|a password in a URL and a GitLab token/,
    );
  });
});

describe('tool endpoints (schema)', () => {
  it.each([
    ['https://user:pass@api.example.com'],
    ['https://deploy:' + 'x9Kq2Lm7Rx1T' + '@api.example.com'],
    ['https://allowed.example.com@evil.example.net'],
    ['https://@api.example.com/'],
    ['https://token@api.example.com/v1'],
    ['https://api.example.com?@evil.example.net'],
  ])('refuses userinfo in %s with a located schema error', (endpoint) => {
    const def = baseDefinition();
    def.toolInventory[0]!.endpoints = ['https://api.example.com', endpoint];
    const { result } = validate(def, 'json');
    expect(result.valid).toBe(false);
    const d = result.diagnostics.find((x) => x.path === '/toolInventory/0/endpoints/1');
    expect(d, JSON.stringify(result.diagnostics)).toBeDefined();
    expect(d!.rule).toBe('schema');
    // A real password is never echoed by the schema message either.
    expect(JSON.stringify(result.diagnostics)).not.toContain('x9Kq2Lm7Rx1T');
  });

  it('accepts origins and paths that merely contain @ after the host', () => {
    const def = baseDefinition();
    def.toolInventory[0]!.endpoints = [
      'https://api.example.com',
      'https://api.example.com/users/@me',
      'http://127.0.0.1:8080',
    ];
    expect(problems(validate(def, 'json').result)).toEqual([]);
  });
});
