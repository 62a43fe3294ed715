/**
 * How the command line (`agentdef application …`, `agentdef mcp`) sets up the application host
 * from its flags: the workspace, the reference local gateway over an approved-artifacts folder,
 * and the execution ledger (in memory, durable in SQLite, or shared in PostgreSQL). One function, so every shell
 * embeds the host the same way.
 *
 * `--artifacts <dir>` (workspace-relative, default `approved-artifacts`): when the folder has an
 * `approvals.json`, the reference gateway owner serves it; otherwise no gateway is injected and
 * approved-artifact nodes do not plan (their diagnostic says which flag to pass).
 * `--ledger <file>`: the SQLite ledger file (relative to the working directory; its folder is
 * created when missing); `--ledger postgres://…` (or `postgresql://…`): the ledger in that
 * PostgreSQL database, shared by every host given it; `--ledger secret:NAME`: the same, with the
 * connection string read from the keychain or `AGENTDEF_SECRET_NAME` (plugin/postgres/store-spec.ts).
 * A connection string is a secret: no message quotes it.
 * `--host <module>`: an embedding host module (an ES module inside the workspace, written by the
 * workspace's owner, never reachable over MCP) whose default export is
 * `{ packs, adapters, ownerResolvers }`: the component packs it admits with their private
 * adapters and owner resolvers, checked by `createApplicationComponentPackRegistry` at start-up.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  type ComponentPackRegistry,
  createApplicationComponentPackRegistry,
} from '../application/component-pack-registry';
import { type ApplicationHostOpening, createApplicationHost } from '../application/application-host';
import type { ExecutionLedger } from '../application/execution-ledger';
import { APPROVALS_FILE, createLocalGatewayOwner } from '../application/local-gateway-owner';
import { openPostgresExecutionLedger } from '../application/postgres-ledger';
import { openSqliteExecutionLedger } from '../application/sqlite-ledger';
import { connectionStringOf, readStoreSpec } from '../postgres/store-spec';
import { createSecretSource, howToProvideSecret } from '../hosts/node/secret-source';
import type { GatewayOwner } from '../application/gateway-owner';

export const DEFAULT_ARTIFACTS_FOLDER = 'approved-artifacts';

export interface ApplicationHostFlags {
  readonly workspaceRoot: string;
  readonly cwd: string;
  readonly artifacts?: string | undefined;
  readonly ledger?: string | undefined;
  readonly host?: string | undefined;
}

/**
 * Node's own `import()`. From a source checkout the CLI is compiled to CommonJS on the fly, where a
 * written `import()` becomes `require()`, which cannot load an ES module on Node 20; so Node's is
 * reached through a function body. Where that has no module loader (a VM context, as in the test
 * runner), the written `import()` is the real one.
 */
const nodeImport = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<unknown>;
async function importModule(specifier: string): Promise<unknown> {
  try {
    return await nodeImport(specifier);
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING') throw error;
    return import(specifier);
  }
}

/** Loads an embedding host module and admits its packs; a message when it cannot. */
export async function loadHostModule(
  workspaceRoot: string,
  cwd: string,
  module: string,
): Promise<{ ok: true; packs: ComponentPackRegistry } | { ok: false; message: string }> {
  const file = resolve(cwd, module);
  const inside = relative(workspaceRoot, file);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside))
    return { ok: false, message: `--host: ${module} is not inside the workspace` };
  if (!/\.(mjs|js)$/.test(file) || !existsSync(file))
    return { ok: false, message: `--host: ${module} is not an existing .mjs or .js module` };
  let loaded: { default?: unknown };
  try {
    loaded = (await importModule(pathToFileURL(file).href)) as { default?: unknown };
  } catch (error) {
    return { ok: false, message: `--host: ${module} could not be loaded (${(error as Error).message.split('\n')[0]})` };
  }
  const bindings = loaded.default as { packs?: unknown; adapters?: unknown; ownerResolvers?: unknown } | undefined;
  if (bindings === null || typeof bindings !== 'object')
    return { ok: false, message: `--host: ${module} must default-export { packs, adapters, ownerResolvers }` };
  const admitted = createApplicationComponentPackRegistry({
    packs: bindings.packs as unknown[],
    adapters: bindings.adapters as never,
    ownerResolvers: bindings.ownerResolvers as never,
  });
  if (!admitted.ok)
    return {
      ok: false,
      message: `--host: ${module} was not admitted:\n${admitted.findings.map((f) => `  ${f.path || '/'}: ${f.message}`).join('\n')}`,
    };
  return { ok: true, packs: admitted.registry };
}

/** Where `--ledger` says the execution ledger is: a SQLite file, or a PostgreSQL database. */
export async function openLedgerFlag(
  cwd: string,
  value: string,
): Promise<{ ok: true; ledger: ExecutionLedger } | { ok: false; message: string }> {
  const spec = readStoreSpec(value);
  if (spec.kind === 'invalid') return { ok: false, message: `--ledger: ${spec.message}` };
  if (spec.kind !== 'file') {
    const secrets = createSecretSource();
    const url = await connectionStringOf(
      spec,
      (name) => secrets.get(name),
      (name) => howToProvideSecret(name),
    );
    if (!url.ok) return { ok: false, message: `--ledger: ${url.message}` };
    const opened = await openPostgresExecutionLedger({ url: url.url });
    return opened.ok ? opened : { ok: false, message: `--ledger: ${opened.message}` };
  }
  const file = resolve(cwd, spec.path);
  // The ledger's folder is created when missing (SQLite would only say it cannot open the file).
  try {
    mkdirSync(dirname(file), { recursive: true });
  } catch (error) {
    return {
      ok: false,
      message: `--ledger: cannot create the folder of ${value} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    };
  }
  const opened = openSqliteExecutionLedger({ file });
  return opened.ok ? opened : { ok: false, message: `--ledger: ${opened.message}` };
}

/** What `agentdef mcp` says its ledger is (never the connection string). */
export function ledgerLabel(value: string | undefined): string {
  if (value === undefined) return 'in memory';
  return readStoreSpec(value).kind === 'file' ? 'SQLite' : 'PostgreSQL';
}

export async function openApplicationHost(flags: ApplicationHostFlags): Promise<ApplicationHostOpening> {
  let gateway: GatewayOwner | undefined;
  const folder = flags.artifacts ?? DEFAULT_ARTIFACTS_FOLDER;
  if (flags.artifacts !== undefined || existsSync(join(flags.workspaceRoot, folder, APPROVALS_FILE))) {
    const opened = createLocalGatewayOwner({ workspaceRoot: flags.workspaceRoot, folder });
    if (!opened.ok) return { ok: false, message: `--artifacts: ${opened.message}` };
    gateway = opened.gateway;
  }
  let packs: ComponentPackRegistry | undefined;
  if (flags.host !== undefined) {
    const loaded = await loadHostModule(flags.workspaceRoot, flags.cwd, flags.host);
    if (!loaded.ok) return loaded;
    packs = loaded.packs;
  }
  // The ledger opens last: a shared one holds connections, closed again if the host does not start.
  let ledger: ExecutionLedger | undefined;
  if (flags.ledger !== undefined) {
    const opened = await openLedgerFlag(flags.cwd, flags.ledger);
    if (!opened.ok) return opened;
    ledger = opened.ledger;
  }
  const host = await createApplicationHost({
    workspaceRoot: flags.workspaceRoot,
    ...(gateway ? { gateway } : {}),
    ...(ledger ? { ledger } : {}),
    ...(packs ? { packs } : {}),
  });
  if (!host.ok) await ledger?.close();
  return host;
}
