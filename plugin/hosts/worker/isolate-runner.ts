/**
 * Runs a quarantined child in a fresh isolate of its own: a Worker Loader isolate whose id holds
 * the child's code digest and the parent's run id (so no module state survives between runs),
 * whose `env` holds only the secrets the child needs, and whose `globalOutbound` is the egress
 * gateway with the child's allow-list (or nothing: a child that reaches no origin has no network).
 *
 * On an ordinary Worker the parent uses its own `LOADER` binding. A dynamically loaded parent has
 * no loader of its own (a loader binding cannot be handed to a loaded Worker), so it asks the host
 * that loaded it (`AGENTDEF_ISOLATES`), which checks the code against its host plan first.
 *
 * The child's receipts come back with its result and are delivered here, after the response.
 */
import type { ChildResult } from '../../runtime/composition';
import { RuntimeError } from '../../runtime/errors';
import type { Receipt } from '../../runtime/receipts';
import { deliverReceipt } from '../../runtime/receipts';
import type { WorkerHost } from './agent-deps';
import type { IsolateRunRequest, IsolateServiceLike, IsolateSpec, WorkerCode, WorkerLoaderLike } from './host-types';
import { ISOLATE_MAIN_MODULE, ISOLATE_RUN_URL, ISOLATE_SERVICE_BINDING, LOADER_BINDING } from './host-types';

export async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
}

const digests = new Map<string, Promise<string>>();

/** `sha-256:<hex>` of an isolate module, computed once per isolate. */
export function codeDigest(source: string): Promise<string> {
  let digest = digests.get(source);
  if (!digest) {
    digest = sha256Hex(source).then((hex) => `sha-256:${hex}`);
    digests.set(source, digest);
  }
  return digest;
}

/** The isolate id: the code, the node and the parent's run, so each parent run gets a fresh isolate. */
export function isolateId(digest: string, nodeId: string, runId: string): string {
  return `${digest.slice('sha-256:'.length, 'sha-256:'.length + 32)}:${nodeId}#${runId}`;
}

interface IsolateReply {
  result?: ChildResult;
  receipts?: Receipt[];
  error?: string;
}

export async function runIsolate<E extends Record<string, unknown>>(
  spec: IsolateSpec,
  request: IsolateRunRequest,
  host: WorkerHost<E>,
): Promise<ChildResult> {
  const digest = await codeDigest(spec.source);
  const id = isolateId(digest, spec.nodeId, request.runId);
  const env: Record<string, unknown> = {};
  for (const name of spec.secrets) {
    const value = host.env[name];
    if (typeof value === 'string') env[name] = value;
  }
  // A loaded parent's children get the isolate service from the host (runPlannedIsolate), so a
  // quarantined grandchild can start too: a service stub is not passed through RPC (workerd
  // 1.20260426 refuses to serialize one without the experimental flag).
  const code: WorkerCode = {
    compatibilityDate: spec.compatibilityDate,
    compatibilityFlags: [...spec.compatibilityFlags],
    mainModule: ISOLATE_MAIN_MODULE,
    modules: { [ISOLATE_MAIN_MODULE]: spec.source },
    env,
    ...(spec.cpuMs !== undefined ? { limits: { cpuMs: spec.cpuMs } } : {}),
  };
  const payload = JSON.stringify(request);
  const loader = host.env[LOADER_BINDING] as WorkerLoaderLike | undefined;
  const service = host.env[ISOLATE_SERVICE_BINDING] as IsolateServiceLike | undefined;
  let text: string;
  if (loader && typeof loader.get === 'function') {
    let globalOutbound: WorkerCode['globalOutbound'] = null;
    if (spec.egress.length > 0) {
      const gateway = host.exports?.AgentdefEgress;
      if (!gateway)
        throw new RuntimeError(
          'composition_failed',
          `child ${spec.nodeId} needs the network but this Worker exports no egress gateway`,
        );
      globalOutbound = gateway({ props: { allow: [...spec.egress] } });
    }
    const stub = loader.get(id, () => ({ ...code, globalOutbound }));
    const response = await stub
      .getEntrypoint()
      .fetch(ISOLATE_RUN_URL, { method: 'POST', headers: { 'content-type': 'application/json' }, body: payload });
    text = await response.text();
  } else if (service && typeof service.run === 'function') {
    text = await service.run({ nodeId: spec.nodeId, isolateId: id, code, payload });
  } else {
    throw new RuntimeError(
      'composition_failed',
      `child ${spec.nodeId} is quarantined, but this Worker has no Worker Loader binding (${LOADER_BINDING})`,
    );
  }
  let reply: IsolateReply;
  try {
    reply = JSON.parse(text) as IsolateReply;
  } catch {
    throw new RuntimeError(
      'composition_failed',
      `child ${spec.nodeId}: its isolate answered with something that is not JSON`,
    );
  }
  const sink = host.sink;
  if (sink) for (const receipt of reply.receipts ?? []) deliverReceipt(receipt, sink, { waitUntil: host.waitUntil });
  if (!reply.result)
    throw new RuntimeError(
      'composition_failed',
      `child ${spec.nodeId}: its isolate failed (${reply.error ?? 'no result'})`,
    );
  return reply.result;
}
