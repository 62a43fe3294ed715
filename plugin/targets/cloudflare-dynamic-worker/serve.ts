/**
 * `agentdef dev` for a Cloudflare Worker output: it runs in workerd through miniflare exactly as
 * production runs it: `loader.js` with its host plan and a Worker Loader binding, KV local, secrets
 * from the same sources as the other hosts (keychain, then `AGENTDEF_SECRET_<NAME>`), outbound
 * requests through the loader's egress gateway (dev-worker-host.ts). The served port is the request
 * gate the Node hosts stand behind (dev-worker-front.ts): workerd is reached only through it, so a
 * DNS-rebinding page, a foreign Origin, malformed framing or a stalled body never reach the Worker;
 * its time limits come from `AGENTDEF_HEADERS_TIMEOUT_MS` and `AGENTDEF_REQUEST_TIMEOUT_MS`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HostPlan } from '../../host-contract/worker-host-plan';
import { proxiedBaseUrl, REPLAY_PLACEHOLDER_KEY } from '../../hosts/model-replay/proxy-routes';
import type { ModelSession } from '../../hosts/model-replay/model-session';
import { gateTimeLimits } from '../../hosts/node/gate-time-limits';
import { publicModelUpstreams } from '../../hosts/node/model-endpoints';
import { createSecretSource, howToProvideSecret } from '../../hosts/node/secret-source';
import { AGENT_CARD_PATH, CARD_SIGNING_KEY_BINDING } from '../../runtime/agent-card';
import { DEFAULT_PROVIDER_BASE_URLS } from '../../runtime/runtime-config';
import { isRegularFile } from '../read-output-json';
import { SERVE_EXIT, type ServeOutput, type ServeRequest } from '../target';
import { type StartedWorker, startCompiledWorker } from './dev-worker-host';
import { FILES } from './worker-constants';

/** The miniflare agentdef is tested with (an optional peer of the package): what a missing one says to install. */
export const MINIFLARE_PACKAGE = 'miniflare@4.20260426.0';

function isMissingMiniflare(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return (
    (e?.code === 'MODULE_NOT_FOUND' || e?.code === 'ERR_MODULE_NOT_FOUND') && /['"]miniflare['"]/.test(e.message ?? '')
  );
}

/** The Worker's secret values, or the exit code once each missing one has been named. */
async function workerSecrets(hostPlan: HostPlan, request: ServeRequest): Promise<Record<string, string> | number> {
  const source = request.secrets ?? createSecretSource(request.env ? { env: request.env } : {});
  const secrets: Record<string, string> = {};
  const missing: string[] = [];
  for (const binding of hostPlan.bindings ?? []) {
    if (binding.kind !== 'secret-ref') continue;
    // Replaying: a model key is not read; the placeholder reaches only the replay server (the routes below).
    if (request.session?.mode === 'replay' && binding.purpose === 'model-key') {
      secrets[binding.name] = REPLAY_PLACEHOLDER_KEY;
      continue;
    }
    const value = await source.get(binding.name);
    if (value === undefined) missing.push(binding.name);
    else secrets[binding.name] = value;
  }
  // The card signing key is optional: when this machine has it, the served card is signed.
  const cardKey = await source.get(CARD_SIGNING_KEY_BINDING);
  if (cardKey !== undefined) secrets[CARD_SIGNING_KEY_BINDING] = cardKey;
  for (const name of missing)
    request.stderr(
      `error: secret ${name} is not set (the Worker ${hostPlan.agent.slug}@${hostPlan.agent.version} binds it): ${howToProvideSecret(name)}\n`,
    );
  return missing.length > 0 ? SERVE_EXIT.invalid : secrets;
}

/**
 * Under a record/replay session, where a Worker's model requests go: a Worker's pins can only
 * reach the public providers' default base URLs (a custom or tuned pin cannot run on a Worker),
 * so each request under one of them is sent to the session's server, carrying the base it stands
 * for (the override `AGENTDEF_BASE_URL_<PROVIDER>` names, else the default).
 */
function workerModelRoute(session: ModelSession, overrides: Record<string, string>): (url: URL) => string | undefined {
  const routes = (['openai-chat', 'anthropic-messages'] as const).map((wire) => {
    const base = DEFAULT_PROVIDER_BASE_URLS[wire];
    const origin = new URL(base).origin;
    const upstream =
      overrides[origin] !== undefined ? `${overrides[origin]}${new URL(base).pathname.replace(/\/+$/, '')}` : base;
    return { base, proxied: proxiedBaseUrl(session.proxy.url, wire, upstream) };
  });
  return (url) => {
    for (const { base, proxied } of routes)
      if (url.href === base || url.href.startsWith(`${base}/`) || url.href.startsWith(`${base}?`))
        return `${proxied}${url.href.slice(base.length)}`;
    return undefined;
  };
}

/** `agentdef dev` for a Worker output: `loader.js` with its host plan in workerd through miniflare. */
export const serveWorker: ServeOutput = (request) => {
  const { outDir, session } = request;
  return async (port, restart) => {
    let hostPlan: HostPlan;
    try {
      hostPlan = JSON.parse(readFileSync(join(outDir, FILES.hostPlan), 'utf8')) as HostPlan;
    } catch (error) {
      request.stderr(
        `error: ${join(outDir, FILES.hostPlan)} is not readable JSON (${(error as Error).message}): compile the agent again\n`,
      );
      return SERVE_EXIT.usage;
    }
    if (!isRegularFile(join(outDir, FILES.loader))) {
      request.stderr(`error: ${outDir} holds ${FILES.hostPlan} but no ${FILES.loader}: compile the agent again\n`);
      return SERVE_EXIT.usage;
    }
    const secrets = await workerSecrets(hostPlan, request);
    if (typeof secrets === 'number') return secrets;
    // The process hosts read AGENTDEF_BASE_URL_<PROVIDER> for their pins; a Worker's requests to the public providers are rerouted the same way.
    const models = publicModelUpstreams(request.env ?? process.env);
    if (models.problems.length > 0) {
      for (const problem of models.problems) request.stderr(`error: ${problem}\n`);
      return SERVE_EXIT.usage;
    }
    // The request gate's time limits, set as for the process hosts.
    const gateTimes = gateTimeLimits(request.env ?? process.env);
    if ('problem' in gateTimes) {
      request.stderr(`error: ${gateTimes.problem}\n`);
      return SERVE_EXIT.usage;
    }
    let worker: StartedWorker;
    try {
      worker = await startCompiledWorker(outDir, {
        mode: 'loader',
        secrets,
        outbound: 'internet',
        ...(session ? { route: workerModelRoute(session, models.upstreams) } : { upstreams: models.upstreams }),
        callerHandlesSignals: true,
        gate: gateTimes.limits,
        ...(port !== undefined ? { port } : {}),
      });
    } catch (error) {
      if (isMissingMiniflare(error)) {
        request.stderr(
          `error: serving a Worker output needs miniflare (Cloudflare's local workerd runner), an optional peer of agentdef: install it in the workspace with \`npm install --save-dev ${MINIFLARE_PACKAGE}\`\n`,
        );
        return SERVE_EXIT.usage;
      }
      request.stderr(
        `error: workerd could not start the Worker${port !== undefined ? ` on port ${port}` : ''}: ${(error as Error).message}\n`,
      );
      return SERVE_EXIT.invalid;
    }
    if (!restart) {
      request.stdout(
        `${hostPlan.agent.slug}@${hostPlan.agent.version} (Cloudflare Worker: loader.js with a Worker Loader binding, workerd via miniflare) serves A2A at ${worker.url}/\n  agent card: ${worker.url}${AGENT_CARD_PATH}\n`,
      );
    }
    let stopped: Promise<void> | undefined;
    let ended: (code: number) => void = () => {};
    return {
      url: worker.url,
      ended: new Promise<number>((done) => {
        ended = done;
      }),
      stop: () => {
        stopped ??= worker.dispose().finally(() => ended(SERVE_EXIT.ok));
        return stopped;
      },
    };
  };
};
