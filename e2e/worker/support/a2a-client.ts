/**
 * The A2A side of the Worker tests: the independent `@a2a-js/sdk` client (card, then
 * `SendMessage`), and a raw JSON-RPC helper for requests the SDK would never send.
 */
import { Role } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';

export interface SdkAnswer {
  card: Awaited<ReturnType<Awaited<ReturnType<ClientFactory['createFromUrl']>>['getAgentCard']>>;
  taskId: string;
  state: number | undefined;
  /** The text of the first artifact part, or of the status message when there is no artifact. */
  text: string;
  metadata: Record<string, unknown>;
}

const textPart = (text: string) => ({
  content: { $case: 'text' as const, value: text },
  metadata: undefined,
  filename: '',
  mediaType: '',
});

/** Fetches the card from `/.well-known/agent-card.json` and sends one text message, as an A2A client does. */
export async function askWithSdk(url: string, text: string, skillId?: string): Promise<SdkAnswer> {
  const client = await new ClientFactory().createFromUrl(url);
  const card = await client.getAgentCard();
  const result = await client.sendMessage({
    tenant: '',
    message: {
      messageId: `m-${Math.random().toString(36).slice(2)}`,
      contextId: '',
      taskId: '',
      role: Role.ROLE_USER,
      parts: [textPart(text)],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: undefined,
    metadata: skillId ? { skillId } : undefined,
  });
  const task = result as Extract<typeof result, { status: unknown }>;
  const partText = (parts: { content?: { $case: string; value?: unknown } }[] | undefined) => {
    const content = parts?.[0]?.content;
    return content?.$case === 'text' ? String(content.value) : '';
  };
  const fromArtifact = partText(task.artifacts?.[0]?.parts as never);
  const fromStatus = partText(task.status?.message?.parts as never);
  return {
    card,
    taskId: task.id,
    state: task.status?.state,
    text: fromArtifact || fromStatus,
    metadata: (task.metadata ?? {}) as Record<string, unknown>,
  };
}

/** One raw JSON-RPC request (body as given), answering the parsed response and its HTTP status. */
export async function rawRpc(
  url: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: any }> {
  const response = await fetch(`${url}/a2a/v1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = { unparsable: text };
  }
  return { status: response.status, json };
}

/** `SendMessage` (v1.0) with one text part, over raw JSON-RPC. */
export function sendMessageBody(text: string): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'SendMessage',
    params: { message: { messageId: 'raw-1', role: 'ROLE_USER', parts: [{ text }] } },
  });
}
