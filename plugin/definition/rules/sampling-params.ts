/**
 * `modelSet[].samplingParams` are sent with every call to the pin's model, translated for the
 * provider's wire (plugin/runtime/providers). Two portable parameters have no counterpart on one
 * wire and would be dropped without a word: `topK` on the OpenAI Chat Completions wire (OpenAI,
 * Azure OpenAI, Groq, Mistral, and every custom or tuned provider served behind an
 * OpenAI-compatible API) and `seed` on the Anthropic Messages wire. Declaring either there is a
 * located error at the parameter, so a pin never claims a sampling setting its model never gets.
 */
import { defaultWireFor, type ProviderWire } from '../../runtime/runtime-config';
import type { Finding } from '../diagnostic';
import type { SemanticRule } from './rule';

const RULE = 'sampling-params';

/** The portable parameters a wire's client cannot send, each with why and what to do instead. */
export const DROPPED_SAMPLING_PARAMS: Readonly<
  Record<ProviderWire, Readonly<Record<string, { why: string; instead: string }>>>
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
      const wire: ProviderWire = defaultWireFor(pin.providerId) ?? 'openai-chat';
      const dropped = DROPPED_SAMPLING_PARAMS[wire];
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
