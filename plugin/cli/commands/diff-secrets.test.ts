/**
 * `agentdef diff` never prints a secret: a changed property whose name is a credential (a token
 * pasted as a key, which the secrets rule reports without quoting) is shown by a placeholder in
 * its JSON Pointer, in text and JSON output, as an added, removed or changed member; every other
 * segment is shown as it is.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { diffDefinitions } from '../../trust/definition-diff';
import { runDiffCommand } from './diff';
import { captureRun } from './test-support';

const root = mkdtempSync(join(tmpdir(), 'agentdef-diff-secrets-'));
writeFileSync(join(root, 'nx.json'), '{}\n');
afterAll(() => rmSync(root, { recursive: true, force: true }));

const base = JSON.parse(
  readFileSync(join(__dirname, '..', '..', '..', 'examples', 'text-classify', 'agent.json'), 'utf8'),
);
const write = (name: string, value: unknown) => {
  writeFileSync(join(root, name), `${JSON.stringify(value, null, 2)}\n`);
  return name;
};

// Assembled at run time so no scanner mistakes this file for a leak.
const SECRETS = [
  `sk-ant-api03-${'A1b2C3d4'.repeat(11)}`,
  `ghp_${'x1Y2z3W4'.repeat(4)}abcd`,
  `AKIA${'ABCDEFGH23456789'}`,
];

describe('agentdef diff with credentials as property names', () => {
  for (const secret of SECRETS) {
    it(`hides ${secret.slice(0, 4)}… in every pointer, text and JSON`, async () => {
      const before = structuredClone(base);
      before.metadata[secret] = 'old';
      before.metadata[`old ${secret}`] = 'removed';
      const after = structuredClone(base);
      after.metadata[secret] = 'new';
      after.metadata[`key ${secret}`] = 'added';
      after.metadata.plain = 'added';
      after.identity.versionSemver = '9.0.0';
      write('old.json', before);
      write('new.json', after);
      for (const format of ['text', 'json']) {
        const run = await captureRun(runDiffCommand, ['old.json', 'new.json', '--format', format], root);
        expect(run.stdout + run.stderr, format).not.toContain(secret);
        expect(run.stdout, format).toContain('/metadata/plain');
        expect(run.stdout.match(/\/metadata\/<hidden: [^>]+>/g), format).toHaveLength(3);
      }
      for (const change of diffDefinitions(before, after)) expect(change.pointer).not.toContain(secret);
    });
  }
});
