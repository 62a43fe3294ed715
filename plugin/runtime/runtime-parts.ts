/**
 * The optional parts of the runtime, injected rather than imported: how model pins become
 * clients, the composition runner, the MCP client of `mcp-http` tools and the agentic loop.
 * `runAgentWithParts` and `createA2aHandlerWithParts` use only the parts their deps carry, so a
 * generated Worker, which passes only what its agent uses, bundles nothing else; `withEveryPart`
 * supplies every part, for hosts that run any agent (Node hosts, `runAgent`, `createA2aHandler`).
 */
import type { AgenticLoop } from './agent-loop';
import { runAgenticLoop } from './agent-loop';
import { runComposition } from './composition';
import { createMcpHttpToolHandler } from './mcp-http-tool';
import type { ModelClientFactory } from './providers/create-model-client';
import { createModelClient } from './providers/create-model-client';

export interface RuntimeParts {
  /** How a pin becomes a client (agentic agents, routed dags); also how custom providers and tests plug in. */
  modelClient?: ModelClientFactory;
  /** Runs a dag's children (dag configs). */
  runComposition?: typeof runComposition;
  /** The Streamable HTTP client of an `mcp-http` tool the config names by URL and the host does not implement. */
  mcpHttpTool?: typeof createMcpHttpToolHandler;
  /** The model-driven loop (configs with model pins). */
  agenticLoop?: AgenticLoop;
}

const EVERY_PART: Required<RuntimeParts> = { modelClient: createModelClient, runComposition, mcpHttpTool: createMcpHttpToolHandler, agenticLoop: runAgenticLoop };

/** `deps` with every part it does not set itself. */
export function withEveryPart<D extends RuntimeParts>(deps: D): D {
  return {
    ...deps,
    modelClient: deps.modelClient ?? EVERY_PART.modelClient,
    runComposition: deps.runComposition ?? EVERY_PART.runComposition,
    mcpHttpTool: deps.mcpHttpTool ?? EVERY_PART.mcpHttpTool,
    agenticLoop: deps.agenticLoop ?? EVERY_PART.agenticLoop,
  };
}
