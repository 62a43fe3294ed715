/**
 * Routing inside a leaf: the `router` (or `classifier`) pin is shown the routing rule's labels and
 * answers with one of them; the label names the pin that answers. The one prompt and the one way
 * of reading the reply, so a recorded exchange routes the same way on every host.
 *
 * A reply is read as a label when, trimmed and lower-cased (quotes, backticks and a final full stop
 * removed), it equals a label, or it is a JSON object whose `label` is one. Anything else goes to
 * the rule's default, and the run records that the reply named no label.
 */
import type { ChatMessage } from '../providers/model-turn';

export interface RouteOption {
  label: string;
  description?: string;
}

export interface RouteChoice {
  /** The label the reply named, or the default's label when it named none. */
  label: string | undefined;
  /** False when the reply named no label and the default answered. */
  recognised: boolean;
}

export const ROUTER_SYSTEM_PROMPT =
  'You route a task to the one handler that fits it best. Reply with exactly one label from the list and nothing else.';

export function routingMessages(options: RouteOption[], task: string): { system: string; messages: ChatMessage[] } {
  const labels = options.map((o) => (o.description ? `- ${o.label}: ${o.description}` : `- ${o.label}`)).join('\n');
  return {
    system: ROUTER_SYSTEM_PROMPT,
    messages: [{ role: 'user', content: `Labels:\n${labels}\n\nTask:\n${task}` }],
  };
}

export function readRoute(text: string, options: RouteOption[]): RouteChoice {
  const labels = new Map(options.map((o) => [o.label.toLowerCase(), o.label]));
  const plain = normalise(text);
  const direct = labels.get(plain);
  if (direct !== undefined) return { label: direct, recognised: true };
  const trimmed = text.trim();
  if (trimmed.startsWith('{') && trimmed.length <= 4096) {
    try {
      const value = JSON.parse(trimmed) as unknown;
      if (value !== null && typeof value === 'object' && typeof (value as { label?: unknown }).label === 'string') {
        const named = labels.get(normalise((value as { label: string }).label));
        if (named !== undefined) return { label: named, recognised: true };
      }
    } catch {
      // not JSON: no label
    }
  }
  return { label: undefined, recognised: false };
}

function normalise(text: string): string {
  return text
    .trim()
    .replace(/^["'`]+|["'`.]+$/g, '')
    .trim()
    .toLowerCase();
}
