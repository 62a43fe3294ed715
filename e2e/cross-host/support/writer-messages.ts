/**
 * What the cross-host A2A tests send the agentic example fallback-writer through the official
 * @a2a-js/sdk client: its stub model's script (one tool round, then the answer) and a SendMessage
 * request of one text part, as the SDK types it.
 */
import { Role, type SendMessageRequest, type Task } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import type { ScriptTurn, TurnContext } from '../../../plugin/runtime/__test-support__/stub-provider';

export const WRITER_ANSWER = JSON.stringify({
  path: 'src/a.ts',
  applied: true,
  diff: '@@ -1 +1 @@\n-a\n+b\n',
  lines: 1,
});

/** One tool round, then the answer. */
export function writerTurn(_index: number, ctx: TurnContext): ScriptTurn {
  if (ctx.lastToolResults.length === 0)
    return { toolCalls: [{ name: 'apply_unified_diff', arguments: { source: 'a\n', diff: '@@ -1 +1 @@\n-a\n+b\n' } }] };
  return { text: WRITER_ANSWER };
}

/** A SendMessage request as the SDK types it: one text part. */
export function userMessage(
  text: string,
  options: { contextId?: string; taskId?: string; returnImmediately?: boolean } = {},
): SendMessageRequest {
  return {
    tenant: '',
    message: {
      messageId: `m-${text.slice(0, 40)}-${Math.random().toString(36).slice(2)}`,
      contextId: options.contextId ?? '',
      taskId: options.taskId ?? '',
      role: Role.ROLE_USER,
      parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: '' }],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: {
      acceptedOutputModes: [],
      taskPushNotificationConfig: undefined,
      historyLength: undefined,
      returnImmediately: options.returnImmediately ?? false,
    },
    metadata: undefined,
  };
}

/** Sends and answers the Task (a Message instead is an error). */
export async function sendForTask(client: Client, request: SendMessageRequest): Promise<Task> {
  const result = await client.sendMessage(request);
  if (!('status' in result)) throw new Error(`expected a Task, got ${JSON.stringify(result)}`);
  return result as Task;
}
