/**
 * A tiny Worker entry for the workerd test, shaped like what the cloudflare adapter emits: the
 * runtime config arrives as a JSON binding, secrets are `env` bindings, receipts go to a service
 * binding, background work runs under `ctx.waitUntil`. Bundled by esbuild inside the test.
 */
import { createA2aHandler } from '../a2a-handler';
import type { ToolHandler } from '../agent-loop';
import type { RuntimeConfig } from '../runtime-config';

interface Env {
  AGENT_CONFIG: string;
  RECEIPTS: { fetch(input: string, init?: RequestInit): Promise<Response> };
  [binding: string]: unknown;
}

interface Ctx {
  waitUntil(promise: Promise<unknown>): void;
}

const tools: Record<string, ToolHandler> = {
  'calc.add': (args) => ({ sum: Number(args['a']) + Number(args['b']) }),
  'calc.mul': (args) => ({ product: Number(args['a']) * Number(args['b']) }),
  'web.get': async (args, ctx) => (await ctx.fetch(String(args['url']))).text(),
};

let handler:
  | ((request: Request, perRequest?: { waitUntil?: (p: Promise<unknown>) => void }) => Promise<Response>)
  | undefined;

export default {
  async fetch(request: Request, env: Env, ctx: Ctx): Promise<Response> {
    handler ??= createA2aHandler(JSON.parse(env.AGENT_CONFIG) as RuntimeConfig, {
      secrets: (name) => (typeof env[name] === 'string' ? (env[name] as string) : undefined),
      tools,
      receipts: {
        sink: {
          put: async (receipt) => {
            await env.RECEIPTS.fetch('http://receipts.internal/put', { method: 'POST', body: JSON.stringify(receipt) });
          },
        },
      },
      log: (event) => console.log(JSON.stringify(event)),
    });
    return handler(request, { waitUntil: (p) => ctx.waitUntil(p) });
  },
};
