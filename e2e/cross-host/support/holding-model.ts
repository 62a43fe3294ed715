/**
 * A stub Anthropic model for the cross-host A2A tests that can hold a run `working`: it answers like
 * the scripted provider (the shared stub, which checks the wire format), except a request whose
 * conversation names a hold marker, which it keeps unanswered until the test releases that marker.
 * It records when a host drops a held call (the connection closes before the answer): that is a
 * canceled run abandoning its model call.
 */
import type { ServerResponse } from 'node:http';
import {
  startScriptedProvider,
  startServer,
  type RecordedRequest,
  type ScriptTurn,
  type TurnContext,
} from '../../../plugin/runtime/__test-support__/stub-provider';

export interface HoldingModel {
  url: string;
  /** Markers of the held calls whose connection the host closed before they were answered. */
  dropped: Set<string>;
  /** Resolves once a call naming `marker` is being held. */
  held(marker: string): Promise<void>;
  /** Answers the calls held for `marker` (those whose connection is still open) and stops holding it. */
  release(marker: string): void;
  close(): Promise<void>;
}

/** The marker that, anywhere in a user message, holds that run's model calls. */
export const holdMarker = (name: string) => `hold:${name}`;

interface HeldCall {
  request: RecordedRequest;
  res: ServerResponse;
}

export async function startHoldingModel(options: {
  apiKey: string;
  turn: (index: number, ctx: TurnContext) => ScriptTurn;
}): Promise<HoldingModel> {
  const scripted = await startScriptedProvider({
    wire: 'anthropic-messages',
    apiKey: options.apiKey,
    script: options.turn,
  });
  const held = new Map<string, HeldCall[]>();
  const waiting = new Map<string, () => void>();
  const released = new Set<string>();
  const dropped = new Set<string>();

  const answer = async ({ request, res }: HeldCall) => {
    const headers: Record<string, string> = {};
    for (const name of ['content-type', 'x-api-key', 'anthropic-version', 'authorization'])
      if (request.headers[name] !== undefined) headers[name] = request.headers[name]!;
    const upstream = await fetch(`${scripted.url}${request.path}`, {
      method: request.method,
      headers,
      body: JSON.stringify(request.body),
    });
    res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
    res.end(await upstream.text());
  };

  const front = await startServer((request, res) => {
    const marker = /hold:[\w-]+/.exec(JSON.stringify(request.body))?.[0];
    if (marker === undefined || released.has(marker)) return answer({ request, res });
    const call = { request, res };
    held.set(marker, [...(held.get(marker) ?? []), call]);
    res.on('close', () => {
      if (!res.writableEnded) dropped.add(marker);
    });
    waiting.get(marker)?.();
    return undefined;
  });

  return {
    url: front.url,
    dropped,
    held: (marker) =>
      held.has(marker)
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            waiting.set(marker, resolve);
          }),
    release(marker) {
      released.add(marker);
      for (const call of held.get(marker) ?? []) if (!call.res.destroyed) void answer(call).catch(() => undefined);
      held.delete(marker);
    },
    async close() {
      await front.close();
      await scripted.close();
    },
  };
}
