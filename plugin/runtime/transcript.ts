/**
 * The loop's working context: the task (the user's message), notes that compaction leaves behind
 * (a summary, stubs for dropped or quarantined steps), and one group per step (the assistant turn
 * and the tool results it asked for). Groups are the unit of compaction, so a tool call is never
 * separated from its result (providers reject orphaned results).
 */
import type { ChatMessage, ToolSpec } from './providers/model-turn';

export interface Transcript {
  task: string;
  notes: string[];
  groups: ChatMessage[][];
}

export function newTranscript(task: string): Transcript {
  return { task, notes: [], groups: [] };
}

export function renderMessages(transcript: Transcript): ChatMessage[] {
  const head = transcript.notes.length === 0 ? transcript.task : `${transcript.task}\n\n${transcript.notes.join('\n')}`;
  return [{ role: 'user', content: head }, ...transcript.groups.flat()];
}

/** Token estimate: characters / 4, rounded up, over everything a request would carry. */
export function estimateTokens(parts: { system?: string; messages: ChatMessage[]; tools?: ToolSpec[] }): number {
  let chars = parts.system?.length ?? 0;
  for (const message of parts.messages) {
    chars += message.content.length;
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? [])
        chars +=
          call.name.length +
          (call.arguments ? JSON.stringify(call.arguments).length : (call.rawArguments?.length ?? 0));
    }
  }
  for (const tool of parts.tools ?? [])
    chars += tool.name.length + tool.description.length + JSON.stringify(tool.inputSchema).length;
  return Math.ceil(chars / 4);
}

/** A plain-text rendering of steps, for a summariser model or a quarantine record. */
export function renderGroups(groups: ChatMessage[][]): string {
  const lines: string[] = [];
  for (const group of groups) {
    for (const message of group) {
      if (message.role === 'assistant') {
        if (message.content) lines.push(`assistant: ${message.content}`);
        for (const call of message.toolCalls ?? [])
          lines.push(
            `assistant called ${call.name}(${call.arguments ? JSON.stringify(call.arguments) : (call.rawArguments ?? '')})`,
          );
      } else if (message.role === 'tool')
        lines.push(`${message.name} returned${message.isError ? ' an error' : ''}: ${message.content}`);
      else lines.push(`user: ${message.content}`);
    }
  }
  return lines.join('\n');
}
