/**
 * Turns a compiled agent module into the runtime's `RunDeps` on a Worker: secrets from `env` by
 * binding name, the agent's bundled tools, the receipt sink, and a child runner that runs each
 * child either as a module in this isolate or, when the parent asked for quarantine, in a fresh
 * isolate of its own (see isolate-runner.ts). Runs use only the runtime parts the agent module
 * names (`runAgentWithParts`), so the Worker bundles nothing its agents do not use.
 */
import type { RuntimeLogEvent } from '../../runtime/agent-loop';
import type { ChildRunner } from '../../runtime/composition';
import { RuntimeError } from '../../runtime/errors';
import type { RunDeps } from '../../runtime/run-agent';
import { runAgentWithParts } from '../../runtime/run-agent';
import type { AgentModule, ChildHost, ChildModule, FetcherLike, LoopbackExports } from './host-types';
import { runIsolate } from './isolate-runner';
import { UNREGISTERED_DEPLOYMENT_ENV } from '../../runtime/agent-card';

/**
 * What the Worker gives the glue: its `env`, its loopback entrypoints, the request's `waitUntil`
 * (from `cloudflare:workers`, or `ctx.waitUntil`), the receipt sink and the log.
 */
export type WorkerHost<E> = ChildHost<E>;

/** `ctx.exports` of a handler's context, when the runtime provides it (typed structurally: not every workers-types version declares it). */
export function loopbackExports(ctx: unknown): LoopbackExports | undefined {
  const exports = (ctx as { exports?: unknown } | null | undefined)?.exports;
  return exports !== null && typeof exports === 'object' ? (exports as LoopbackExports) : undefined;
}

/** The run events a compiled Worker logs: one line per run (how it ended) and every problem. */
export const LOGGED_EVENTS: ReadonlySet<string> = new Set([
  'run.end',
  'egress.blocked',
  'telemetry.blocked',
  'telemetry.export_failed',
  'receipt.failed',
  'receipt.delivery_failed',
  'rpc.internal_error',
  'http.internal_error',
]);

/**
 * How long after its run an isolate's first log line waits: a fresh isolate's first answer leaves
 * within a few milliseconds of the run's end, and workerd hands it over (to the socket, through
 * any front Worker) on the same thread the formatter would load on. Measured: with 0 ms part of
 * the formatter's cost still landed before the answer on a loaded machine.
 */
const FIRST_LINE_DELAY_MS = 10;

/**
 * The log lines of this isolate, written with `console.log` in the order they come. The isolate's
 * first `console.log` costs the most: workerd loads its console formatter then (Node's `inspect`
 * and the modules it needs, ≈ 2–3 ms in a fresh isolate), so a line that comes with a request's
 * `waitUntil` and finds the isolate's console not yet used is written {@link FIRST_LINE_DELAY_MS}
 * later, once the response is handed over, with every line that comes meanwhile after it; later
 * lines are written at once, as before.
 */
export function createLogLines(write: (line: string) => void = (line) => console.log(line)) {
  let used = false;
  /** Lines waiting for the first write, oldest first; undefined when none is scheduled. */
  let waiting: string[] | undefined;
  const flush = () => {
    const lines = waiting ?? [];
    waiting = undefined;
    used = true;
    for (const line of lines) write(line);
  };
  return (line: string, keepAlive?: (promise: Promise<unknown>) => void): void => {
    if (waiting) {
      waiting.push(line);
      return;
    }
    if (used || !keepAlive) {
      used = true;
      write(line);
      return;
    }
    waiting = [line];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const written = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        flush();
        resolve();
      }, FIRST_LINE_DELAY_MS);
    });
    try {
      keepAlive(written);
    } catch {
      // No request to keep alive (the host refused): written now.
      clearTimeout(timer);
      flush();
    }
  };
}

const logLine = createLogLines();

/** Structured run events on the Worker's log (they never carry secrets, prompts or answers). */
export function runtimeLog(event: RuntimeLogEvent): void {
  if (LOGGED_EVENTS.has(event.event)) logLine(JSON.stringify(event));
}

/**
 * `runtimeLog` for the runs of a Worker's requests: the same lines, the isolate's first one written
 * after its response (`createLogLines`), kept alive by `waitUntil` (the request's, from
 * `cloudflare:workers`).
 */
export function runtimeLogAfterResponse(
  waitUntil: (promise: Promise<unknown>) => void,
): (event: RuntimeLogEvent) => void {
  return (event) => {
    if (LOGGED_EVENTS.has(event.event)) logLine(JSON.stringify(event), waitUntil);
  };
}

/** A service binding's `fetch` as a plain fetch function (for MCP tools reached through a binding). */
export function serviceFetch(env: Record<string, unknown>, name: string): typeof fetch {
  return (input, init) => {
    const service = env[name] as FetcherLike | undefined;
    if (!service || typeof service.fetch !== 'function')
      return Promise.reject(new RuntimeError('tool_unavailable', `service binding ${name} is not configured`));
    return service.fetch(input instanceof URL ? input.toString() : input, init);
  };
}

export function secretsOf(env: Record<string, unknown>): (name: string) => string | undefined {
  return (name) => {
    const value = env[name];
    return typeof value === 'string' ? value : undefined;
  };
}

function childFor<E>(
  agent: AgentModule<E>,
  nodeId: string | undefined,
  slug: string,
  version: string,
): ChildModule<E> | undefined {
  if (nodeId !== undefined && agent.children[nodeId]) return agent.children[nodeId];
  const suffix = `/${slug}@${version}`;
  const matches = Object.entries(agent.children).filter(([id]) => id.endsWith(suffix));
  return matches.length === 1 ? matches[0]![1] : undefined;
}

export function childRunner<E extends Record<string, unknown>>(
  agent: AgentModule<E>,
  host: WorkerHost<E>,
): ChildRunner {
  return async (child, input, context) => {
    const entry = childFor(agent, child.nodeId, child.slug, child.version);
    if (!entry)
      throw new RuntimeError(
        'composition_failed',
        `no compiled child ${child.slug}@${child.version} in ${agent.nodeId}`,
      );
    const composedIn = { card: context.parent.slug, cardVersion: context.parent.version };
    if (entry.kind === 'module') {
      return runAgentWithParts(
        entry.agent.config,
        input,
        { ...nodeDeps(entry.agent, host), waitUntil: host.waitUntil },
        { runId: context.runId, signal: context.signal, composedIn },
      );
    }
    return runIsolate(
      entry.isolate,
      { input, runId: context.runId, composedIn, remainingMs: context.remainingMs },
      host,
    );
  };
}

/**
 * What a node's run (and, for the root, its A2A handler) takes from the Worker: the agent's parts,
 * secrets, tools, the receipt sink, log and telemetry; and, when the deployment set the
 * unregistered-deployment var (`deploy --allow-unregistered`), the served card's mark.
 */
export function nodeDeps<E extends Record<string, unknown>>(
  agent: AgentModule<E>,
  host: WorkerHost<E>,
): RunDeps & { unregisteredDeployment?: true } {
  const deps: RunDeps & { unregisteredDeployment?: true } = {
    ...agent.parts,
    secrets: secretsOf(host.env),
    tools: agent.tools(host.env),
  };
  if (host.env[UNREGISTERED_DEPLOYMENT_ENV] === '1') deps.unregisteredDeployment = true;
  if (host.sink) deps.receipts = { sink: host.sink };
  if (host.log) deps.log = host.log;
  if (host.telemetry) deps.telemetry = host.telemetry;
  if (agent.runChildren && Object.keys(agent.children).length > 0) deps.runChild = agent.runChildren(agent, host);
  return deps;
}
