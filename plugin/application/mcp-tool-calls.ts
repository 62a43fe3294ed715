/**
 * One call of one of the three application MCP tools, without the MCP SDK: reads the raw
 * arguments (mcp-tool-contracts.ts), calls the `ApplicationService`, and shapes what the tool
 * returns — the structured content its output schema describes, a short text summary, and whether
 * it is an error (`isError`: refused arguments, an invalid manifest, an execute that ran nothing).
 *
 * The caller's abort signal goes to `execute`, so a cancelled request reaches the step owner.
 * Nothing here throws: a service that throws (a defect) gives an error result without structured
 * content; its reason is kept for the server's stderr, never sent to the caller.
 */
import type { ApplicationService, ExecuteResponse, PlanResponse } from './application-service';
import {
  type ApplicationToolName,
  type ArgumentsResult,
  CATALOG_TOOL,
  EXECUTE_TOOL,
  INVALID_ARGUMENTS,
  PLAN_TOOL,
  readCatalogArguments,
  readExecuteArguments,
  readPlanArguments,
} from './mcp-tool-contracts';

export interface ApplicationToolResult {
  /** What the tool's output schema describes; absent only after an internal error. */
  readonly structuredContent?: Readonly<Record<string, unknown>>;
  /** A one-line summary for readers of the text content. */
  readonly text: string;
  readonly isError: boolean;
  /** Only after an internal error: its reason, for the server's own diagnostics (stderr), never the caller. */
  readonly internalError?: string;
}

function argumentRefusal(message: string, diagnostics: readonly unknown[]): ApplicationToolResult {
  return {
    structuredContent: { ok: false, refusal: INVALID_ARGUMENTS, message, diagnostics },
    text: `refused: ${message}`,
    isError: true,
  };
}

function planSummary(response: PlanResponse): string {
  if (!response.ok) {
    const first = response.diagnostics[0];
    const more = response.diagnostics.length > 1 ? ` (and ${response.diagnostics.length - 1} more diagnostics)` : '';
    return `the manifest is invalid${first ? `: ${first.file}:${first.line}:${first.column} ${first.message}` : ''}${more}`;
  }
  const { plan } = response;
  return `plan ${plan.digest} for ${plan.application.id}@${plan.application.revision} (${plan.mode}): ${plan.steps.length} step${plan.steps.length === 1 ? '' : 's'}`;
}

function executeSummary(response: ExecuteResponse): string {
  if (!response.ok) return `nothing ran (${response.refusal}): ${response.message}`;
  const { run } = response;
  const replay = response.replayed ? 'replayed the recorded run' : 'ran';
  const outcome =
    run.status === 'succeeded'
      ? 'succeeded'
      : `stopped (${run.stop?.reason ?? 'unknown'}${run.stop?.node ? ` at ${run.stop.node}` : ''}: ${run.stop?.message ?? ''})`;
  const reconcile = run.reconciliationRequired ? '; reconciliation with the owner is required before any retry' : '';
  return `${replay} plan ${run.planDigest} (${run.mode}): ${outcome}${reconcile}`;
}

function catalogSummary(catalog: unknown): string {
  const c = catalog as { catalogDigest?: unknown; components?: unknown; packs?: unknown };
  const count = (list: unknown): number => (Array.isArray(list) ? list.length : 0);
  return `catalog ${String(c?.catalogDigest)}: ${count(c?.components)} components, ${count(c?.packs)} packs`;
}

/** One tool: how its raw arguments are read, and what it does with them. */
interface ToolHandler<Request> {
  read(raw: unknown): ArgumentsResult<Request>;
  run(service: ApplicationService, request: Request, signal: AbortSignal | undefined): Promise<ApplicationToolResult>;
}

function handler<Request>(tool: ToolHandler<Request>): ToolHandler<unknown> {
  return tool as ToolHandler<unknown>;
}

/** Every tool's handler, by name: the type demands one for each name of APPLICATION_TOOL_NAMES. */
const HANDLERS: Readonly<Record<ApplicationToolName, ToolHandler<unknown>>> = {
  [CATALOG_TOOL]: handler({
    read: readCatalogArguments,
    run: async (service) => {
      const catalog = await service.catalog();
      return { structuredContent: catalog as Record<string, unknown>, text: catalogSummary(catalog), isError: false };
    },
  }),
  [PLAN_TOOL]: handler({
    read: readPlanArguments,
    run: async (service, request) => {
      const response = await service.plan(request);
      return {
        structuredContent: response as unknown as Record<string, unknown>,
        text: planSummary(response),
        isError: !response.ok,
      };
    },
  }),
  [EXECUTE_TOOL]: handler({
    read: readExecuteArguments,
    run: async (service, request, signal) => {
      const response = await service.execute(request, signal);
      return {
        structuredContent: response as unknown as Record<string, unknown>,
        text: executeSummary(response),
        isError: !response.ok,
      };
    },
  }),
};

async function call(
  service: ApplicationService,
  name: ApplicationToolName,
  rawArguments: unknown,
  signal: AbortSignal | undefined,
): Promise<ApplicationToolResult> {
  const tool = HANDLERS[name];
  const read = tool.read(rawArguments);
  if (!read.ok) return argumentRefusal(read.message, read.diagnostics);
  return tool.run(service, read.request, signal);
}

/** Calls tool `name` with `rawArguments` (as the MCP request carried them) on `service`. */
export async function callApplicationTool(
  service: ApplicationService,
  name: ApplicationToolName,
  rawArguments: unknown,
  signal?: AbortSignal,
): Promise<ApplicationToolResult> {
  try {
    return await call(service, name, rawArguments, signal);
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'unknown error';
    return {
      text: `internal error in ${name}: nothing more is reported to the caller; see the server's diagnostics`,
      isError: true,
      internalError: reason,
    };
  }
}
