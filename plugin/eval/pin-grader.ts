/**
 * The `Grade` of `agentdef eval` (observation.ts): a model-graded assertion is judged by one of
 * the definition's own model pins, asked with exactly the prompt the runtime's `evaluator` pin uses
 * (`gradingMessages` / `readVerdict` of plugin/runtime/hybrid/grade.ts), so a recording made by one
 * replays for the other. Which pin: the one the assertion (or the case file) names, a grader the
 * file declares (`graders`, file-grader-pin.ts) first, else a pin of the definition (`modelSet[].name`,
 * else its `modelId`),
 * else the definition's `evaluator` pin, else its `primary` pin (the agent grading itself; the
 * grader line says so). The pins are the compiled runtime pins, their base URLs settled and sent
 * through the session's record/replay server as the hosts' are (model-endpoints.ts), so a grader
 * call is recorded and replayed like every other model exchange.
 * Never throws: no such pin or a transport error is the result's error; an unreadable reply is no verdict.
 */
import { createModelClient } from '../runtime/providers/create-model-client';
import type { RuntimeModelPin } from '../runtime/runtime-config';
import { fileGraderPin } from './file-grader-pin';
import type { ModelClient } from '../runtime/providers/model-turn';
import { modelGrade } from './model-grade';
import type { Grade, GradeRequest } from './observation';

export interface PinGraderOptions {
  /** The runtime pins, in the definition's `modelSet` order. */
  pins: readonly RuntimeModelPin[];
  /** `modelSet[i].name` (undefined where unnamed) and `modelSet[i].modelId` of each pin, same order. */
  names: readonly { name?: string | undefined; modelId: string }[];
  /**
   * Settles a grader the case's file declares (the request's `pin`, made a runtime pin by
   * file-grader-pin.ts) as `pins` were: its base URL overridden and routed through the session.
   */
  settle?: (pin: RuntimeModelPin) => RuntimeModelPin;
  /** The pin's API key (undefined for a keyless pin); read only when a pin is used. */
  apiKey(pin: RuntimeModelPin): Promise<string | undefined>;
  fetch?: typeof fetch;
}

/** The pin a request names, or the evaluator (else primary) pin; a string says why there is none. */
export function graderPin(
  request: Pick<GradeRequest, 'grader' | 'pin'>,
  options: Pick<PinGraderOptions, 'pins' | 'names' | 'settle'>,
): { pin: RuntimeModelPin; label: string } | string {
  const { pins, names } = options;
  const labelOf = (i: number) => names[i]?.name ?? `${pins[i]!.role} pin ${pins[i]!.model}`;
  if (request.pin !== undefined) {
    const declared = fileGraderPin(request.pin);
    return { pin: options.settle ? options.settle(declared) : declared, label: request.pin.name };
  }
  if (request.grader !== undefined) {
    const byName = names.findIndex((n) => n.name === request.grader);
    const index = byName >= 0 ? byName : names.findIndex((n) => n.modelId === request.grader);
    if (index < 0 || pins[index] === undefined)
      return `no model pin is named "${request.grader}" (by modelSet[].name or modelId): name one, or drop grader to use the evaluator pin`;
    return { pin: pins[index]!, label: names[index]?.name ?? request.grader };
  }
  for (const role of ['evaluator', 'primary'] as const) {
    const index = pins.findIndex((p) => p.role === role);
    if (index >= 0) return { pin: pins[index]!, label: labelOf(index) };
  }
  return pins.length > 0
    ? { pin: pins[0]!, label: labelOf(0) }
    : 'the definition has no model pin to grade with: add an evaluator pin to modelSet';
}

/**
 * The eval `Grade` over the definition's pins (and the graders a cases file declares): each request
 * picks its pin (graderPin) and is asked through modelGrade (model-grade.ts: the runtime evaluator's
 * prompt, `readVerdict`, a failure's code only), with the pin's key read when the call is made.
 */
export function pinGrader(options: PinGraderOptions): Grade {
  return modelGrade((request) => {
    const chosen = graderPin(request, options);
    if (typeof chosen === 'string') return { error: { code: 'grader_unknown', message: chosen } };
    const { pin } = chosen;
    const client: ModelClient = {
      wire: pin.wire,
      model: pin.model,
      complete: async (modelRequest) => {
        const apiKey = await options.apiKey(pin);
        return createModelClient(pin, {
          fetch: options.fetch ?? fetch,
          ...(apiKey !== undefined ? { apiKey } : {}),
        }).complete(modelRequest);
      },
    };
    return { client, grader: chosen.label };
  });
}
