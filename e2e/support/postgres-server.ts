/**
 * A real PostgreSQL for tests, started in the test's own folder: `initdb` makes a cluster with a
 * password (SCRAM), `pg_ctl` starts it on 127.0.0.1 at a free port with its socket in that folder,
 * and the test gets a connection string for it. Never a mock: the stores under test talk to the
 * same server a deployment would. PostgreSQL refuses to run as root, so when the tests run as root
 * (CI containers) the cluster belongs to the `postgres` user and the commands run through `runuser`.
 *
 * - `database(name)` creates a fresh database and answers its connection string, so test files
 *   sharing one server never see each other's tables.
 * - `stop()` (fast shutdown), `start()`, `restart()`, and `kill()` (SIGKILL of the postmaster, then
 *   the crash recovery of the next `start()`) are the outages the stores are tested against.
 * - Durability settings stay PostgreSQL's defaults but `fsync` (off: the tests never lose power);
 *   `{ fsync: true }` keeps it on (the replicas bench measures both).
 *
 * The binaries are found on PATH, else in Debian's /usr/lib/postgresql/<version>/bin. With none,
 * `startPostgres` throws saying what to install: a test that needs PostgreSQL fails, never skips.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { HUNG_CHILD_MS } from './hung-child';
import { freePort } from './loopback-ports';

export interface PostgresServer {
  /** The connection string of the `postgres` database (user `agentdef`, with its password). */
  readonly url: string;
  readonly port: number;
  /** The superuser's password (tests look for it in outputs that must never carry it). */
  readonly password: string;
  /** With `tls`: the CA certificate that signed the server's (a client's `sslrootcert`). */
  readonly caFile?: string;
  /** A new, empty database; its connection string. */
  database(name: string): Promise<string>;
  /** Runs SQL through psql as the superuser, answering its output (`-At`). */
  psql(sql: string, database?: string): string;
  stop(): Promise<void>;
  start(): Promise<void>;
  restart(): Promise<void>;
  /** SIGKILL of the server (the next `start()` recovers from the crash). */
  kill(): Promise<void>;
}

const USER = 'agentdef';

/** Where PostgreSQL's server programs are. */
function binDir(): string {
  const onPath = spawnSync('sh', ['-c', 'command -v pg_ctl'], { encoding: 'utf8' }).stdout.trim();
  if (onPath !== '') return dirname(realpathSync(onPath)); // Debian links them from its own folder, psql beside them
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian).sort((a, b) => Number(b) - Number(a));
    for (const version of versions)
      if (existsSync(join(debian, version, 'bin', 'pg_ctl'))) return join(debian, version, 'bin');
  }
  throw new Error(
    'PostgreSQL server programs (initdb, pg_ctl) were not found: install PostgreSQL 15 or later (Debian: apt-get install postgresql) to run the PostgreSQL store tests',
  );
}

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

export interface PostgresServerOptions {
  /**
   * Serve TLS too, with a certificate for `127.0.0.1` signed by a CA made here (its certificate at
   * `caFile`, for a client's `sslrootcert`).
   */
  tls?: boolean;
  /** Keep `fsync` on (default off: the tests never lose power; the replicas bench measures both). */
  fsync?: boolean;
}

/** Starts a PostgreSQL cluster in `folder` (created when missing); stop it in the test's afterAll. */
export async function startPostgres(
  folder: string,
  serverOptions: PostgresServerOptions = {},
): Promise<PostgresServer> {
  const bin = binDir();
  mkdirSync(folder, { recursive: true });
  const data = join(folder, 'data');
  const socket = join(folder, 'socket');
  const log = join(folder, 'postgres.log');
  const password = `pw-${Math.random().toString(36).slice(2)}-${process.pid}`;
  mkdirSync(socket, { recursive: true });
  writeFileSync(join(folder, 'pwfile'), `${password}\n`, { mode: 0o600 });
  writeFileSync(log, '');
  if (asRoot) {
    // The postgres user must reach the folder (its parents are the test's temp folders).
    const { uid, gid } = postgresUser();
    for (const path of [folder, socket, join(folder, 'pwfile'), log]) chownSync(path, uid, gid);
    chmodSync(folder, 0o755);
    let parent = join(folder, '..');
    for (let i = 0; i < 3 && parent !== '/'; i++, parent = join(parent, '..')) {
      try {
        chmodSync(parent, readMode(parent) | 0o011); // traversable, not listable
      } catch {
        break;
      }
    }
  }
  const run = (program: string, args: string[]) => {
    const command = asRoot ? 'runuser' : join(bin, program);
    const argv = asRoot ? ['-u', 'postgres', '--', join(bin, program), ...args] : args;
    const result = spawnSync(command, argv, { encoding: 'utf8', timeout: HUNG_CHILD_MS, cwd: folder });
    if (result.status !== 0)
      throw new Error(`${program} failed (${result.status}): ${result.stderr}${result.stdout}\n${tail(log)}`);
    return result.stdout;
  };
  run('initdb', [
    '-D',
    data,
    '-U',
    USER,
    '--auth=scram-sha-256',
    `--pwfile=${join(folder, 'pwfile')}`,
    '--no-sync',
    '--no-instructions',
    '-E',
    'UTF8',
    '--locale=C',
  ]);
  const tlsSettings: string[] = [];
  if (serverOptions.tls) {
    const tls = join(folder, 'tls');
    mkdirSync(tls, { recursive: true });
    const openssl = (...args: string[]) =>
      execFileSync('openssl', args, { cwd: tls, stdio: 'pipe', timeout: HUNG_CHILD_MS });
    openssl(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'ca.key',
      '-out',
      'ca.crt',
      '-days',
      '2',
      '-subj',
      '/CN=agentdef test CA',
    );
    openssl(
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'server.key',
      '-out',
      'server.csr',
      '-subj',
      '/CN=127.0.0.1',
    );
    writeFileSync(join(tls, 'san.ext'), 'subjectAltName=IP:127.0.0.1\n');
    openssl(
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'server.crt',
      '-days',
      '2',
      '-extfile',
      'san.ext',
    );
    chmodSync(join(tls, 'server.key'), 0o600);
    if (asRoot) {
      const { uid, gid } = postgresUser();
      for (const file of ['', 'server.key', 'server.crt']) chownSync(join(tls, file), uid, gid);
    }
    tlsSettings.push(
      '-c ssl=on',
      `-c ssl_cert_file=${join(tls, 'server.crt')}`,
      `-c ssl_key_file=${join(tls, 'server.key')}`,
    );
  }
  const port = await freePort();
  const options = [
    ...tlsSettings,
    `-p ${port}`,
    `-k ${socket}`,
    "-c listen_addresses='127.0.0.1'",
    `-c fsync=${serverOptions.fsync === true ? 'on' : 'off'}`,
    '-c max_connections=200',
  ].join(' ');
  const start = async () => {
    run('pg_ctl', ['start', '-w', '-t', String(HUNG_CHILD_MS / 1000), '-D', data, '-l', log, '-o', options]);
  };
  const stop = async () => {
    run('pg_ctl', ['stop', '-w', '-t', String(HUNG_CHILD_MS / 1000), '-m', 'fast', '-D', data]);
  };
  await start();
  const url = (database: string) =>
    `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
  const psql = (sql: string, database = 'postgres') =>
    execFileSync(join(bin, 'psql'), ['-X', '-At', '-v', 'ON_ERROR_STOP=1', '-d', url(database), '-c', sql], {
      encoding: 'utf8',
      timeout: HUNG_CHILD_MS,
    });
  return {
    url: url('postgres'),
    port,
    password,
    ...(serverOptions.tls ? { caFile: join(folder, 'tls', 'ca.crt') } : {}),
    psql,
    async database(name) {
      if (!/^[a-z][a-z0-9_]{0,40}$/.test(name)) throw new Error(`not a plain database name: ${name}`);
      psql(`CREATE DATABASE "${name}"`);
      return url(name);
    },
    stop,
    start,
    async restart() {
      await stop();
      await start();
    },
    async kill() {
      const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
      process.kill(pid, 'SIGKILL');
      while (isAlive(pid)) await new Promise((resolve) => setTimeout(resolve, 20));
    },
  };
}

function postgresUser(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'));
  if (line === undefined)
    throw new Error(
      'the tests run as root and there is no postgres user to run PostgreSQL as: create one (useradd postgres)',
    );
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

function readMode(path: string): number {
  return Number.parseInt(execFileSync('stat', ['-c', '%a', path], { encoding: 'utf8' }).trim(), 8);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-20).join('\n');
  } catch {
    return '';
  }
}
