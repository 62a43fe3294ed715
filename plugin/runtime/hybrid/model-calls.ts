/**
 * Every model call of a run, in order, with the pin that answered it: the role, the pin's name,
 * the exact model id and version, why it was called, whether it answered and the tokens it used.
 * `recordModelCalls` wraps a pin's client so no call can go unrecorded; the receipt carries the
 * list (no prompt, no answer: the same rule as the rest of the receipt).
 */
import type { RuntimeModelPin } from '../runtime-config';
import type { ModelCallPurpose, ModelClient } from '../providers/model-turn';

export interface ModelCallRecord {
  /** 1-based order across the run. */
  seq: number;
  purpose: ModelCallPurpose;
  role: RuntimeModelPin['role'];
  /** The pin's name, when the definition gives it one. */
  pin?: string;
  providerId: string;
  /** The exact model id sent on the wire. */
  model: string;
  modelVersion: string;
  ok: boolean;
  inputTokens?: number;
  outputTokens?: number;
}

/** A client that appends one record to `calls` per call it makes, answered or not. */
export function recordModelCalls(client: ModelClient, pin: RuntimeModelPin, calls: ModelCallRecord[]): ModelClient {
  return {
    wire: client.wire,
    model: client.model,
    async complete(request) {
      const record: ModelCallRecord = {
        seq: calls.length + 1,
        purpose: request.purpose ?? 'answer',
        role: pin.role,
        ...(pin.name !== undefined ? { pin: pin.name } : {}),
        providerId: pin.providerId,
        model: pin.model,
        modelVersion: pin.modelVersion,
        ok: false,
      };
      calls.push(record);
      const turn = await client.complete(request);
      record.ok = true;
      if (turn.usage?.inputTokens !== undefined) record.inputTokens = turn.usage.inputTokens;
      if (turn.usage?.outputTokens !== undefined) record.outputTokens = turn.usage.outputTokens;
      return turn;
    },
  };
}
