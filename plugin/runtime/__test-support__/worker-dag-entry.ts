/**
 * A composed agent on Workers, for the quarantine test: the parent Worker serves A2A and runs its
 * children through the Worker Loader binding. A quarantined child gets a fresh isolate per parent
 * run (its isolate id includes the run id) with no network (`globalOutbound: null`); its receipt
 * comes back with its result and the parent forwards it to the receipt sink.
 */
import { createA2aHandler } from '../a2a-handler';
import type { ChildRunner } from '../composition';
import type { Receipt } from '../receipts';
import type { RuntimeConfig } from '../runtime-config';

interface WorkerStub {
  getEntrypoint(): { fetch(request: Request): Promise<Response> };
}

interface Env {
  AGENT_CONFIG: string;
  CHILD_CONFIGS: string;
  CHILD_CODE: string;
  RECEIPT_SIGNING_JWK: string;
  LOADER: { get(id: string, code: () => unknown): WorkerStub };
  RECEIPTS: { fetch(input: string, init?: RequestInit): Promise<Response> };
}

interface Ctx {
  waitUntil(promise: Promise<unknown>): void;
}

const putReceipt = (env: Env, receipt: Receipt) =>
  env.RECEIPTS.fetch('http://receipts.internal/put', { method: 'POST', body: JSON.stringify(receipt) }).then(
    () => undefined,
  );

export default {
  async fetch(request: Request, env: Env, ctx: Ctx): Promise<Response> {
    const childConfigs = JSON.parse(env.CHILD_CONFIGS) as Record<string, RuntimeConfig>;
    const runChild: ChildRunner = async (child, input, context) => {
      const key = `${child.slug}@${child.version}`;
      const isolateId = context.quarantine ? `${key}#${context.runId}` : key;
      const worker = env.LOADER.get(isolateId, () => ({
        compatibilityDate: '2026-04-26', // the compiler's COMPATIBILITY_DATE: workerd refuses a date after its own build
        mainModule: 'child.js',
        modules: { 'child.js': env.CHILD_CODE },
        env: { CHILD_CONFIG: JSON.stringify(childConfigs[key]), RECEIPT_SIGNING_JWK: env.RECEIPT_SIGNING_JWK },
        globalOutbound: null,
      }));
      const response = await worker.getEntrypoint().fetch(
        new Request('http://child.internal/run', {
          method: 'POST',
          body: JSON.stringify({
            input,
            runId: context.runId,
            composedIn: { card: context.parent.slug, cardVersion: context.parent.version },
          }),
        }),
      );
      const result = (await response.json()) as Awaited<ReturnType<ChildRunner>> & { receipt?: Receipt };
      if (result.receipt) ctx.waitUntil(putReceipt(env, result.receipt));
      return result;
    };
    const handler = createA2aHandler(JSON.parse(env.AGENT_CONFIG) as RuntimeConfig, {
      secrets: { RECEIPT_SIGNING_JWK: env.RECEIPT_SIGNING_JWK },
      runChild,
      receipts: { sink: { put: (receipt) => putReceipt(env, receipt) } },
    });
    return handler(request, { waitUntil: (p) => ctx.waitUntil(p) });
  },
};
