/**
 * `agentdef export oasf <definition>`: the OASF record of one definition (plugin/definition/oasf/
 * oasf-record.ts), printed or written to `--out`. The definition must plan (it is validated and
 * resolved as compile would); `created_at` is the commit time of the definition file when git has
 * it committed and clean, else the stated no-commit value; the A2A card module and the card
 * locator need the endpoint: a Worker's `--worker-url` (never guessed), the launcher's `--port`
 * (default the container port) for the other targets. MCP connections come from the workspace's
 * mcp.json. An unmappable skill is a located diagnostic; nothing is written then.
 * Never throws; messages name files relative to the workspace.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { planAgent } from '../compiler/compile';
import { runtimeConfigFor } from '../compiler/runtime-config';
import { EMPTY_WORKSPACE_CONFIG, loadWorkspaceConfig } from '../compiler/workspace-config';
import { hasErrors } from '../definition/diagnostic';
import { formatDiagnostics } from '../definition/format-diagnostics';
import { projectOasfRecord, type OasfRecordOptions } from '../definition/oasf/oasf-record';
import { definitionFormat } from '../definition/parse-document';
import { locateFinding, validateDefinitionSource } from '../definition/validate-definition';
import { CONTAINER_PORT } from '../host-contract/container-contract';
import { buildAgentCard } from '../runtime/agent-card';
import { targetFor } from '../targets/targets';
import { gitStateOf } from './git-state';

export interface ExportOasfOptions {
  /** Absolute path of the definition. */
  file: string;
  workspaceRoot: string;
  /** Absolute path to write the record to; default standard output. */
  out?: string;
  workerUrl?: string;
  port?: number;
  image?: string;
}

export type ExportOasfOutcome = { code: 0 | 1 | 2; stdout: string; stderr: string };

const toPosix = (path: string) => path.split(sep).join('/');

/** The OASF record of `options.file`, and what to print. */
export async function exportOasf(options: ExportOasfOptions): Promise<ExportOasfOutcome> {
  const fail = (code: 1 | 2, message: string): ExportOasfOutcome => ({
    code,
    stdout: '',
    stderr: `error: ${message}\n`,
  });
  try {
    const shown = toPosix(relative(options.workspaceRoot, options.file));
    const planned = await planAgent({ file: options.file, workspaceRoot: options.workspaceRoot });
    if (planned.ioError !== undefined) return fail(2, planned.ioError);
    if (hasErrors(planned.diagnostics) || !planned.plan || !planned.resolved)
      return {
        code: 1,
        stdout: '',
        stderr: `${formatDiagnostics(planned.diagnostics, { format: 'text', sources: planned.sources })}error: ${shown} does not plan; no OASF record was written\n`,
      };
    const { resolved, plan } = planned;
    const definition = resolved.definition;
    const notes: string[] = [];

    const git = gitStateOf(options.file, shown);
    // As publish states it: whole seconds, UTC (so the export of a commit and its publication agree).
    const createdAt =
      git.ok && !git.dirty && git.commitTime !== ''
        ? new Date(Math.floor(Date.parse(git.commitTime) / 1000) * 1000).toISOString().replace('.000Z', 'Z')
        : undefined;
    if (createdAt === undefined)
      notes.push(`note: ${shown} is not committed as it is, so created_at is the no-commit value 1970-01-01T00:00:00Z`);

    const workspace = loadWorkspaceConfig(options.workspaceRoot);
    const worker = targetFor(plan.target).endpoint === 'public-url';
    let serviceUrl: string | undefined;
    if (worker && options.workerUrl !== undefined) serviceUrl = new URL('/', options.workerUrl).toString();
    else if (!worker) serviceUrl = `http://127.0.0.1:${options.port ?? CONTAINER_PORT}/`;
    else
      notes.push(
        `note: ${definition.identity.slug} is served as a Cloudflare Worker: pass --worker-url for the A2A card module and the card and Worker locators`,
      );
    const recordOptions: OasfRecordOptions = {
      ...(createdAt !== undefined ? { createdAt } : {}),
      ...(options.image !== undefined ? { image: options.image } : {}),
      mcpServers: workspace.config.mcpServers,
    };
    if (serviceUrl !== undefined) {
      const { config } = runtimeConfigFor(resolved, resolved.key, { workspace: EMPTY_WORKSPACE_CONFIG });
      const card = buildAgentCard(config, { requestOrigin: new URL(serviceUrl).origin });
      Object.assign(recordOptions, {
        serviceUrl,
        worker,
        agentCard: JSON.parse(JSON.stringify(card)) as Record<string, unknown>,
      });
    }

    const result = projectOasfRecord(definition, recordOptions);
    if (!result.ok) {
      const text = planned.sources.get(shown) ?? '';
      const format = definitionFormat(shown) ?? 'json';
      const document = validateDefinitionSource(text, shown, format).document;
      if (document === undefined)
        return fail(1, result.findings.map((f) => `${shown} ${f.path || '(root)'}: ${f.message}`).join('\n'));
      const located = result.findings.map((f) => locateFinding(document, f));
      return {
        code: 1,
        stdout: '',
        stderr: `${formatDiagnostics(located, { format: 'text', sources: planned.sources })}error: ${shown} has no OASF record; nothing was written\n`,
      };
    }
    const json = `${JSON.stringify(result.record, null, 2)}\n`;
    const stderr = notes.map((n) => `${n}\n`).join('');
    if (options.out === undefined) return { code: 0, stdout: json, stderr };
    const out = resolve(options.out);
    try {
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, json);
    } catch (error) {
      return fail(
        2,
        `cannot write ${toPosix(relative(options.workspaceRoot, out))}: ${(error as NodeJS.ErrnoException).code ?? 'write failed'}`,
      );
    }
    return {
      code: 0,
      stdout: `wrote ${toPosix(relative(options.workspaceRoot, out))} (OASF ${result.record.schema_version} record of ${definition.identity.slug}@${definition.identity.versionSemver})\n`,
      stderr,
    };
  } catch (error) {
    return fail(2, `internal error while exporting: ${(error as Error).message}`);
  }
}
