/**
 * The application check operation, behind `agentdef application check <file> [--artifacts dir]
 * [--inputs file]` and the `agentdef:application-check` executor: the seed's "Local
 * verification" for one application, offline (plugin/application/local-verification.ts), plus
 * the stdio check: it starts `agentdef mcp` as a child process, discovers the three tools with
 * the official MCP client and plans the manifest through them, expecting the same plan digest
 * as in process. Exit 0 when every check passed, 1 otherwise. Entry values for the dry-run come
 * from `--inputs`, else `inputs.json` beside the manifest when there is one (application-inputs.ts,
 * shared with `execute`).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { createLocalGatewayOwner } from '../application/local-gateway-owner';
import { runLocalVerification, type VerificationCheck } from '../application/local-verification';
import { formatDiagnostics } from '../definition/format-diagnostics';
import { findWorkspaceRoot } from '../definition/workspace-definitions';
import type { ComponentPackRegistry } from '../application/component-pack-registry';
import { readEntrypointInputs } from './application-inputs';
import { isUsageProblem } from './exit-code';
import { EXIT, type OperationIo, type OperationResult } from './io';
import { DEFAULT_ARTIFACTS_FOLDER, loadHostModule, openApplicationHost } from './open-application-host';

const BIN = join(__dirname, '..', '..', 'bin', 'agentdef.cjs');

export interface ApplicationCheckOptions {
  /** The manifest file, relative to the working folder. */
  manifest: string;
  /** The approved-artifacts folder, workspace-relative. */
  artifacts?: string | undefined;
  /** An embedding host module, relative to the working folder. */
  host?: string | undefined;
  /** The dry-run's entrypoint values, a JSON file relative to the working folder (default `inputs.json` beside the manifest). */
  inputs?: string | undefined;
}

/** Discovers the tools over stdio and plans the manifest through them. */
async function stdioCheck(
  workspaceRoot: string,
  manifestPath: string,
  flags: { artifacts?: string | undefined; host?: string | undefined },
  expectedDigest: string | undefined,
): Promise<VerificationCheck> {
  const name = 'stdio-discovery-and-calls';
  const { Client } =
    require('@modelcontextprotocol/sdk/client/index.js') as typeof import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } =
    require('@modelcontextprotocol/sdk/client/stdio.js') as typeof import('@modelcontextprotocol/sdk/client/stdio.js');
  const scratch = mkdtempSync(join(tmpdir(), 'agentdef-check-'));
  const client = new Client({ name: 'agentdef-check', version: '1.0.0' });
  try {
    const args = [
      BIN,
      'mcp',
      '--workspace',
      workspaceRoot,
      ...(flags.artifacts !== undefined ? ['--artifacts', flags.artifacts] : []),
      ...(flags.host !== undefined ? ['--host', flags.host] : []),
    ];
    const env: Record<string, string> = { PATH: process.env.PATH ?? '', XDG_CACHE_HOME: scratch, HOME: scratch };
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args, env, cwd: workspaceRoot, stderr: 'ignore' }),
    );
    const tools = (await client.listTools()).tools.map((t) => t.name).sort();
    if (tools.join(',') !== 'agentdef.application.catalog,agentdef.application.execute,agentdef.application.plan')
      return { name, ok: false, detail: `the server lists ${tools.join(', ')}` };
    const result = (await client.callTool({
      name: 'agentdef.application.plan',
      arguments: { manifestPath, mode: 'dry-run' },
    })) as { structuredContent?: { ok?: boolean; plan?: { digest?: string } } };
    const digest = result.structuredContent?.plan?.digest;
    if (result.structuredContent?.ok !== true || digest === undefined)
      return { name, ok: false, detail: 'planning over stdio did not return a plan' };
    if (expectedDigest !== undefined && digest !== expectedDigest)
      return { name, ok: false, detail: `stdio planned ${digest}, in-process ${expectedDigest}` };
    return {
      name,
      ok: true,
      detail: `\`agentdef mcp\` lists exactly three tools and plans to the same digest ${digest.slice(0, 12)}…`,
    };
  } catch (error) {
    return {
      name,
      ok: false,
      detail: `the stdio server could not be used (${(error as Error).message.split('\n')[0]})`,
    };
  } finally {
    await client.close().catch(() => undefined);
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Runs every check and prints one line each; exit 0 when all passed, 1 otherwise. */
export async function applicationCheck(options: ApplicationCheckOptions, io: OperationIo): Promise<OperationResult> {
  const file = resolve(io.cwd, options.manifest);
  if (!existsSync(file)) return { usage: `${options.manifest} does not exist` };
  const workspaceRoot = findWorkspaceRoot(dirname(file)) ?? findWorkspaceRoot(io.cwd) ?? io.cwd;
  const manifestPath = relative(workspaceRoot, file).split('\\').join('/');
  // The same entrypoint values `execute` reads: --inputs, else inputs.json beside the manifest.
  const entrypoint = readEntrypointInputs(io.cwd, { inputs: options.inputs }, options.manifest);
  if (typeof entrypoint === 'string') return { usage: entrypoint };
  const inputs = entrypoint.defaultFile !== undefined || options.inputs !== undefined ? entrypoint.values : undefined;
  const artifacts = options.artifacts;
  // The stdio child resolves the module from the workspace root, the in-process host from cwd.
  const hostModule =
    options.host !== undefined
      ? relative(workspaceRoot, resolve(io.cwd, options.host)).split('\\').join('/')
      : undefined;
  const hostFlags = { workspaceRoot, cwd: io.cwd, artifacts, host: options.host };
  let packs: ComponentPackRegistry | undefined;
  if (options.host !== undefined) {
    const loaded = await loadHostModule(workspaceRoot, io.cwd, options.host);
    if (!loaded.ok) {
      io.stderr(`error: ${loaded.message}\n`);
      return EXIT.usage;
    }
    packs = loaded.packs;
  }
  const probe = await openApplicationHost(hostFlags);
  if (!probe.ok) {
    io.stderr(`error: ${probe.message}\n`);
    return EXIT.usage;
  }
  const planned = await probe.service.plan({ manifest: { path: manifestPath }, mode: 'dry-run' });
  await probe.service.close();
  // A manifest the host cannot read at all (a folder, a path out of the workspace) is the caller's usage error, not a failed check.
  if (!planned.ok && isUsageProblem(planned.diagnostics)) {
    io.stderr(formatDiagnostics([...planned.diagnostics], { format: 'text', sources: new Map() }));
    return EXIT.usage;
  }
  const folder = artifacts ?? DEFAULT_ARTIFACTS_FOLDER;
  const gateway = existsSync(join(workspaceRoot, folder, 'approvals.json'))
    ? createLocalGatewayOwner({ workspaceRoot, folder })
    : undefined;

  const results = await runLocalVerification({
    workspaceRoot,
    manifestPath,
    openService: async () => {
      const opened = await openApplicationHost(hostFlags);
      if (!opened.ok) throw new Error(opened.message);
      return opened.service;
    },
    ...(gateway?.ok ? { gateway: gateway.gateway } : {}),
    ...(packs ? { packs } : {}),
    ...(inputs !== undefined ? { inputs } : {}),
  });
  results.push(
    await stdioCheck(
      workspaceRoot,
      manifestPath,
      { artifacts, host: hostModule },
      planned.ok ? planned.plan.digest : undefined,
    ),
  );

  const width = Math.max(...results.map((r) => r.name.length));
  const lines = [`${manifestPath}: local verification (offline, no model call, no external write)`];
  for (const r of results) lines.push(`  ${r.ok ? 'ok  ' : 'FAIL'}  ${r.name.padEnd(width)}  ${r.detail}`);
  const failed = results.filter((r) => !r.ok).length;
  lines.push(failed === 0 ? `${results.length} checks passed` : `${failed} of ${results.length} checks failed`);
  io.stdout(`${lines.join('\n')}\n`);
  return failed === 0 ? EXIT.ok : EXIT.invalid;
}
