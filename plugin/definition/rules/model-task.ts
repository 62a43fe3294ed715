/**
 * The model gate's runtime half (docs/decisions/0006-model-gate.md): a modelSet pin may be any
 * kind of model (`task`), and every pin counts for the gate (rule `agentic-gate`), but agentdef's
 * runtime calls models through a provider's chat API only, as the leaf's answering, routing or
 * judging pin. A pin whose task is not `chat` would be sent chat turns it cannot answer, so it is
 * refused at the pin with `runtime_capability_mismatch`: the definition is well-formed, the runtime
 * cannot host it. A runtime path for another task (an embedding step, a speech step) adds the task
 * to `RUNTIME_MODEL_TASKS` with the code that calls it.
 */
import type { LlmPin } from '../../schema/generated/agent-definition.types';
import { ERROR_CODES, type Finding } from '../diagnostic';
import type { SemanticRule } from './rule';

const RULE = 'model-task';

/** What a pin does when it names no task. */
export const DEFAULT_MODEL_TASK = 'chat';

/** The tasks agentdef's runtime can call (the providers in plugin/runtime/providers speak chat). */
export const RUNTIME_MODEL_TASKS: readonly string[] = ['chat'];

/** The pin's task, `chat` when it names none. */
export function modelTask(pin: Pick<LlmPin, 'task'>): string {
  return pin.task ?? DEFAULT_MODEL_TASK;
}

export const modelTaskRule: SemanticRule = {
  name: RULE,
  description:
    'Every modelSet pin the runtime would call has task "chat" (the default): an embedding, classification, speech or image model counts for the model gate but cannot be a chat pin.',
  check(definition) {
    const findings: Finding[] = [];
    definition.modelSet.forEach((pin, index) => {
      const task = modelTask(pin);
      if (RUNTIME_MODEL_TASKS.includes(task)) return;
      findings.push({
        code: ERROR_CODES.runtimeMismatch,
        rule: RULE,
        path: `/modelSet/${index}/task`,
        message: `modelSet[${index}] (${pin.providerId}/${pin.modelId}, role ${pin.role}) is ${/^[aeiou]/.test(task) ? 'an' : 'a'} ${task} model, but agentdef's runtime calls every pin through the provider's chat API (as the ${pin.role}); it has no ${task} path, so this pin would receive chat turns it cannot answer.`,
        suggestion: `Pin a chat model for the ${pin.role} role, or call the ${task} model from a tool (an MCP server or tool module) until the runtime supports ${task} pins. The pin still counts for the model gate: an agent with it is "agentic" and registers in KYM.`,
      });
    });
    return findings;
  },
};
