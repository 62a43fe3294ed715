/**
 * The durable stores' speed (`npm run bench:sqlite`): the SQLite execution ledger and the Node hosts'
 * SQLite task store, through their public openers only, so the same file measures any driver
 * (docs/decisions/0004-sqlite-without-a-compiler.md compares them). Prints `name: value` lines:
 *   sqlite.driver                          which driver ran (`AGENTDEF_BENCH_SQLITE_DRIVER` picks one)
 *   sqlite.ledger.open_ms                  first open of a new ledger file in this process (loads the driver)
 *   sqlite.ledger.execute_per_s            claim, mark dispatched, finish: one live execute, three commits
 *   sqlite.ledger.replay_per_s             a repeated key answered from the ledger (one commit)
 *   sqlite.ledger.contended_claims_per_s   4 processes claiming distinct keys of one file at once
 *   sqlite.task_store.put_per_s            a task's working then completed version (two commits)
 *   sqlite.task_store.get_per_s            reading a task back
 * Every commit is `synchronous = FULL` (an fsync): the numbers measure the disk as much as the driver.
 * `BENCH_QUICK=1` runs smaller counts. Reports, never asserts.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ExecutionLedger } from '../../plugin/application/execution-ledger';
import { openSqliteExecutionLedger } from '../../plugin/application/sqlite-ledger';
import { openSqliteTaskStore } from '../../plugin/hosts/node/sqlite-task-store';
import type { TaskView } from '../../plugin/runtime/a2a-wire';
import { median, report } from './bench-support';

const QUICK = process.env['BENCH_QUICK'] === '1';
const N = QUICK ? 100 : 400;
const WORKERS = 4;
const PLAN = '0'.repeat(64);
const driverOption = (): Record<string, string> =>
  process.env['AGENTDEF_BENCH_SQLITE_DRIVER'] ? { driver: process.env['AGENTDEF_BENCH_SQLITE_DRIVER'] } : {};

function openLedger(file: string): ExecutionLedger {
  const opened = openSqliteExecutionLedger({ file, maxEntries: 1_000_000, ...driverOption() });
  if (!opened.ok) throw new Error(opened.message);
  return opened.ledger;
}

async function execute(ledger: ExecutionLedger, key: string): Promise<void> {
  const claim = await ledger.claim(key, { planDigest: PLAN, mode: 'live' });
  if (claim.kind !== 'claimed') throw new Error(`${key}: ${JSON.stringify(claim)}`);
  const marked = await ledger.markDispatched(key, claim.claim);
  if (!marked.ok) throw new Error(`${key}: ${marked.reason}`);
  const done = await ledger.finish(key, claim.claim, { status: 'succeeded', result: { key } });
  if (!done.ok) throw new Error(`${key}: ${done.reason}`);
}

/** A worker of the contention run: claims and finishes `count` keys of its own, prints its time. */
async function worker(file: string, prefix: string, count: number): Promise<void> {
  const ledger = openLedger(file);
  process.stdout.write('ready\n');
  await new Promise((resolve) => process.stdin.once('data', resolve));
  const start = performance.now();
  for (let i = 0; i < count; i++) await execute(ledger, `${prefix}-${i}`);
  process.stdout.write(`${performance.now() - start}\n`);
  await ledger.close();
}

async function contention(dir: string): Promise<number> {
  const file = join(dir, 'contended.sqlite');
  await openLedger(file).close();
  const count = Math.max(10, Math.floor(N / 4));
  const children = Array.from({ length: WORKERS }, (_, w) =>
    spawn(process.execPath, ['-r', '@swc-node/register', __filename, 'worker', file, `w${w}`, String(count)], {
      stdio: ['pipe', 'pipe', 'inherit'],
    }),
  );
  const exits = children.map((child) => new Promise((resolve) => child.on('exit', resolve)));
  const lines = children.map((child) => {
    const got: string[] = [];
    const waiting: ((line: string) => void)[] = [];
    let buffer = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk;
      for (let at = buffer.indexOf('\n'); at !== -1; at = buffer.indexOf('\n')) {
        const line = buffer.slice(0, at);
        buffer = buffer.slice(at + 1);
        const next = waiting.shift();
        if (next) next(line);
        else got.push(line);
      }
    });
    return () =>
      got.length > 0 ? Promise.resolve(got.shift()!) : new Promise<string>((resolve) => waiting.push(resolve));
  });
  for (const next of lines) if ((await next()) !== 'ready') throw new Error('a worker did not start');
  const start = performance.now();
  for (const child of children) child.stdin.end('go\n');
  await Promise.all(lines.map((next) => next()));
  const elapsed = performance.now() - start;
  await Promise.all(exits);
  return (WORKERS * count) / (elapsed / 1000);
}

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  if (command === 'worker') return worker(rest[0]!, rest[1]!, Number(rest[2]));
  const dir = mkdtempSync(join(tmpdir(), 'agentdef-sqlite-bench-'));
  try {
    const openStart = performance.now();
    const ledger = openLedger(join(dir, 'ledger.sqlite'));
    report('sqlite.ledger.open_ms', performance.now() - openStart);
    const probe = openSqliteTaskStore(
      join(dir, 'probe', 'tasks.sqlite'),
      { maxTasks: 10, maxBytes: 1 << 20 },
      driverOption(),
    );
    report('sqlite.driver', process.env['AGENTDEF_BENCH_SQLITE_DRIVER'] ?? (probe.ok ? 'default' : probe.message));
    if (probe.ok) probe.store.close();

    const rounds: number[] = [];
    for (let round = 0; round < 3; round++) {
      const start = performance.now();
      for (let i = 0; i < N; i++) await execute(ledger, `r${round}-${i}`);
      rounds.push(N / ((performance.now() - start) / 1000));
    }
    report('sqlite.ledger.execute_per_s', median(rounds));

    const replayStart = performance.now();
    for (let i = 0; i < N; i++) {
      const again = await ledger.claim(`r0-${i}`, { planDigest: PLAN, mode: 'live' });
      if (again.kind !== 'replay') throw new Error(`r0-${i}: ${again.kind}`);
    }
    report('sqlite.ledger.replay_per_s', N / ((performance.now() - replayStart) / 1000));
    await ledger.close();

    report('sqlite.ledger.contended_claims_per_s', await contention(dir));

    const opened = openSqliteTaskStore(
      join(dir, 'tasks', 'tasks.sqlite'),
      { maxTasks: 100_000, maxBytes: 1 << 30 },
      driverOption(),
    );
    if (!opened.ok) throw new Error(opened.message);
    const store = opened.store;
    const task = (id: string, state: 'working' | 'completed'): TaskView => ({
      id,
      contextId: 'ctx',
      state,
      timestamp: '2026-01-01T00:00:00.000Z',
      metadata: {},
      ...(state === 'completed' ? { replyText: `done: ${id}` } : {}),
    });
    const putStart = performance.now();
    for (let i = 0; i < N; i++) {
      if (!(await store.put(task(`t-${i}`, 'working')))) throw new Error('put refused');
      if (!(await store.put(task(`t-${i}`, 'completed')))) throw new Error('put refused');
    }
    report('sqlite.task_store.put_per_s', N / ((performance.now() - putStart) / 1000));
    const getStart = performance.now();
    for (let round = 0; round < 10; round++) {
      for (let i = 0; i < N; i++) if ((await store.get(`t-${i}`)) === undefined) throw new Error('lost task');
    }
    report('sqlite.task_store.get_per_s', (10 * N) / ((performance.now() - getStart) / 1000));
    store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
