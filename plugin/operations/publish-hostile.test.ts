/**
 * `agentdef publish` against a hostile registry folder and a concurrent publisher: a slug folder
 * that is a link out of the registry is never written through, and a publisher that loses the
 * race for a version never touches the winner's files (the snapshot is created exclusively
 * before any export is written); an interrupted publication is completed by the next run.
 */
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { generateKey } from '../hosts/node/key-store';
import { publishDefinition } from './publish';
import { runRegistryCommand } from '../cli/commands/registry';
import { captureRun, gitAt } from '../cli/commands/test-support';

/** Called when publish reads the snapshot path of a version: stands in for another publisher. */
const race = vi.hoisted(() => ({ onSnapshotRead: undefined as undefined | ((path: string) => void) }));
vi.mock('../definition/read-source', async (importOriginal) => {
  const original = await importOriginal<typeof import('../definition/read-source')>();
  return {
    ...original,
    readSourceBytes: (...args: Parameters<typeof original.readSourceBytes>) => {
      const result = original.readSourceBytes(...args);
      const hook = race.onSnapshotRead;
      if (hook !== undefined && /text-stats[/\\]1\.0\.0\.json$/.test(args[0])) {
        race.onSnapshotRead = undefined;
        hook(args[0]);
      }
      return result;
    },
  };
});

const COMMIT_TIME = '2026-03-04T05:06:07Z';
const WORKER_URL = 'https://text-stats.example.workers.dev';
const FILE = 'agents/text-stats/agent.json';

let root: string;
let outside: string;
let keyStore: { env: NodeJS.ProcessEnv; keychain: 'off' };

function git(...args: string[]): string {
  return gitAt(root, COMMIT_TIME, ...args);
}

const publish = (extra: Partial<Parameters<typeof publishDefinition>[0]> = {}) =>
  publishDefinition({ file: join(root, FILE), workspaceRoot: root, workerUrl: WORKER_URL, keyStore, ...extra });

/** Every file below `dir` with its bytes. */
function filesBelow(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string, prefix: string) => {
    if (!existsSync(at)) return;
    for (const entry of readdirSync(at, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (entry.isDirectory()) walk(join(at, entry.name), `${prefix}${entry.name}/`);
      else out[`${prefix}${entry.name}`] = readFileSync(join(at, entry.name), 'utf8');
    }
  };
  walk(dir, '');
  return out;
}

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'agentdef-publish-hostile-'));
  outside = mkdtempSync(join(tmpdir(), 'agentdef-publish-outside-'));
  writeFileSync(join(root, 'nx.json'), '{}\n');
  mkdirSync(join(root, 'agents/text-stats'), { recursive: true });
  writeFileSync(join(root, FILE), readFileSync(join(__dirname, '../../examples/text-stats/agent.json')));
  keyStore = { env: { AGENTDEF_KEYS_DIR: join(root, '.keys'), AGENTDEF_KEYCHAIN: 'off' }, keychain: 'off' };
  expect((await generateKey('keyref:acme-receipts', keyStore)).ok).toBe(true);
  writeFileSync(join(root, '.gitignore'), '.keys/\n');
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'first');
});

afterEach(() => {
  race.onSnapshotRead = undefined;
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe('publish never writes through a link out of the registry', () => {
  it('refuses a slug folder that is a link to a folder outside the registry, writing nothing anywhere', async () => {
    mkdirSync(join(root, 'registry/agents'), { recursive: true });
    symlinkSync(outside, join(root, 'registry/agents/text-stats'));
    const outcome = await publish();
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain('registry/agents/text-stats');
    expect(outcome.stderr).toContain('outside the registry');
    expect(outcome.stderr).not.toContain(outside);
    expect(filesBelow(outside)).toEqual({});
    expect(existsSync(join(root, 'registry/agents/index.json'))).toBe(false);
  });

  it('refuses a slug folder that is a dangling link out of the registry, creating nothing at its target', async () => {
    mkdirSync(join(root, 'registry/agents'), { recursive: true });
    symlinkSync(join(outside, 'not-yet/text-stats'), join(root, 'registry/agents/text-stats'));
    const outcome = await publish();
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).not.toContain(outside);
    expect(filesBelow(outside)).toEqual({});
    expect(existsSync(join(outside, 'not-yet'))).toBe(false);
    expect(outcome.stderr).toContain('registry/agents/text-stats is a link that leads to nothing');
  });

  it('refuses a slug folder that is a file', async () => {
    mkdirSync(join(root, 'registry/agents'), { recursive: true });
    writeFileSync(join(root, 'registry/agents/text-stats'), 'not a folder\n');
    const outcome = await publish();
    expect(outcome.code).toBe(2);
    expect(readFileSync(join(root, 'registry/agents/text-stats'), 'utf8')).toBe('not a folder\n');
    expect(existsSync(join(root, 'registry/agents/index.json'))).toBe(false);
  });

  it('still publishes into a slug folder linked inside the registry', async () => {
    mkdirSync(join(root, 'registry/agents/.store/text-stats'), { recursive: true });
    symlinkSync(join(root, 'registry/agents/.store/text-stats'), join(root, 'registry/agents/text-stats'));
    const outcome = await publish();
    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(0);
    expect(Object.keys(filesBelow(join(root, 'registry/agents/.store/text-stats')))).toHaveLength(5);
  });
});

describe('concurrent publishes of one version', () => {
  it("the loser changes none of the winner's files: not the snapshot, not its card, credential or KYM registration", async () => {
    // The winner's publication of 1.0.0, with another endpoint (so other bytes), made elsewhere first.
    const winner = await publish({
      workerUrl: 'https://winner.example.workers.dev',
      registryRoot: join(root, 'winner'),
    });
    expect(winner.code).toBe(0);
    const won = filesBelow(join(root, 'winner'));
    // It lands in the registry right after the loser looked for the snapshot and found none.
    race.onSnapshotRead = () => cpSync(join(root, 'winner'), join(root, 'registry/agents'), { recursive: true });
    const loser = await publish();
    expect(loser.code).not.toBe(0);
    expect(loser.stderr).toContain('registry/agents/text-stats/1.0.0.json already exists');
    expect(filesBelow(join(root, 'registry/agents'))).toEqual(won);
    const verified = await captureRun(runRegistryCommand, ['verify'], root);
    expect(verified.stderr).toBe('');
    expect(verified.code).toBe(0);
  });
});

describe('an interrupted publication', () => {
  it('is completed by the next publish: missing exports are written, existing ones kept, the index recorded', async () => {
    expect((await publish()).code).toBe(0);
    const before = filesBelow(join(root, 'registry/agents'));
    rmSync(join(root, 'registry/agents/text-stats/1.0.0.card.json'));
    rmSync(join(root, 'registry/agents/text-stats/1.0.0.kym.json'));
    rmSync(join(root, 'registry/agents/index.json'));
    const again = await publish();
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    expect(filesBelow(join(root, 'registry/agents'))).toEqual(before);
    expect((await captureRun(runRegistryCommand, ['verify'], root)).code).toBe(0);
  });
});

describe('registry verify reads every export strictly', () => {
  it('a card, credential or KYM registration with a duplicated member (another value first) fails, naming the file', async () => {
    expect((await publish()).code).toBe(0);
    const folder = join(root, 'registry/agents/text-stats');
    const doubled: Record<string, string> = {
      '1.0.0.card.json': '"name": "Evil agent"',
      '1.0.0.kym.json': '"name": "Evil agent"',
      '1.0.0.agentfacts.vc.json': '"issuer": "did:web:evil.example"',
    };
    for (const [name, member] of Object.entries(doubled)) {
      const path = join(folder, name);
      const original = readFileSync(path, 'utf8');
      // JSON.parse keeps the last value (the signed one); a reader that keeps the first sees another agent.
      writeFileSync(path, original.replace(/^\{/, `{${member},`));
      const verified = await captureRun(runRegistryCommand, ['verify'], root);
      expect(verified.code, name).toBe(1);
      expect(verified.stderr, name).toContain(`registry/agents/text-stats/${name}: not strict JSON`);
      writeFileSync(path, original);
    }
    expect((await captureRun(runRegistryCommand, ['verify'], root)).code).toBe(0);
  });
});

describe('registry verify in a registry folder with hostile entries', () => {
  it('a dangling link or a FIFO named like a slug does not stop the check of every other version', async () => {
    expect((await publish()).code).toBe(0);
    symlinkSync(join(outside, 'gone'), join(root, 'registry/agents/ghost'));
    execFileSync('mkfifo', [join(root, 'registry/agents/fifo')]);
    const verified = await captureRun(runRegistryCommand, ['verify'], root);
    expect(verified.stderr).toBe('');
    expect(verified.stdout).toContain('1 of 1 published versions verified');
    expect(verified.code).toBe(0);
  });
});
