/**
 * `modelSet[].samplingParams` are sent with every call to the pin's model, translated for the
 * provider's wire (plugin/runtime/providers). Two portable parameters have no counterpart on one
 * wire and would be dropped without a word: `topK` on the OpenAI Chat Completions wire (OpenAI,
 * Azure OpenAI, Groq, Mistral, and every custom or tuned provider served behind an
 * OpenAI-compatible API) and `seed` on the Anthropic Messages wire. Declaring either there is a
 * located error at the parameter, so a pin never claims a sampling setting its model never gets.
 * The definition layer does not import the runtime, so the wire of a provider is stated here too;
 * sampling-params.test.ts keeps it equal to the compiler's (the runtime's `defaultWireFor`, else
 * `openai-chat`) for every known provider.
 */
import type { Finding } from '../diagnostic';
import type { SemanticRule } from './rule';

const RULE = 'sampling-params';

/** The API a model pin is called through (the runtime's `ProviderWire`). */
export type SamplingWire = 'openai-chat' | 'anthropic-messages' | 'ollama-chat';

/** The wire the compiler gives a pin of this provider: custom, tuned and unlisted providers are served OpenAI-compatibly. */
export function samplingWire(providerId: string): SamplingWire {
  if (providerId === 'anthropic') return 'anthropic-messages';
  if (providerId === 'local-ollama') return 'ollama-chat';
  return 'openai-chat';
}

/** The portable parameters a wire's client cannot send, each with why and what to do instead. */
export const DROPPED_SAMPLING_PARAMS: Readonly<
  Record<SamplingWire, Readonly<Record<string, { why: string; instead: string }>>>
> = {
  'openai-chat': {
    topK: {
      why: 'the OpenAI Chat Completions API (which this provider is called through) has no top-k sampling',
      instead: 'Remove topK; use topP to narrow sampling on this provider.',
    },
  },
  'anthropic-messages': {
    seed: {
      why: 'the Anthropic Messages API has no sampling seed',
      instead: 'Remove seed; set temperature to 0 for the most repeatable answers Anthropic models give.',
    },
  },
  'ollama-chat': {},
};

export const samplingParamsRule: SemanticRule = {
  name: RULE,
  description:
    "Every sampling parameter reaches the pin's model: no topK on a provider called through the OpenAI Chat Completions API, no seed on Anthropic.",
  check(definition) {
    const findings: Finding[] = [];
    definition.modelSet.forEach((pin, index) => {
      const dropped = DROPPED_SAMPLING_PARAMS[samplingWire(pin.providerId)];
      for (const name of Object.keys(pin.samplingParams)) {
        const why = Object.hasOwn(dropped, name) ? dropped[name] : undefined;
        if (why === undefined) continue;
        findings.push({
          rule: RULE,
          path: `/modelSet/${index}/samplingParams/${name}`,
          at: 'key',
          message: `samplingParams.${name} of model pin ${pin.providerId}/${pin.modelId} would never reach the model: ${why.why}, so the runtime does not send it.`,
          suggestion: why.instead,
        });
      }
    });
    return findings;
  },
};
