/**
 * The benchmark's baseline: a hand-written minimal Worker doing the work of the compiled
 * text-stats agent, as one would write it without agentdef. It serves the same A2A card and
 * answers `SendMessage` (JSON-RPC, A2A v1.0) with a completed task whose artifact is the
 * text-metrics tool's result; malformed JSON and unknown methods get JSON-RPC errors. No config
 * checks, egress policy, run budget, receipts, logs or task memory: just the work.
 */
import { measureText } from '../../examples/tools/text-metrics';

const CARD_PATH = '/.well-known/agent-card.json';
const RPC_PATH = '/a2a/v1';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function card(origin: string) {
  const url = `${origin}${RPC_PATH}`;
  return {
    name: 'Text stats',
    description: 'A deterministic text-statistics tool under development; no model in its execution path.',
    supportedInterfaces: [
      { url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    ],
    version: '1.0.0',
    capabilities: { streaming: false, pushNotifications: false, extendedAgentCard: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['application/json'],
    skills: [
      {
        id: 'text.stats',
        name: 'Text statistics',
        description: 'Counts characters, words, sentences and paragraphs and computes the Flesch reading-ease score.',
        tags: ['text', 'statistics'],
      },
    ],
  };
}

export default {
  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === CARD_PATH) return json(card(url.origin));
    if (url.pathname !== RPC_PATH || request.method !== 'POST') return json({ error: 'not found' }, 404);
    let body: {
      id?: string | number;
      method?: string;
      params?: { message?: { messageId?: string; contextId?: string; parts?: { text?: string }[] } };
    };
    try {
      body = JSON.parse(await request.text()) as typeof body;
    } catch {
      return json({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Invalid JSON payload' } });
    }
    const id = body.id ?? null;
    if (body.method !== 'SendMessage')
      return json({ jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } });
    const message = body.params?.message;
    const text = (message?.parts ?? []).map((p) => p.text ?? '').join('\n');
    const answer = JSON.stringify(measureText(text));
    const taskId = crypto.randomUUID();
    const contextId = message?.contextId || crypto.randomUUID();
    return json({
      jsonrpc: '2.0',
      id,
      result: {
        task: {
          id: taskId,
          contextId,
          status: { state: 'TASK_STATE_COMPLETED', timestamp: new Date().toISOString() },
          artifacts: [
            {
              artifactId: `${taskId}-answer`,
              name: 'answer',
              parts: [{ text: answer, mediaType: 'application/json' }],
            },
          ],
          history: [
            { messageId: message?.messageId ?? '', contextId, taskId, role: 'ROLE_USER', parts: message?.parts ?? [] },
          ],
        },
      },
    });
  },
};
