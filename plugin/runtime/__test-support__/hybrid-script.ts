/**
 * The scripted support desk the hybrid-leaf tests run on every host: one function of the request's
 * text, so any number of stub providers (any wire format) answer the same way in any order.
 * - the router prompt: `billing` when the task mentions an invoice or a charge, else `technical`
 *   (a task that mentions "gibberish" gets a reply that names no label, so the default answers);
 * - the grader prompt: a pass exactly when the answer ends with a "Next step:" line, else a fail
 *   of invariant 2 with a critique (a task that mentions "unjudgeable" gets prose, no verdict);
 * - anything else is a specialist: a first answer with no next step (so the evaluator fails it),
 *   and after a critique an answer that ends with one (so the retry passes). A task that mentions
 *   "stubborn" never gets a next step, so retries and the escalation fail too; one that asks
 *   "what should I do" gets it in its first answer (so the evaluator passes it first time).
 */
import { GRADER_SYSTEM_PROMPT } from '../hybrid/grade';
import { ROUTER_SYSTEM_PROMPT } from '../hybrid/route';
import type { RuntimeConfig, RuntimeHybrid } from '../runtime-config';
import { baseConfig, pin } from './configs';
import type { ScriptTurn, StubServer, TurnContext } from './stub-provider';
import { startScriptedProvider } from './stub-provider';

export const SUPPORT_SECRETS = {
  OPENAI_API_KEY: 'sk-test-hybrid-0000000000',
  ANTHROPIC_API_KEY: 'sk-ant-test-hybrid-000000',
};

export function supportDeskTurn(_index: number, ctx: TurnContext): ScriptTurn {
  const text = ctx.allText;
  if (text.includes(ROUTER_SYSTEM_PROMPT)) {
    if (/gibberish/i.test(text)) return { text: 'I am not sure which team should take this.' };
    return { text: /invoice|charge/i.test(text.split('Task:').pop() ?? '') ? 'billing' : 'technical' };
  }
  if (text.includes(GRADER_SYSTEM_PROMPT)) {
    if (/unjudgeable/i.test(text)) return { text: 'Looks fine to me overall.' };
    const answer = text.split('Answer:\n').pop() ?? '';
    const pass = /Next step: .+\s*$/.test(answer.trim());
    return {
      text: JSON.stringify({
        pass,
        score: pass ? 1 : 0.67,
        critique: pass ? '' : 'End the reply with one concrete next step for the customer.',
        criteria: [
          { index: 0, pass: true, reason: 'It addresses the question.' },
          { index: 1, pass: true, reason: 'It asks for no secret.' },
          { index: 2, pass, reason: pass ? 'It ends with a next step.' : 'There is no next step.' },
        ],
      }),
    };
  }
  const model = String(ctx.body?.model ?? 'model');
  const retried = text.includes('A reviewer rejected your previous answer.');
  const reply = `[${model}] Thanks for the details; this is what happened with your account.`;
  const eager = /what should I do/i.test(text);
  if ((retried || eager) && !/stubborn/i.test(text))
    return { text: `${reply}\nNext step: reply to this email with the invoice number.` };
  return { text: reply };
}

export const SUPPORT_INVARIANTS = [
  "The reply addresses the customer's actual question.",
  'The reply never asks for a password, a full card number or an API key.',
  'The reply ends with one concrete next step for the customer.',
];

/**
 * The support desk as a runtime config (classifier `triage` → specialists `billing`, `technical` →
 * evaluator `reviewer`, one retry then escalation to `technical`, as examples/support-triage pins
 * it) on two scripted stubs, OpenAI and Anthropic, that check their keys like the real APIs.
 */
export async function startSupportDesk(
  hybrid: Partial<RuntimeHybrid> = {},
  limits: RuntimeConfig['limits'] = {},
  script: typeof supportDeskTurn = supportDeskTurn,
): Promise<{ config: RuntimeConfig; stubs: StubServer[] }> {
  const openai = await startScriptedProvider({
    wire: 'openai-chat',
    apiKey: SUPPORT_SECRETS.OPENAI_API_KEY,
    script,
  });
  const anthropic = await startScriptedProvider({
    wire: 'anthropic-messages',
    apiKey: SUPPORT_SECRETS.ANTHROPIC_API_KEY,
    script,
  });
  const config = baseConfig({
    models: [
      pin('openai-chat', openai.baseUrl, { role: 'classifier', name: 'triage' }),
      pin('anthropic-messages', anthropic.baseUrl, {
        role: 'specialist',
        name: 'billing',
        model: 'claude-haiku-4-5-20251001',
      }),
      pin('openai-chat', openai.baseUrl, { role: 'specialist', name: 'technical', model: 'gpt-4o-2024-08-06' }),
      pin('anthropic-messages', anthropic.baseUrl, { role: 'evaluator', name: 'reviewer' }),
    ],
    tools: [],
    limits,
    hybrid: {
      route: {
        by: 0,
        routes: [
          { label: 'billing', to: 1, description: 'Invoices and charges.' },
          { label: 'technical', to: 2 },
        ],
        default: 2,
      },
      evaluate: { by: 3, invariants: SUPPORT_INVARIANTS, maxRetries: 1, escalateTo: 2 },
      ...hybrid,
    },
  });
  return { config, stubs: [openai, anthropic] };
}
