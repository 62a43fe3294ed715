/**
 * `agentdef promote` in a hostile workspace: a definition that is a link, a definition edited while
 * promote runs, a receipts file that is a link or a FIFO, a credential that is a FIFO or a link to
 * /dev/zero. Each is refused with exit 2, quickly, and changes nothing on disk (the link, its
 * target, the edit and the outside file all stay as they were).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateKey, type KeyStoreOptions } from '../../hosts/node/key-store';
import { runPromoteCommandWith } from './promote';
import { captureRun, copyExamplesWorkspace } from './test-support';

const AT = '2026-03-01T12:30:00Z';
const FILE = 'examples/edit-assistant/agent.json';
const RECEIPTS = 'examples/edit-assistant/lifecycle.receipts.jsonl';
let root: string;
let outside: string;
let keyOptions: KeyStoreOptions;

const promote = (argv: string[], options: KeyStoreOptions = keyOptions) =>
  captureRun((a, io) => runPromoteCommandWith(a, io, options), argv, root);
const down = (file = FILE) => [file, '--to', 'composed', '--at', AT, '--key', 'keyref:release'];
const mkfifo = (path: string) => execFileSync('mkfifo', [path]);

beforeEach(async () => {
  root = copyExamplesWorkspace('agentdef-promote-hostile-');
  outside = mkdtempSync(join(tmpdir(), 'agentdef-promote-outside-'));
  keyOptions = { env: { AGENTDEF_KEYS_DIR: join(root, 'keys'), AGENTDEF_KEYCHAIN: 'off' }, keychain: 'off' };
  const generated = await generateKey('keyref:release', keyOptions);
  if (!generated.ok) throw new Error(generated.message);
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe('the definition file', () => {
  it('a link is refused: the link stays a link, its target keeps its text, no receipt', async () => {
    const before = readFileSync(join(root, FILE), 'utf8');
    symlinkSync('agent.json', join(root, 'examples/edit-assistant/linked.json'));
    const run = await promote(down('examples/edit-assistant/linked.json'));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('examples/edit-assistant/linked.json is a symbolic link');
    expect(lstatSync(join(root, 'examples/edit-assistant/linked.json')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(root, FILE), 'utf8')).toBe(before);
    expect(existsSync(join(root, RECEIPTS))).toBe(false);
  });

  it('an edit made while promote runs is kept, and nothing is promoted', async () => {
    const edited = readFileSync(join(root, FILE), 'utf8').replace(
      '"lifecycleState": "marketplace-published"',
      '"lifecycleState": "marketplace-published" ',
    );
    // The keychain lookup runs between the read and the write: it stands in for an editor saving.
    const editing: KeyStoreOptions = {
      ...keyOptions,
      keychain: 'on',
      platform: 'linux',
      exec: async () => {
        writeFileSync(join(root, FILE), edited);
        return undefined;
      },
    };
    const run = await promote(down(), editing);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${FILE} changed since it was read`);
    expect(readFileSync(join(root, FILE), 'utf8')).toBe(edited);
    expect(existsSync(join(root, RECEIPTS))).toBe(false);
  });
});

describe('the receipts file', () => {
  it('a link out of the workspace is refused before the definition changes; the outside file is untouched', async () => {
    const before = readFileSync(join(root, FILE), 'utf8');
    writeFileSync(join(outside, 'log.jsonl'), 'outside\n');
    symlinkSync(join(outside, 'log.jsonl'), join(root, RECEIPTS));
    const run = await promote(down());
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('symbolic link');
    expect(run.stderr).not.toContain(outside);
    expect(readFileSync(join(outside, 'log.jsonl'), 'utf8')).toBe('outside\n');
    expect(readFileSync(join(root, FILE), 'utf8')).toBe(before);
  });

  it('a FIFO is refused at once (never blocking) and the definition is unchanged', async () => {
    const before = readFileSync(join(root, FILE), 'utf8');
    mkfifo(join(root, RECEIPTS));
    const run = await promote(down());
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('not a regular file');
    expect(readFileSync(join(root, FILE), 'utf8')).toBe(before);
  });

  it('a file that holds something other than receipts is left untouched', async () => {
    const before = readFileSync(join(root, FILE), 'utf8');
    writeFileSync(join(root, RECEIPTS), 'notes, not receipts\n');
    const run = await promote(down());
    expect(run.code).toBe(2);
    expect(readFileSync(join(root, RECEIPTS), 'utf8')).toBe('notes, not receipts\n');
    expect(readFileSync(join(root, FILE), 'utf8')).toBe(before);
  });
});

describe('the credential', () => {
  const up = (credential?: string) => [
    FILE,
    '--to',
    'marketplace-published',
    '--at',
    AT,
    '--key',
    'keyref:release',
    ...(credential ? ['--credential', credential] : []),
  ];

  it('a link to /dev/zero or a FIFO given as --credential is refused at once', async () => {
    expect((await promote(down())).code).toBe(0);
    const before = readFileSync(join(root, FILE), 'utf8');
    symlinkSync('/dev/zero', join(root, 'zero.vc.json'));
    mkfifo(join(root, 'fifo.vc.json'));
    for (const name of ['zero.vc.json', 'fifo.vc.json']) {
      const run = await promote(up(name));
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`cannot read ${name}: not a regular file`);
    }
    expect(readFileSync(join(root, FILE), 'utf8')).toBe(before);
  });

  it("a FIFO where publish writes the version's credential is refused at once", async () => {
    expect((await promote(down())).code).toBe(0);
    const definition = JSON.parse(readFileSync(join(root, FILE), 'utf8'));
    const folder = join(root, 'registry/agents', definition.identity.slug);
    execFileSync('mkdir', ['-p', folder]);
    mkfifo(join(folder, `${definition.identity.versionSemver}.agentfacts.vc.json`));
    const run = await promote(up());
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('not a regular file');
  });
});
