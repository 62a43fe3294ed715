/**
 * The optional parts of the runtime, injected rather than imported: how model pins become
 * clients, the composition runner, the MCP client of `mcp-http` tools, the agentic loop,
 * receipt signing, the check of a config given at runtime and the served card's scrub.
 * `runAgentWithParts` and `createA2aHandlerWithParts` use only the parts their deps carry, so a
 * generated Worker, which passes only what its agent uses, bundles nothing else; `withEveryPart`
 * supplies every part, for hosts that run any agent (Node hosts, `runAgent`, `createA2aHandler`).
 */
import type { AgentCard } from './agent-card';
import type { AgenticLoop } from './agent-loop';
import { runAgenticLoop } from './agent-loop';
import { scrubKeyMaterial } from './card-secrets';
import { runComposition } from './composition';
import { createMcpHttpToolHandler } from './mcp-http-tool';
import type { ModelClientFactory } from './providers/create-model-client';
import { createModelClient } from './providers/create-model-client';
import type { ReceiptSigning } from './run-receipt';
import { signedReceipts } from './run-receipt';
import { checkRuntimeConfig } from './runtime-config';
import type { HybridLeafRunner } from './hybrid/hybrid-leaf';
import { runHybridLeaf } from './hybrid/hybrid-leaf';

export interface RuntimeParts {
  /** How a pin becomes a client (agentic agents, routed dags); also how custom providers and tests plug in. */
  modelClient?: ModelClientFactory;
  /** Runs a dag's children (dag configs). */
  runComposition?: typeof runComposition;
  /** The Streamable HTTP client of an `mcp-http` tool the config names by URL and the host does not implement. */
  mcpHttpTool?: typeof createMcpHttpToolHandler;
  /** The model-driven loop (configs with model pins). */
  agenticLoop?: AgenticLoop;
  /** The signing key check and the receipt of each run (configs with `receipts.mode: signed`). */
  receiptSigning?: ReceiptSigning;
  /** Routing and evaluation between a leaf's pins (configs with `hybrid`). */
  hybridLeaf?: HybridLeafRunner;
  /**
   * The check of a config given at runtime (the A2A handler refuses a config it fails). A
   * generated Worker's config was checked when its source was generated: the Worker names this
   * part only when that check found problems, so it still fails as it would.
   */
  configCheck?: (config: unknown) => string[];
  /**
   * Takes key material out of the served AgentCard (card-secrets.ts). A generated Worker's card
   * strings come from its constant config: the generator builds that card, and names this part
   * only when the scrub would change it; the card's one other text, a request's own origin, is
   * the caller's (scheme, host and port: no credentials).
   */
  cardScrub?: (card: AgentCard) => AgentCard;
}

const EVERY_PART: Required<RuntimeParts> = {
  modelClient: createModelClient,
  runComposition,
  mcpHttpTool: createMcpHttpToolHandler,
  agenticLoop: runAgenticLoop,
  receiptSigning: signedReceipts,
  hybridLeaf: runHybridLeaf,
  configCheck: checkRuntimeConfig,
  cardScrub: scrubKeyMaterial,
};

/** `deps` with every part it does not set itself. */
export function withEveryPart<D extends RuntimeParts>(deps: D): D {
  return {
    ...deps,
    modelClient: deps.modelClient ?? EVERY_PART.modelClient,
    runComposition: deps.runComposition ?? EVERY_PART.runComposition,
    mcpHttpTool: deps.mcpHttpTool ?? EVERY_PART.mcpHttpTool,
    agenticLoop: deps.agenticLoop ?? EVERY_PART.agenticLoop,
    receiptSigning: deps.receiptSigning ?? EVERY_PART.receiptSigning,
    hybridLeaf: deps.hybridLeaf ?? EVERY_PART.hybridLeaf,
    configCheck: deps.configCheck ?? EVERY_PART.configCheck,
    cardScrub: deps.cardScrub ?? EVERY_PART.cardScrub,
  };
}
