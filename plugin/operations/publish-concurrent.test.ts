/**
 * Concurrent `agentdef publish` runs into one registry, as real processes: each holds the
 * registry's lock (registry/registry-lock.ts) from reading index.json to writing it back, so none
 * drops another's entry. A preload in each child makes the race certain instead of likely: just
 * before renaming its new index over index.json, a child waits until every other child has either
 * reached that point too (which, without a lock, means all of them read the old index) or been
 * turned away by the lock. A stale lock (its process is gone) is broken; a live one, or a file
 * agentdef did not write, makes publish wait and then fail cleanly, having written nothing.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REGISTRY_LOCK_FILE } from '../registry/registry-layout';
import { generateKey } from '../hosts/node/key-store';
import { publishDefinition } from './publish';
import { runRegistryCommand } from '../cli/commands/registry';
import { captureRun, gitAt } from '../cli/commands/test-support';

const COMMIT_TIME = '2026-03-04T05:06:07Z';
const WORKER_URL = 'https://text-stats.example.workers.dev';
const repoRoot = join(__dirname, '..', '..');
const SLUGS = ['text-stats-a', 'text-stats-b', 'text-stats-c', 'text-stats-d'];

/** Preloaded into each child: the barrier before the index rename described above. */
const BARRIER = `'use strict';
const fs = require('node:fs');
const path = require('node:path');
const dir = process.env.AGENTDEF_TEST_BARRIER;
const count = Number(process.env.AGENTDEF_TEST_BARRIER_COUNT);
const mark = (kind) => fs.writeFileSync(path.join(dir, kind + '-' + process.pid), '');
const others = () => new Set(fs.readdirSync(dir).map((n) => n.split('-')[1]).filter((pid) => pid !== String(process.pid))).size;
const rename = fs.renameSync;
fs.renameSync = function (from, to) {
  if (path.basename(String(to)) === 'index.json') {
    mark('arrived');
    const pause = new Int32Array(new SharedArrayBuffer(4));
    // Bounded only so that a broken run cannot leave processes behind; the test never relies on it.
    const giveUp = Date.now() + 90000;
    while (others() < count - 1 && Date.now() < giveUp) Atomics.wait(pause, 0, 0, 10);
  }
  return rename.apply(this, arguments);
};
const link = fs.linkSync;
fs.linkSync = function (from, to) {
  try {
    return link.apply(this, arguments);
  } catch (error) {
    if (error && error.code === 'EEXIST' && path.basename(String(to)) === '${REGISTRY_LOCK_FILE}') mark('waiting');
    throw error;
  }
};
`;

let root: string;
let keyStore: { env: NodeJS.ProcessEnv; keychain: 'off' };

function git(...args: string[]): string {
  return gitAt(root, COMMIT_TIME, ...args);
}

/** A copy of the text-stats example as agent `slug`, with its own identity.id and versionId. */
function addAgent(slug: string, n: number): string {
  const d = JSON.parse(readFileSync(join(repoRoot, 'examples/text-stats/agent.json'), 'utf8'));
  d.identity.slug = slug;
  d.identity.id = `01KQB8J5284X2B3T395NAM3B${'ABCDEFGH'[n]}${'ABCDEFGH'[n]}`;
  d.identity.versionId = `01KQXTGGAHPQXPXEVVWRWT04${'ABCDEFGH'[n]}${'ABCDEFGH'[n]}`;
  const file = `agents/${slug}/agent.json`;
  mkdirSync(join(root, 'agents', slug), { recursive: true });
  writeFileSync(join(root, file), `${JSON.stringify(d, null, 2)}\n`);
  return file;
}

/** Runs `agentdef <args>` as its own process, with the barrier preloaded. */
function agentdef(
  args: string[],
  barrier: { dir: string; count: number },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['-r', join(root, '.barrier.cjs'), join(repoRoot, 'bin', 'agentdef.cjs'), ...args],
      {
        cwd: root,
        env: {
          ...process.env,
          ...keyStore.env,
          HOME: root,
          AGENTDEF_TEST_BARRIER: barrier.dir,
          AGENTDEF_TEST_BARRIER_COUNT: String(barrier.count),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const files: string[] = [];

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'agentdef-publish-concurrent-'));
  writeFileSync(join(root, 'nx.json'), '{}\n');
  files.length = 0;
  SLUGS.forEach((slug, n) => files.push(addAgent(slug, n)));
  keyStore = { env: { AGENTDEF_KEYS_DIR: join(root, '.keys'), AGENTDEF_KEYCHAIN: 'off' }, keychain: 'off' };
  expect((await generateKey('keyref:acme-receipts', keyStore)).ok).toBe(true);
  writeFileSync(join(root, '.gitignore'), '.keys/\n.barrier/\n.barrier.cjs\n');
  writeFileSync(join(root, '.barrier.cjs'), BARRIER);
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'first');
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const publishInProcess = (file: string, extra: Partial<Parameters<typeof publishDefinition>[0]> = {}) =>
  publishDefinition({ file: join(root, file), workspaceRoot: root, workerUrl: WORKER_URL, keyStore, ...extra });

/** A pid that provably no longer runs: a process that has exited (and been reaped). */
function deadPid(): number {
  const run = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(run.stdout);
}

/** An agentdef lock as another publish writes it. */
function lockText(pid: number, startedAt: number): string {
  return `${JSON.stringify({ lock: 'agentdef-registry-lock/v1', pid, startedAt, host: createHash('sha256').update(hostname()).digest('hex').slice(0, 32), token: 'f'.repeat(32) })}\n`;
}

describe('concurrent agentdef publish into one registry', () => {
  it('records every entry when several processes publish different agents at once; registry verify passes', async () => {
    const barrier = join(root, '.barrier');
    mkdirSync(barrier);
    const runs = await Promise.all(
      files.map((file) =>
        agentdef(['publish', file, '--worker-url', WORKER_URL], { dir: barrier, count: files.length }),
      ),
    );
    for (const run of runs) {
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
    }
    const index = JSON.parse(readFileSync(join(root, 'registry/agents/index.json'), 'utf8'));
    expect(index.snapshots.map((e: { slug: string; version: string }) => `${e.slug}@${e.version}`)).toEqual(
      SLUGS.map((slug) => `${slug}@1.0.0`),
    );
    expect(existsSync(join(root, 'registry/agents', REGISTRY_LOCK_FILE))).toBe(false);
    const verified = await captureRun(runRegistryCommand, ['verify'], root);
    expect(verified.stderr).toBe('');
    expect(verified.stdout).toContain(`${SLUGS.length} of ${SLUGS.length} published versions verified`);
    expect(verified.code).toBe(0);
  });

  it('breaks a stale lock (its process is gone) and publishes', async () => {
    mkdirSync(join(root, 'registry/agents'), { recursive: true });
    writeFileSync(join(root, 'registry/agents', REGISTRY_LOCK_FILE), lockText(deadPid(), Date.now()));
    const run = await publishInProcess(files[0]!, { lockWaitMs: 60_000 });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(existsSync(join(root, 'registry/agents', REGISTRY_LOCK_FILE))).toBe(false);
    expect(JSON.parse(readFileSync(join(root, 'registry/agents/index.json'), 'utf8')).snapshots).toHaveLength(1);
  });

  it('breaks a lock older than the staleness bound even when its pid is alive', async () => {
    mkdirSync(join(root, 'registry/agents'), { recursive: true });
    writeFileSync(
      join(root, 'registry/agents', REGISTRY_LOCK_FILE),
      lockText(process.pid, Date.now() - 24 * 60 * 60 * 1000),
    );
    const run = await publishInProcess(files[0]!, { lockWaitMs: 60_000 });
    expect(run.code).toBe(0);
    expect(existsSync(join(root, 'registry/agents', REGISTRY_LOCK_FILE))).toBe(false);
  });

  it('waits for a live lock, then fails with exit 2, leaving the lock and the registry as they were', async () => {
    const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      const lock = join(root, 'registry/agents', REGISTRY_LOCK_FILE);
      mkdirSync(join(root, 'registry/agents'), { recursive: true });
      const text = lockText(holder.pid!, Date.now());
      writeFileSync(lock, text);
      const run = await publishInProcess(files[0]!, { lockWaitMs: 200 });
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(
        `error: another publish holds registry/agents/${REGISTRY_LOCK_FILE} and did not finish in time; nothing was written: run publish again when it is done\n`,
      );
      expect(readdirSync(join(root, 'registry/agents'))).toEqual([REGISTRY_LOCK_FILE]);
      expect(readFileSync(lock, 'utf8')).toBe(text);
    } finally {
      holder.kill();
    }
  });

  it('never removes a lock file agentdef did not write, nor a link named like the lock; fails cleanly', async () => {
    const folder = join(root, 'registry/agents');
    mkdirSync(folder, { recursive: true });
    const lock = join(folder, REGISTRY_LOCK_FILE);
    writeFileSync(lock, 'mine\n');
    const foreign = await publishInProcess(files[0]!, { lockWaitMs: 50 });
    expect(foreign.code).toBe(2);
    expect(foreign.stderr).toContain(`registry/agents/${REGISTRY_LOCK_FILE} exists but agentdef did not create it`);
    expect(readFileSync(lock, 'utf8')).toBe('mine\n');
    expect(readdirSync(folder)).toEqual([REGISTRY_LOCK_FILE]);

    // A link to what would be a stale agentdef lock: a link is never an agentdef lock, and never followed.
    rmSync(lock);
    const target = lockText(deadPid(), 0);
    writeFileSync(join(root, 'target'), target);
    symlinkSync(join(root, 'target'), lock);
    const linked = await publishInProcess(files[0]!, { lockWaitMs: 50 });
    expect(linked.code).toBe(2);
    expect(linked.stderr).toContain('agentdef did not create it');
    expect(readdirSync(folder)).toEqual([REGISTRY_LOCK_FILE]);
    expect(readFileSync(lock, 'utf8')).toBe(target);
  });

  it('a publish refused while holding the lock of a registry folder it created leaves no folder behind', async () => {
    const refused = await publishInProcess(files[0]!, {
      registryRoot: 'reg/a/b',
      workerUrl: 'ftp://text-stats.example',
    });
    expect(refused.stderr).toContain('--worker-url');
    expect(refused.code).toBe(1);
    expect(existsSync(join(root, 'reg'))).toBe(false);
  });
});
