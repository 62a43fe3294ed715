/**
 * Picks the provider client for a pin's wire format. `modelClientFrom` builds the picker from the
 * clients given, so a generated Worker names only the wires its agents use and bundles only those
 * clients; `createModelClient` is the picker over every wire.
 */
import { RuntimeError } from '../errors';
import type { ProviderWire, RuntimeModelPin } from '../runtime-config';
import { modelBaseUrl } from '../runtime-config';
import { createAnthropicMessagesClient } from './anthropic-messages';
import type { ModelClient, ProviderClientOptions } from './model-turn';
import { createOllamaChatClient } from './ollama-chat';
import { createOpenAiChatClient } from './openai-chat';

/** How a pin becomes a client, given the run's (egress-checked) fetch and the pin's key. */
export type ModelClientFactory = (pin: RuntimeModelPin, io: { fetch: typeof fetch; apiKey?: string }) => ModelClient;

/** The picker over the provider clients given, by wire; a pin of another wire cannot run (`config_invalid`). */
export function modelClientFrom(
  clients: Partial<Record<ProviderWire, (options: ProviderClientOptions) => ModelClient>>,
): ModelClientFactory {
  return (pin, io) => {
    const create = Object.hasOwn(clients, pin.wire) ? clients[pin.wire] : undefined;
    if (!create)
      throw new RuntimeError('config_invalid', `this build of the runtime has no client for the ${pin.wire} wire`);
    return create({
      baseUrl: modelBaseUrl(pin),
      model: pin.model,
      sampling: pin.sampling,
      fetch: io.fetch,
      ...(io.apiKey ? { apiKey: io.apiKey } : {}),
    });
  };
}

export const createModelClient: ModelClientFactory = /* @__PURE__ */ modelClientFrom({
  'openai-chat': createOpenAiChatClient,
  'anthropic-messages': createAnthropicMessagesClient,
  'ollama-chat': createOllamaChatClient,
});
