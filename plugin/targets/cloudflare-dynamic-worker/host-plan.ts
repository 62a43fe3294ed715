/**
 * Builds `host-plan.json` (see plugin/host-contract/worker-host-plan.ts for its meaning) from the layout,
 * the binding plan and the bundled code. Its id joins the plan digest and the code digest, so a
 * changed definition or a changed bundle is a new isolate (the Worker Loader caches by id).
 */
import { sha256Hex } from '../../compiler/canonical-json';
import type { CompilePlan } from '../../compiler/plan';
import type { BindingPlan } from './binding-plan';
import type { HostPlan } from '../../host-contract/worker-host-plan';
import { HOST_PLAN_TARGET, HOST_PLAN_VERSION } from '../../host-contract/worker-host-plan';
import { COMPATIBILITY_DATE, COMPATIBILITY_FLAGS, FILES } from './worker-constants';
import type { WorkerLayout } from './worker-layout';

export function hostPlanId(plan: CompilePlan, workerCode: string): string {
  return `${plan.root.slug}@${plan.root.version}:${plan.digest.slice(0, 16)}:${sha256Hex(workerCode).slice(0, 16)}`;
}

export function buildHostPlan(
  plan: CompilePlan,
  layout: WorkerLayout,
  bindings: BindingPlan,
  workerCode: string,
  isolateCode: ReadonlyMap<number, string>,
): HostPlan {
  const root = layout.isolates.get(0)!;
  return {
    hostPlanVersion: HOST_PLAN_VERSION,
    target: HOST_PLAN_TARGET,
    agent: { slug: plan.root.slug, version: plan.root.version },
    planDigest: plan.digest,
    id: hostPlanId(plan, workerCode),
    workerCode: {
      compatibilityDate: COMPATIBILITY_DATE,
      compatibilityFlags: [...COMPATIBILITY_FLAGS],
      ...(root.cpuMs !== undefined ? { limits: { cpuMs: root.cpuMs } } : {}),
      mainModule: FILES.worker,
      modules: { [FILES.worker]: workerCode },
      env: {},
    },
    bindings: bindings.bindings,
    egress: { globalOutbound: root.egress.length > 0 ? 'egress-gateway' : 'blocked', allow: [...root.egress] },
    isolates: layout.bundleOrder
      .filter((entry) => entry !== 0)
      .map((entry) => {
        const isolate = layout.isolates.get(entry)!;
        return {
          nodeId: layout.nodes[entry]!.nodeId,
          codeDigest: `sha-256:${sha256Hex(isolateCode.get(entry)!)}`,
          egress: { allow: [...isolate.egress] },
          secrets: [...isolate.secrets],
          ...(isolate.cpuMs !== undefined ? { cpuMs: isolate.cpuMs } : {}),
        };
      })
      .sort((a, b) => (a.nodeId < b.nodeId ? -1 : 1)),
    ...(bindings.receiptSink ? { receiptSink: bindings.receiptSink } : {}),
  };
}
