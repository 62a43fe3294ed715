/**
 * The bundle-size baseline: a minimal A2A Worker built from the official `@a2a-js/sdk` server
 * classes (DefaultRequestHandler, InMemoryTaskStore, JsonRpcTransportHandler) around an echo
 * executor, as one would start an A2A server on Workers with the SDK. It serves the card and
 * JSON-RPC (SendMessage, streaming as Server-Sent Events, GetTask, CancelTask…). worker-bench.ts
 * bundles it with the same esbuild settings as the other Workers and measures its size and its
 * first request; `sdkWorker` and `answering` also make sdk-text-stats-worker.ts (the same Worker
 * doing the text-stats agent's work).
 */
import type { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import {
  AgentEvent,
  DefaultRequestHandler,
  InMemoryTaskStore,
  JsonRpcTransportHandler,
  ServerCallContext,
} from '@a2a-js/sdk/server';

const CARD_PATH = '/.well-known/agent-card.json';
const RPC_PATH = '/a2a/v1';

const card = {
  name: 'Echo',
  description: 'Answers with the text it was sent.',
  supportedInterfaces: [{ url: `https://echo.example${RPC_PATH}`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  version: '1.0.0',
  capabilities: { streaming: true, pushNotifications: false, extendedAgentCard: false },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'echo', name: 'Echo', description: 'Echoes the text.', tags: ['echo'] }],
};

/** An executor that answers with one message: `answer` of the text it was sent. */
export function answering(answer: (text: string) => string): AgentExecutor {
  return {
    async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
      const text = context.userMessage.parts.map((part) => ('text' in part ? String(part.text) : '')).join('\n');
      bus.publish(
        AgentEvent.message({
          messageId: crypto.randomUUID(),
          role: 'ROLE_AGENT',
          parts: [{ text: answer(text) }],
          contextId: context.contextId,
        } as never),
      );
      bus.finished();
    },
    async cancelTask(): Promise<void> {},
  };
}

const echo = answering((text) => text);

const json = (body: unknown) => new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });

/** The SDK's Worker around `executor`: its card, JSON-RPC, streams as Server-Sent Events. */
export function sdkWorker(executor: AgentExecutor): { fetch(request: Request): Promise<Response> } {
  const transport = new JsonRpcTransportHandler(
    new DefaultRequestHandler(card as never, new InMemoryTaskStore(), executor),
  );
  return { fetch: (request) => serve(transport, request) };
}

async function serve(transport: JsonRpcTransportHandler, request: Request): Promise<Response> {
  const url = new URL(request.url);
  if (url.pathname === CARD_PATH) return json(card);
  if (url.pathname !== RPC_PATH || request.method !== 'POST') return new Response('not found', { status: 404 });
  const result = await transport.handle(
    await request.text(),
    new ServerCallContext({ requestedVersion: request.headers.get('a2a-version') ?? '1.0' }),
  );
  if (!(Symbol.asyncIterator in Object(result))) return json(result);
  const events = result as AsyncGenerator<unknown>;
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await events.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(`data: ${JSON.stringify(next.value)}\n\n`));
    },
  });
  return new Response(stream, { headers: { 'content-type': 'text/event-stream' } });
}

export default /* @__PURE__ */ sdkWorker(echo);
