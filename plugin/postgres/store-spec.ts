/**
 * What the value of a durable store option names (`AGENTDEF_TASK_STORE`, `--task-store`,
 * `agentdef mcp --ledger`): a file (the embedded SQLite store), a PostgreSQL connection string
 * (`postgres://…`, `postgresql://…`), or `secret:NAME`, a secret holding the connection string,
 * read where the host reads every secret (on this machine the keychain, or `AGENTDEF_SECRET_NAME`;
 * in a container the variable `NAME`, from the platform's secrets), so it never sits in a command
 * line, a unit file or a manifest.
 * A connection string is a secret either way: `storeLabel` is what messages and logs say instead.
 */
import { isPostgresUrl } from './postgres-database';

export type StoreSpec =
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'postgres'; readonly url: string }
  | { readonly kind: 'secret'; readonly name: string };

/** A secret's name: what the keychain and `AGENTDEF_SECRET_<NAME>` are keyed by. */
const SECRET_NAME = /^[A-Z][A-Z0-9_]{0,127}$/;
export const SECRET_SPEC_PREFIX = 'secret:';

/** What `value` names, or why it names nothing usable (the message never quotes the value). */
export function readStoreSpec(value: string): StoreSpec | { kind: 'invalid'; message: string } {
  if (isPostgresUrl(value)) return { kind: 'postgres', url: value };
  if (value.startsWith(SECRET_SPEC_PREFIX)) {
    const name = value.slice(SECRET_SPEC_PREFIX.length);
    return SECRET_NAME.test(name)
      ? { kind: 'secret', name }
      : {
          kind: 'invalid',
          message: `secret:<NAME> names a secret in capitals, digits and underscores (secret:TASK_STORE_URL)`,
        };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value))
    return {
      kind: 'invalid',
      message: 'only postgres:// and postgresql:// connection strings name a database (or give a file path for SQLite)',
    };
  return { kind: 'file', path: value };
}

/** How messages name a store: a file by its path, a database never by its connection string. */
export function storeLabel(spec: StoreSpec): string {
  if (spec.kind === 'file') return `SQLite ${spec.path}`;
  if (spec.kind === 'secret') return `PostgreSQL (the connection string in secret ${spec.name})`;
  return 'PostgreSQL';
}

/**
 * The connection string a spec names, reading a `secret:` one through `readSecret`; or why not.
 * A secret that is not a postgres:// connection string is refused without quoting it.
 */
export async function connectionStringOf(
  spec: Exclude<StoreSpec, { kind: 'file' }>,
  readSecret: (name: string) => Promise<string | undefined>,
  howToProvide: (name: string) => string,
): Promise<{ ok: true; url: string } | { ok: false; message: string }> {
  if (spec.kind === 'postgres') return { ok: true, url: spec.url };
  let value: string | undefined;
  try {
    value = (await readSecret(spec.name))?.trim();
  } catch {
    value = undefined;
  }
  if (value === undefined || value === '')
    return { ok: false, message: `the secret ${spec.name} is not set: ${howToProvide(spec.name)}` };
  if (!isPostgresUrl(value))
    return {
      ok: false,
      message: `the secret ${spec.name} does not hold a postgres:// or postgresql:// connection string`,
    };
  return { ok: true, url: value };
}

/**
 * The `host:port` a connection string connects to (the host's network guard lets the store's own
 * sockets reach exactly it), or why it cannot be used by a guarded host (a unix socket). Never
 * quotes the connection string.
 */
export function postgresEndpoint(url: string): { endpoint: string } | { problem: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { problem: 'the connection string is not a valid URL' };
  }
  const queried = parsed.searchParams.get('host');
  const host = queried ?? (decodeURIComponent(parsed.hostname.replace(/^\[|\]$/g, '')) || 'localhost');
  if (host.startsWith('/') || host.includes(','))
    return {
      problem:
        'an agentdef host connects to its task store over TCP to one server: give its host and port in the connection string (no unix socket, no list of hosts)',
    };
  const port = parsed.searchParams.get('port') ?? (parsed.port || '5432');
  if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535)
    return { problem: 'the connection string names a port that is not 1 to 65535' };
  return { endpoint: `${host}:${Number(port)}` };
}
