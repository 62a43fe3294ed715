/**
 * A2A tasks per second and latency with 1, 2 and 4 replicas of one agent (`npm run bench:replicas`,
 * issue 26): the tool-only example `text-stats` (instant answers, no model) compiled once for the
 * HB3 container (256 MB, so a replica runs 16 requests at once), its entrypoint started N times as
 * real processes on loopback, keeping tasks
 *   - in memory (each replica its own tasks: with 2 or 4 replicas this is the upper bound, not a
 *     correct deployment, since a GetTask on another replica answers task-not-found),
 *   - in one SQLite file shared by every replica (`AGENTDEF_TASK_STORE=<file>`, synchronous=FULL),
 *   - in PostgreSQL (`AGENTDEF_TASK_STORE=secret:TASK_STORE_URL`, a fresh database per run) started
 *     in a temp folder by e2e/support/postgres-server.ts with fsync off (its test setting)
 *     (`postgres`), and on a second server with fsync on (`postgres_fsync`).
 * Each run starts the replicas on a new store, warms up, sends M blocking `SendMessage` requests
 * (JSON-RPC over fetch) round-robin across the replicas with a fixed number in flight, and stops
 * them (SIGTERM). Rounds interleave the configurations; medians over rounds are printed as
 *   replicas.<store>.<n>.tasks_per_s      completed sends per second over the whole run
 *   replicas.<store>.<n>.p50_ms, p99_ms   latency of one send
 *   replicas.<store>.<n>.vs_memory_1      tasks/s against memory with one replica (the baseline)
 *   replicas.<store>.<n>.cpu_ms_per_task  CPU of the replicas, the PostgreSQL server and this client
 *   replicas.<store>.<n>.shared           outside the timing: does a GetTask on another replica
 *                                         find a task sent to the first one
 * `BENCH_QUICK=1` runs smaller counts and one round; `BENCH_ROUNDS`, `BENCH_CONCURRENCY` and
 * `BENCH_STORES=sqlite,postgres` (memory always runs) change the run. The client shares the
 * machine's cores with the replicas and the database. Reports, never asserts.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { compileAgent } from '../../plugin/compiler/compile';
import {
  REPO,
  isolatedEnv,
  receiptKeys,
  scratch,
  startHostProcess,
  type RunningHost,
  type Scratch,
} from '../local/support/host-harness';
import { startPostgres, type PostgresServer } from '../support/postgres-server';
import { exampleWorkspace, type ExampleWorkspace } from '../worker/support/example-workspace';
import { median, report } from './bench-support';

const QUICK = process.env['BENCH_QUICK'] === '1';
const M = QUICK ? 200 : 1000;
const WARMUP = QUICK ? 40 : 100;
const CLIENT_CONCURRENCY = Number(process.env['BENCH_CONCURRENCY'] ?? 16);
/** Each configuration runs this many times, interleaved; medians are reported. */
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? (QUICK ? 1 : 3));
const REPLICA_COUNTS = [1, 2, 4];
const ALL_STORES = ['memory', 'sqlite', 'postgres', 'postgres_fsync'] as const;
type Store = (typeof ALL_STORES)[number];
/** `BENCH_STORES=sqlite,postgres` runs only those (memory always runs: it is the baseline). */
const STORES = ALL_STORES.filter(
  (store) => store === 'memory' || (process.env['BENCH_STORES'] ?? store).split(',').includes(store),
);

interface RunResult {
  tasksPerS: number;
  p50: number;
  p99: number;
  failed: number;
}

let requestId = 0;

async function call(url: string, method: string, params: unknown) {
  const response = await fetch(`${url}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++requestId, method, params }),
  });
  return (await response.json()) as {
    result?: { id?: string; task?: { id: string; status?: { state?: string } }; status?: { state?: string } };
    error?: { code: number; message: string };
  };
}

/** The first answer of each kind that was not a completed task (printed once per run). */
const oddAnswers = new Map<string, string>();

/** One blocking send; the completed task's id, or undefined when it did not complete. */
async function send(url: string, index: number): Promise<string | undefined> {
  const sent = await call(url, 'SendMessage', {
    message: {
      messageId: `bench-${index}-${Math.random().toString(36).slice(2)}`,
      role: 'ROLE_USER',
      parts: [{ text: `Replica bench message ${index}. It has two sentences.` }],
    },
  });
  if (sent.result?.task?.status?.state === 'TASK_STATE_COMPLETED') return sent.result.task.id;
  const odd = JSON.stringify(sent).slice(0, 400);
  const kind = sent.error ? `error ${sent.error.code}` : `state ${sent.result?.task?.status?.state}`;
  if (!oddAnswers.has(kind)) oddAnswers.set(kind, odd);
  return undefined;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** `count` sends, request i to replica i mod N, `CLIENT_CONCURRENCY` in flight. */
async function drive(urls: string[], count: number, offset: number): Promise<RunResult> {
  const latencies: number[] = [];
  let failed = 0;
  let next = 0;
  const start = performance.now();
  const lane = async () => {
    for (let i = next++; i < count; i = next++) {
      const began = performance.now();
      const id = await send(urls[i % urls.length]!, offset + i).catch((error: unknown) => {
        if (!oddAnswers.has('fetch')) oddAnswers.set('fetch', String(error));
        return undefined;
      });
      latencies.push(performance.now() - began);
      if (id === undefined) failed++;
    }
  };
  await Promise.all(Array.from({ length: CLIENT_CONCURRENCY }, lane));
  const seconds = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    tasksPerS: (count - failed) / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    failed,
  };
}

async function compileTextStatsForHb3(ws: ExampleWorkspace, out: string): Promise<void> {
  ws.edit('text-stats', (d) => {
    d.runtimeRequirements.runtimeCapabilityClass = 'container-required';
    delete d.runtimeRequirements.limits.cpuMs; // a Worker's CPU-time limit means nothing in a container
    // 256 MB: a 192 MB heap runs 16 requests at once (64 MB runs 5, and 16 in flight would measure
    // the busy answers); 30 s of wall clock so a run queued behind the store's lock is not cut off.
    d.runtimeRequirements.limits.memoryMb = 256;
    d.runtimeRequirements.limits.wallClockMs = 30_000;
  });
  const result = await compileAgent({
    file: ws.definition('text-stats'),
    workspaceRoot: ws.root,
    target: 'hb3',
    outDir: out,
  });
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  if (result.ioError || errors.length > 0)
    throw new Error(`compile failed: ${result.ioError ?? JSON.stringify(errors)}`);
}

interface Bench {
  tmp: Scratch;
  entrypoint: string;
  receiptKey: string;
  servers: Partial<Record<'postgres' | 'postgres_fsync', PostgresServer>>;
  running: RunningHost[];
}

interface Measured extends RunResult {
  /** CPU milliseconds per completed task: the replicas, the PostgreSQL server, the bench client. */
  hostCpu: number;
  postgresCpu: number;
  clientCpu: number;
}

const TICK_MS = 10; // /proc times are in clock ticks (USER_HZ 100 on Linux)

/** User + system CPU milliseconds of a process (0 once it is gone). */
function cpuMsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS; // utime, stime (fields 14, 15)
  } catch {
    return 0;
  }
}

/** CPU milliseconds of a PostgreSQL server's processes (the postmaster's children: backends, writers). */
function postgresCpuMs(dataDir: string | undefined): number {
  if (dataDir === undefined) return 0;
  try {
    const postmaster = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const children = readFileSync(`/proc/${postmaster}/task/${postmaster}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
    return cpuMsOf(postmaster) + children.reduce((sum, pid) => sum + cpuMsOf(pid), 0);
  } catch {
    return 0;
  }
}

function dataDirOf(bench: Bench, store: Store): string | undefined {
  if (store === 'postgres') return bench.tmp.path('pg', 'data');
  if (store === 'postgres_fsync') return bench.tmp.path('pg-fsync', 'data');
  return undefined;
}

async function storeEnv(bench: Bench, store: Store, replicas: number, round: number): Promise<NodeJS.ProcessEnv> {
  if (store === 'memory') return {};
  if (store === 'sqlite') return { AGENTDEF_TASK_STORE: bench.tmp.path(`sqlite-${replicas}-${round}`, 'tasks.sqlite') };
  const url = await bench.servers[store]!.database(`bench_${replicas}_${round}`);
  return { AGENTDEF_TASK_STORE: 'secret:TASK_STORE_URL', TASK_STORE_URL: url };
}

/** One configuration, once: N replicas on a new store, warmed up, M sends timed, then stopped. */
async function runConfiguration(bench: Bench, store: Store, replicas: number, round: number): Promise<Measured> {
  const extra = await storeEnv(bench, store, replicas, round);
  const hosts = Array.from({ length: replicas }, (_, r) => {
    const name = `${store}-${replicas}-${round}-${r}`;
    return startHostProcess([bench.entrypoint], {
      cwd: REPO,
      env: isolatedEnv(bench.tmp.path(`home-${name}`), {
        HOST: '127.0.0.1',
        PORT: '0',
        AGENTDEF_JOB_MODE: 'serve',
        AGENTDEF_RECEIPT_KEY: bench.receiptKey,
        AGENTDEF_RECEIPTS_FILE: bench.tmp.path(`receipts-${name}.jsonl`),
        ...extra,
      }),
    });
  });
  bench.running.push(...hosts);
  const prefix = `replicas.${store}.${replicas}`;
  try {
    const urls = await Promise.all(hosts.map((host) => host.ready));
    await drive(urls, WARMUP, 0);
    const hostCpu = () => hosts.reduce((sum, host) => sum + cpuMsOf(host.proc.pid!), 0);
    const before = { host: hostCpu(), postgres: postgresCpuMs(dataDirOf(bench, store)), client: process.cpuUsage() };
    const result = await drive(urls, M, WARMUP);
    const client = process.cpuUsage(before.client);
    const completed = Math.max(1, M - result.failed);
    const measured: Measured = {
      ...result,
      hostCpu: (hostCpu() - before.host) / completed,
      postgresCpu: (postgresCpuMs(dataDirOf(bench, store)) - before.postgres) / completed,
      clientCpu: (client.user + client.system) / 1000 / completed,
    };
    const at = `${prefix}.round_${round}`;
    report(
      `${at}`,
      `${Math.round(result.tasksPerS)} tasks/s, p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, load ${loadavg()[0]!.toFixed(1)}`,
    );
    if (result.failed > 0) report(`${at}.failed_sends`, result.failed);
    for (const [kind, answer] of oddAnswers) report(`${at}.first_failure.${kind.replace(/ /g, '_')}`, answer);
    oddAnswers.clear();
    if (replicas > 1 && round === 0) {
      // Outside the timing: a task sent to the first replica, read on the second.
      const id = await send(urls[0]!, -1);
      const read = id === undefined ? undefined : await call(urls[1]!, 'GetTask', { id });
      const found = read?.result?.id === id && id !== undefined;
      report(
        `${prefix}.shared`,
        found ? 'yes (GetTask on another replica finds the task)' : 'no (task-not-found on another replica)',
      );
    }
    const server = store === 'postgres' || store === 'postgres_fsync' ? bench.servers[store] : undefined;
    if (server && round === 0) {
      // Every put inserts the task's row anew (identity `seq`): the puts per send, and the rows kept (at most 1000).
      const sends = WARMUP + M + (replicas > 1 ? 1 : 0);
      const [puts, kept] = server
        .psql('SELECT max(seq), count(*) FROM agentdef_tasks', `bench_${replicas}_${round}`)
        .trim()
        .split('|')
        .map(Number);
      report(`${prefix}.puts_per_send`, `${(puts! / sends).toFixed(2)} (${kept} tasks kept)`);
    }
    return measured;
  } finally {
    for (const host of hosts) await host.stop('SIGTERM');
    bench.running = bench.running.filter((host) => !hosts.includes(host));
  }
}

async function main(): Promise<void> {
  const tmp = scratch('replicas-bench');
  const ws = exampleWorkspace('replicas-bench');
  const bench: Bench = { tmp, entrypoint: '', receiptKey: '', servers: {}, running: [] };
  try {
    report('replicas.cores', availableParallelism());
    report('replicas.node', process.version);
    report('replicas.sends_per_run', M);
    report('replicas.warmup_sends', WARMUP);
    report('replicas.client_concurrency', CLIENT_CONCURRENCY);
    report('replicas.rounds', ROUNDS);
    report('replicas.load_at_start', loadavg()[0]!.toFixed(1));
    // Inside the example workspace (under the repository): on a Node without node:sqlite the host finds libsql above its entry.
    const out = join(ws.root, 'dist', 'hb3');
    await compileTextStatsForHb3(ws, out);
    bench.entrypoint = join(out, 'image', 'entrypoint.mjs');
    bench.receiptKey = (await receiptKeys()).secret;
    if (STORES.includes('postgres')) bench.servers.postgres = await startPostgres(tmp.path('pg'));
    if (STORES.includes('postgres_fsync'))
      bench.servers.postgres_fsync = await startPostgres(tmp.path('pg-fsync'), { fsync: true });
    for (const [name, server] of Object.entries(bench.servers)) {
      report(`replicas.${name}.server_version`, server.psql('SHOW server_version').trim());
      report(`replicas.${name}.fsync`, server.psql('SHOW fsync').trim());
    }
    report(
      'replicas.memory.note',
      'with 2 or 4 replicas each keeps its own tasks: the upper bound, not a correct deployment',
    );

    // Rounds interleave the configurations, so a change in the machine's load touches all of them.
    const rounds = new Map<string, Measured[]>();
    for (let round = 0; round < ROUNDS; round++)
      for (const store of STORES)
        for (const replicas of REPLICA_COUNTS) {
          const key = `${store}.${replicas}`;
          rounds.set(key, [...(rounds.get(key) ?? []), await runConfiguration(bench, store, replicas, round)]);
        }
    const mid = (values: number[]) => median(values);
    const baseline = mid(rounds.get('memory.1')!.map((r) => r.tasksPerS));
    for (const [key, runs] of rounds) {
      const prefix = `replicas.${key}`;
      const tasksPerS = mid(runs.map((r) => r.tasksPerS));
      report(`${prefix}.tasks_per_s`, Math.round(tasksPerS));
      report(`${prefix}.p50_ms`, mid(runs.map((r) => r.p50)).toFixed(1));
      report(`${prefix}.p99_ms`, mid(runs.map((r) => r.p99)).toFixed(1));
      report(`${prefix}.vs_memory_1`, `${(tasksPerS / baseline).toFixed(2)}×`);
      report(
        `${prefix}.cpu_ms_per_task`,
        `replicas ${mid(runs.map((r) => r.hostCpu)).toFixed(1)}, postgres ${mid(runs.map((r) => r.postgresCpu)).toFixed(1)}, bench client ${mid(runs.map((r) => r.clientCpu)).toFixed(1)}`,
      );
      const failed = runs.reduce((sum, r) => sum + r.failed, 0);
      if (failed > 0) report(`${prefix}.failed_sends`, failed);
    }
    report('replicas.load_at_end', loadavg()[0]!.toFixed(1));
  } finally {
    for (const host of bench.running) await host.stop('SIGKILL');
    for (const server of Object.values(bench.servers)) await server.stop().catch(() => undefined);
    ws.remove();
    tmp.cleanup();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
