/**
 * A grader a cases file declares itself (`graders: [{ name, providerId, modelId, modelVersion,
 * samplingParams? }]`, so that an agent without a model of its own, or one whose own pins should
 * not judge it, can still have model-graded assertions) as the runtime pin the eval grader asks:
 * the wire and exact model id its provider implies, as the compiler derives them for a definition's
 * pins (runtime-config.ts), and the conventional secret binding of a remote provider
 * (`AGENTDEF_SECRET_<PROVIDER>_API_KEY`; a local Ollama needs none). Its base URL is settled and
 * sent through the record/replay session like every other pin.
 */
import { providerKeyName } from '../definition/provider-keys';
import { wireModelId } from '../definition/rules/exact-models';
import { defaultWireFor, type RuntimeModelPin, type RuntimeSampling } from '../runtime/runtime-config';
import type { GraderPin } from '../schema/generated/eval-cases.types';

export function fileGraderPin(grader: GraderPin): RuntimeModelPin {
  const local = grader.providerId === 'local-ollama';
  return {
    role: 'evaluator',
    name: grader.name,
    providerId: grader.providerId,
    // Custom providers are served behind an OpenAI-compatible API, as for a definition's pins.
    wire: defaultWireFor(grader.providerId) ?? 'openai-chat',
    model: wireModelId({ providerId: grader.providerId, modelId: grader.modelId, modelVersion: grader.modelVersion })
      .id,
    modelVersion: grader.modelVersion,
    sampling: { ...(grader.samplingParams ?? {}) } as RuntimeSampling,
    ...(local ? {} : { secretBinding: providerKeyName(grader.providerId) }),
  };
}
