/**
 * The host side of `loader.js`: it loads the compiled agent from its host plan through the Worker
 * Loader binding and forwards every request to it. The loaded Worker gets the bindings the plan
 * lists (secrets copied by name, service bindings as they are, KV and queues through the loader's
 * RPC proxies, the task store through the loader's `AgentdefTasks`) and, as `globalOutbound`, the loader's egress gateway with the plan's allow-list.
 * A plan for another target, of another version, or without a loader binding fails closed.
 */
import type { EgressProps, FetcherLike, KvLike, QueueLike, WorkerCode, WorkerLoaderLike } from './host-types';
import { ISOLATE_MAIN_MODULE, ISOLATE_SERVICE_BINDING, LOADER_BINDING } from './host-types';
import type { HostPlan } from '../../host-contract/worker-host-plan';
import { HOST_PLAN_TARGET, HOST_PLAN_VERSION } from '../../host-contract/worker-host-plan';
import { codeDigest } from './isolate-runner';
import { CARD_SIGNING_KEY_BINDING, UNREGISTERED_DEPLOYMENT_ENV } from '../../runtime/agent-card';
import { OTLP_ENDPOINT_BINDING, OTLP_HEADERS_BINDING } from './worker-telemetry';

/** The loader's loopback entrypoints (`ctx.exports`) the glue hands out. */
export interface LoaderExports {
  AgentdefEgress(options: { props: EgressProps }): FetcherLike;
  AgentdefIsolates(options: { props: Record<string, never> }): unknown;
  AgentdefKv(options: { props: { binding: string } }): unknown;
  AgentdefQueue(options: { props: { binding: string } }): unknown;
  AgentdefTasks(options: { props: Record<string, never> }): unknown;
}

/** `ctx.exports` of the loader: it must export every entrypoint the host plan may hand out. */
export function loaderExports(ctx: unknown): LoaderExports {
  const exports = (ctx as { exports?: Partial<LoaderExports> } | null | undefined)?.exports;
  if (!exports || typeof exports.AgentdefEgress !== 'function')
    throw new Error('this runtime gives the loader no ctx.exports (needs a compatibility date from 2025-11-17 on)');
  return exports as LoaderExports;
}

const failure = (status: number, error: string, message: string) =>
  new Response(JSON.stringify({ error, message }), { status, headers: { 'content-type': 'application/json' } });

/** Why this plan must not be run here, or undefined when it may. */
export function hostPlanProblem(plan: unknown): string | undefined {
  if (plan === null || typeof plan !== 'object') return 'the host plan is not an object';
  const p = plan as Partial<HostPlan>;
  if (p.hostPlanVersion !== HOST_PLAN_VERSION)
    return `the host plan version is ${JSON.stringify(p.hostPlanVersion)}, this loader runs ${HOST_PLAN_VERSION}`;
  if (p.target !== HOST_PLAN_TARGET)
    return `the host plan is for target ${JSON.stringify(p.target)}, not ${HOST_PLAN_TARGET}`;
  const code = p.workerCode;
  if (
    !code ||
    typeof code.mainModule !== 'string' ||
    typeof code.modules !== 'object' ||
    code.modules === null ||
    typeof code.modules[code.mainModule] !== 'string'
  ) {
    return 'the host plan has no main module';
  }
  if (typeof p.id !== 'string' || p.id === '') return 'the host plan has no id';
  return undefined;
}

/** The loaded Worker's `env`: the plan's plain values plus every binding the plan provides. */
export function loadedEnv(
  plan: HostPlan,
  env: Record<string, unknown>,
  exports: LoaderExports,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...plan.workerCode.env };
  for (const binding of plan.bindings) {
    switch (binding.loader) {
      case 'copy-secret':
        if (typeof env[binding.name] === 'string') out[binding.name] = env[binding.name];
        break;
      case 'pass-through':
        if (env[binding.name] !== undefined) out[binding.name] = env[binding.name];
        break;
      case 'kv-proxy':
        if (env[binding.name] !== undefined)
          out[binding.name] = exports.AgentdefKv({ props: { binding: binding.name } });
        break;
      case 'queue-proxy':
        if (env[binding.name] !== undefined)
          out[binding.name] = exports.AgentdefQueue({ props: { binding: binding.name } });
        break;
      case 'isolate-service':
        out[binding.name] = exports.AgentdefIsolates({ props: {} });
        break;
      case 'task-store-proxy':
        if (env[binding.name] !== undefined) out[binding.name] = exports.AgentdefTasks({ props: {} });
        break;
      case 'not-provided':
        break;
    }
  }
  // The card signing key is optional for every agent (its card is served unsigned without it), so
  // it is no planned binding: the loader's secret of that name, when set, signs the served card.
  if (typeof env[CARD_SIGNING_KEY_BINDING] === 'string') out[CARD_SIGNING_KEY_BINDING] = env[CARD_SIGNING_KEY_BINDING];
  // So is the telemetry collector (worker-telemetry.ts): the loader's var and secret of those names, when set.
  // And the unregistered-deployment var (`deploy --allow-unregistered`): the served card says so.
  for (const name of [OTLP_ENDPOINT_BINDING, OTLP_HEADERS_BINDING, UNREGISTERED_DEPLOYMENT_ENV])
    if (typeof env[name] === 'string') out[name] = env[name];
  return out;
}

function loaderOf(env: Record<string, unknown>): WorkerLoaderLike | undefined {
  const loader = env[LOADER_BINDING] as WorkerLoaderLike | undefined;
  return loader && typeof loader.get === 'function' ? loader : undefined;
}

export async function serveThroughLoader(
  request: Request,
  plan: HostPlan,
  env: Record<string, unknown>,
  exports: LoaderExports,
): Promise<Response> {
  const problem = hostPlanProblem(plan);
  if (problem) return failure(500, 'host_plan_invalid', problem);
  const loader = loaderOf(env);
  if (!loader)
    return failure(500, 'loader_missing', `this host Worker has no Worker Loader binding named ${LOADER_BINDING}`);
  const stub = loader.get(plan.id, () => {
    const { env: _plain, ...code } = plan.workerCode;
    return {
      ...code,
      compatibilityFlags: [...code.compatibilityFlags],
      modules: { ...code.modules },
      env: loadedEnv(plan, env, exports),
      globalOutbound:
        plan.egress.globalOutbound === 'egress-gateway' && plan.egress.allow.length > 0
          ? exports.AgentdefEgress({ props: { allow: [...plan.egress.allow] } })
          : null,
    };
  });
  return stub.getEntrypoint().fetch(request);
}

/**
 * Starts a quarantined child for the loaded Worker: only a child the plan names, only with the
 * code the plan pins, with the plan's (not the caller's) allow-list and CPU limit.
 */
export async function runPlannedIsolate(
  plan: HostPlan,
  env: Record<string, unknown>,
  exports: LoaderExports,
  request: { nodeId: string; isolateId: string; code: WorkerCode; payload: string },
): Promise<string> {
  const refuse = (message: string) => JSON.stringify({ error: `isolate refused: ${message}` });
  const planned = plan.isolates.find((i) => i.nodeId === request.nodeId);
  if (!planned) return refuse(`${request.nodeId} is not a quarantined child in the host plan`);
  const source = request.code.modules[ISOLATE_MAIN_MODULE];
  if (typeof source !== 'string' || Object.keys(request.code.modules).length !== 1) return refuse('unexpected modules');
  if ((await codeDigest(source)) !== planned.codeDigest)
    return refuse(`the code of ${request.nodeId} is not the code the host plan pins`);
  const loader = loaderOf(env);
  if (!loader) return refuse(`no Worker Loader binding named ${LOADER_BINDING}`);
  const childEnv: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(request.code.env ?? {}))
    if (planned.secrets.includes(name) || typeof value !== 'string') childEnv[name] = value;
  // The host's own isolate service, so a quarantined grandchild can start too (as its parent's did).
  if (plan.bindings.some((b) => b.loader === 'isolate-service'))
    childEnv[ISOLATE_SERVICE_BINDING] = exports.AgentdefIsolates({ props: {} });
  const stub = loader.get(request.isolateId, () => ({
    compatibilityDate: request.code.compatibilityDate,
    compatibilityFlags: [...(request.code.compatibilityFlags ?? [])],
    mainModule: ISOLATE_MAIN_MODULE,
    modules: { [ISOLATE_MAIN_MODULE]: source },
    env: childEnv,
    ...(planned.cpuMs !== undefined ? { limits: { cpuMs: planned.cpuMs } } : {}),
    globalOutbound:
      planned.egress.allow.length > 0 ? exports.AgentdefEgress({ props: { allow: [...planned.egress.allow] } }) : null,
  }));
  const response = await stub.getEntrypoint().fetch(
    new Request('https://isolate.agentdef.invalid/run', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: request.payload,
    }),
  );
  return response.text();
}

/** The loader's binding behind a KV or queue proxy entrypoint (only bindings the plan proxies). */
export function proxiedBinding<T extends KvLike | QueueLike>(
  plan: HostPlan,
  env: Record<string, unknown>,
  props: { binding?: string } | undefined,
  kind: 'kv-proxy' | 'queue-proxy',
): T {
  const name = props?.binding;
  if (typeof name !== 'string' || !plan.bindings.some((b) => b.name === name && b.loader === kind))
    throw new Error(`binding ${String(name)} is not proxied by this host plan`);
  const binding = env[name];
  if (binding === undefined || binding === null)
    throw new Error(`binding ${name} is not configured on the host Worker`);
  return binding as T;
}
