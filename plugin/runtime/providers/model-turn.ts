/**
 * The one conversation shape every provider client speaks on its inside: chat messages in,
 * a normalised `ModelTurn` out. Provider clients translate to and from their own wire format.
 */
import type { ProviderWire, RuntimeSampling } from '../runtime-config';

export interface ToolCall {
  /** The provider's call id (synthesised as `call_<n>` for providers without one). */
  id: string;
  name: string;
  /** The parsed arguments; `undefined` when the model sent text that is not a JSON object. */
  arguments: Record<string, unknown> | undefined;
  /** The arguments as the model sent them, when they did not parse. */
  rawArguments?: string;
}

export type ChatMessage =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string; isError?: boolean };

export interface ToolSpec {
  name: string;
  description: string;
  /** A JSON Schema object describing the arguments. */
  inputSchema: Record<string, unknown>;
}

/** Why the run calls a model; recorded with the call (never sent to the provider). */
export type ModelCallPurpose = 'answer' | 'route' | 'evaluate' | 'summarise';

export interface ModelRequest {
  system?: string;
  messages: ChatMessage[];
  tools: ToolSpec[];
  signal?: AbortSignal;
  /** Default `answer`. */
  purpose?: ModelCallPurpose;
}

export interface ModelTurn {
  /** The assistant's text ('' when it only called tools). */
  text: string;
  toolCalls: ToolCall[];
  /** Why the model stopped: finished, wants tools, hit its token cap, or something else. */
  finish: 'stop' | 'tool_calls' | 'length' | 'other';
  usage?: { inputTokens?: number; outputTokens?: number };
  /** Set when the answer came from a recording (agentdef's model replay server), not a live model. */
  replayed?: true;
}

export interface ModelClient {
  readonly wire: ProviderWire;
  readonly model: string;
  complete(request: ModelRequest): Promise<ModelTurn>;
}

export interface ProviderClientOptions {
  /** Base URL, for example `https://api.openai.com/v1`; tests point it at a loopback stub. */
  baseUrl: string;
  model: string;
  /** The API key; sent in a header, never logged, never put in an error. */
  apiKey?: string;
  sampling?: RuntimeSampling;
  /** The fetch to use (the run's egress-checked fetch). */
  fetch: typeof fetch;
  /** Extra headers (for example an organisation id). */
  headers?: Record<string, string>;
}

/** `turn`, marked as replayed when its answer came from a recording. */
export function withReplayed(turn: ModelTurn, replayed: boolean): ModelTurn {
  if (replayed) turn.replayed = true;
  return turn;
}

/** Parses tool-call arguments that arrive as a JSON string. */
export function parseArguments(raw: unknown): Pick<ToolCall, 'arguments' | 'rawArguments'> {
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw))
    return { arguments: raw as Record<string, unknown> };
  if (typeof raw === 'string') {
    const trimmed = raw.trim();
    if (trimmed === '') return { arguments: {} };
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed))
        return { arguments: parsed as Record<string, unknown> };
    } catch {
      // fall through
    }
    return { arguments: undefined, rawArguments: raw.slice(0, 2000) };
  }
  if (raw === undefined || raw === null) return { arguments: {} };
  return { arguments: undefined, rawArguments: String(raw).slice(0, 2000) };
}

/** Sampling extras not named by the schema, passed through to the provider body unchanged. */
export function samplingExtras(sampling: RuntimeSampling | undefined): Record<string, unknown> {
  const known = new Set(['temperature', 'topP', 'topK', 'maxTokens', 'seed', 'stop']);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(sampling ?? {}))
    if (!known.has(key) && value !== undefined) out[key] = value;
  return out;
}
