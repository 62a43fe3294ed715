/**
 * A child agent's Worker, loaded by the parent through the Worker Loader. It runs one agent run
 * with the parent's run id and returns the result (with its signed receipt). `isolateRuns` counts
 * runs in this isolate: a quarantined child always reports 1.
 */
import type { ToolHandler } from '../agent-loop';
import { runAgent } from '../run-agent';
import type { RuntimeConfig } from '../runtime-config';

let isolateRuns = 0;

const tools: Record<string, ToolHandler> = {
  'classify.tool': (args) => ({ kind: String(args['text']).includes('sum') ? 'math' : 'poem', text: args['text'] }),
  'upper.tool': (args) => `${String(args['text']).toUpperCase()} (isolate run ${isolateRuns})`,
  'net.tool': async (_args, ctx) => (await ctx.fetch('https://allowed.example.com/')).text(),
};

export default {
  async fetch(request: Request, env: { CHILD_CONFIG: string; RECEIPT_SIGNING_JWK: string }): Promise<Response> {
    isolateRuns++;
    const { input, runId, composedIn } = (await request.json()) as {
      input: { text: string };
      runId: string;
      composedIn: { card: string; cardVersion: string };
    };
    const config = JSON.parse(env.CHILD_CONFIG) as RuntimeConfig;
    const result = await runAgent(
      config,
      input,
      { secrets: { RECEIPT_SIGNING_JWK: env.RECEIPT_SIGNING_JWK }, tools },
      { runId, composedIn },
    );
    return new Response(JSON.stringify(result), { headers: { 'content-type': 'application/json' } });
  },
};
