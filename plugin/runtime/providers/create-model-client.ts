/** Picks the provider client for a pin's wire format. */
import type { RuntimeModelPin } from '../runtime-config';
import { modelBaseUrl } from '../runtime-config';
import { createAnthropicMessagesClient } from './anthropic-messages';
import type { ModelClient } from './model-turn';
import { createOllamaChatClient } from './ollama-chat';
import { createOpenAiChatClient } from './openai-chat';

export function createModelClient(pin: RuntimeModelPin, io: { fetch: typeof fetch; apiKey?: string }): ModelClient {
  const options = { baseUrl: modelBaseUrl(pin), model: pin.model, sampling: pin.sampling, fetch: io.fetch, ...(io.apiKey ? { apiKey: io.apiKey } : {}) };
  switch (pin.wire) {
    case 'openai-chat':
      return createOpenAiChatClient(options);
    case 'anthropic-messages':
      return createAnthropicMessagesClient(options);
    case 'ollama-chat':
      return createOllamaChatClient(options);
  }
}
