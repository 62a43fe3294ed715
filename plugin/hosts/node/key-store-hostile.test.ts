/**
 * Key material given where a key ref belongs (the private JWK text, its bare `d`, a PEM block) is
 * refused without being repeated: not by the key store, not by `agentdef keys`, `agentdef
 * publish --key` or `agentdef promote --key`, in text or JSON. A mistyped ref that is no key
 * material is still quoted, so the user sees what was wrong.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKeysCommandWith } from '../../cli/commands/keys';
import { runPromoteCommandWith } from '../../cli/commands/promote';
import { publishDefinition } from '../../operations/publish';
import { captureRun, copyExamplesWorkspace } from '../../cli/commands/test-support';
import { generateReceiptKeyPair } from '../../runtime/receipts';
import { exportPublicKey, generateKey, type KeyStoreOptions, loadPrivateKey, parseKeyRef } from './key-store';

let root: string;
let options: KeyStoreOptions;
let d: string;
let hostile: string[];

beforeAll(async () => {
  root = copyExamplesWorkspace('agentdef-key-refs-');
  options = {
    env: {
      AGENTDEF_KEYS_DIR: join(mkdtempSync(join(tmpdir(), 'agentdef-key-refs-keys-')), 'keys'),
      AGENTDEF_KEYCHAIN: 'off',
    },
    keychain: 'off',
  };
  const { privateJwk } = await generateReceiptKeyPair();
  d = (privateJwk as { d: string }).d;
  const pemBody = Buffer.from(d, 'base64url').toString('base64');
  hostile = [
    JSON.stringify(privateJwk),
    `keyref:${JSON.stringify(privateJwk)}`,
    d,
    `keyref:${d}`,
    `-----BEGIN PRIVATE KEY-----\n${pemBody}\n-----END PRIVATE KEY-----`,
    `keyref:${d.slice(0, 20)} ${d.slice(20)}`,
  ];
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(join(options.env!['AGENTDEF_KEYS_DIR']!, '..'), { recursive: true, force: true });
});

/** What must never appear: `d`, and any 12 characters of it. */
function expectNoKey(text: string, label: string) {
  for (let i = 0; i + 12 <= d.length; i += 4) expect(text, label).not.toContain(d.slice(i, i + 12));
  expect(text, label).not.toContain(Buffer.from(d, 'base64url').toString('base64').slice(0, 16));
}

describe('key material given as a key ref', () => {
  it('the key store refuses it without repeating it', async () => {
    for (const ref of hostile) {
      const parsed = parseKeyRef(ref);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) {
        expect(parsed.message).toContain('is not a key ref');
        expectNoKey(parsed.message, `hostile ref ${hostile.indexOf(ref)}`);
      }
      for (const result of [
        await loadPrivateKey(ref, options),
        await exportPublicKey(ref, options),
        await generateKey(ref, options),
      ]) {
        expect(result.ok).toBe(false);
        if (!result.ok) expectNoKey(result.message, `hostile ref ${hostile.indexOf(ref)}`);
      }
    }
  });

  it('agentdef keys, publish --key and promote --key never print it, in text or JSON', async () => {
    for (const ref of hostile) {
      for (const format of ['text', 'json']) {
        for (const action of ['generate', 'export-public']) {
          const run = await captureRun(
            (argv, io) => runKeysCommandWith(argv, io, options),
            [action, ref, '--format', format],
            root,
          );
          expect(run.code).not.toBe(0);
          expectNoKey(run.stdout + run.stderr, `keys ${action} ${format}`);
        }
        const promoted = await captureRun(
          (argv, io) => runPromoteCommandWith(argv, io, options),
          [
            'examples/edit-assistant/agent.json',
            '--to',
            'composed',
            '--at',
            '2026-03-01T12:30:00Z',
            '--key',
            ref,
            '--format',
            format,
          ],
          root,
        );
        expect(promoted.code).not.toBe(0);
        expectNoKey(promoted.stdout + promoted.stderr, `promote ${format}`);
      }
      const published = await publishDefinition({
        file: join(root, 'examples/text-stats/agent.json'),
        workspaceRoot: root,
        keyRef: ref,
        keyStore: options,
      });
      expect(published.code).not.toBe(0);
      expectNoKey(published.stdout + published.stderr, 'publish');
    }
  });

  it('a mistyped ref that is no key material is still quoted', () => {
    for (const ref of ['keyref:Bad/Name', 'keyref:../escape', 'release key']) {
      const parsed = parseKeyRef(ref);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.message).toContain(`"${ref}" is not a key ref`);
    }
  });
});
