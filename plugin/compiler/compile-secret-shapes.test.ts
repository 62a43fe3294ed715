/**
 * Issue 23's reproduction, through the compiler: a JWK private part written without `kty`
 * (`{"d":"…","x":"…"}`) in a skill description reached the compiled agent-card.json. Now that
 * shape, and every other shape that passed the earlier probe (an AWS secret access key in dotenv
 * form or bare, an exported secret-named variable, a lower-case or whitespace-stripped PEM key),
 * makes the compile refuse with a located `secrets` diagnostic that never echoes the value, and
 * writes nothing; the same definition without it compiles and writes the card.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compileAgent } from './compile';

const REPO = join(__dirname, '..', '..');
const EXAMPLE = join(REPO, 'examples', 'text-stats');
// Fake key material in the shapes of real ones, built by concatenation so scanners of this repository do not flag the test.
const ED25519_D = 'nWGxne_9Wm' + 'C6LrZbkoiz-5vDRSAqrKyJC0jSIJ4yqkE';
const ED25519_X = '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo';
const AWS_KEY = 'Zq3+Vb8/Lm2X' + 'c7Rt1Wn9Ks4Hd6Fp0Gy5Je2Ta8Uo';

const LEAKS: readonly [string, string, string][] = [
  ['a JWK private part without kty', `Signs with ${JSON.stringify({ d: ED25519_D, x: ED25519_X })}.`, ED25519_D],
  ['an AWS secret access key in dotenv form', `Set AWS_SECRET_ACCESS_KEY=${AWS_KEY} first.`, AWS_KEY],
  ['a bare AWS secret access key', `Use ${AWS_KEY} for the bucket.`, AWS_KEY],
  ['an exported secret-named variable', `export X_SECRET="${'q8Vn2Lx7' + 'Rt4Kp1Zw'}"`, 'q8Vn2Lx7Rt4Kp1Zw'],
  [
    'a lower-case PEM private key',
    `-----begin ec ${'private key'}-----\nMHcCAQEEIBkg4LVWM9nuwNSk3yByxZpYRTBnVJk5oUZL6hEm0jVs\n-----end ec private key-----`,
    'MHcCAQEEIBkg4LVWM9nuwNSk3yByxZpYRTBnVJk5oUZL6hEm0jVs',
  ],
  [
    'a whitespace-stripped PEM private key',
    `-----BEGINPRIVATE${'KEY'}-----MC4CAQAwBQYDK2VwBCIEIJ9lbWhUJtVb4Y5bq1-----ENDPRIVATEKEY-----`,
    'MC4CAQAwBQYDK2VwBCIEIJ9lbWhUJtVb4Y5bq1',
  ],
];

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'agentdef-compile-secrets-'));
  writeFileSync(join(root, 'nx.json'), '{}\n');
  cpSync(join(REPO, 'examples'), join(root, 'examples'), { recursive: true });
  cpSync(join(REPO, 'tools.json'), join(root, 'tools.json'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function withSkillDescription(description: string): string {
  const file = join(root, 'examples', 'text-stats', 'agent.json');
  const definition = JSON.parse(readFileSync(join(EXAMPLE, 'agent.json'), 'utf8'));
  definition.capabilityContract.skills[0].description = description;
  writeFileSync(file, `${JSON.stringify(definition, null, 2)}\n`);
  return file;
}

describe('a secret in a skill description never reaches the compiled card', () => {
  it('the definition without one compiles and writes agent-card.json (the control)', async () => {
    const outDir = join(root, 'out');
    const result = await compileAgent({
      file: withSkillDescription('Counts words.'),
      workspaceRoot: root,
      target: 'cloudflare-dynamic-worker',
      outDir,
    });
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(existsSync(join(outDir, 'agent-card.json'))).toBe(true);
  });

  it.each(LEAKS)(
    '%s: compile refuses, located, the value unechoed, nothing written',
    async (_name, description, secret) => {
      const outDir = join(root, 'out');
      const file = withSkillDescription(description);
      const result = await compileAgent({ file, workspaceRoot: root, target: 'cloudflare-dynamic-worker', outDir });
      const errors = result.diagnostics.filter((d) => d.severity === 'error');
      expect(errors.map((d) => [d.rule, d.path])).toEqual([['secrets', '/capabilityContract/skills/0/description']]);
      const text = readFileSync(file, 'utf8');
      const line = text
        .split('\n')
        .findIndex((l) => l.includes('"description": "') && l.includes(description.slice(0, 8)));
      expect(errors[0]).toMatchObject({ line: line + 1, redactSource: true });
      expect(errors[0]!.column).toBeGreaterThan(1);
      expect(JSON.stringify(result.diagnostics)).not.toContain(secret);
      expect(JSON.stringify(result.diagnostics)).not.toContain(secret.slice(-12));
      expect(result.files).toBeUndefined();
      expect(existsSync(join(outDir, 'agent-card.json'))).toBe(false);
    },
  );
});
