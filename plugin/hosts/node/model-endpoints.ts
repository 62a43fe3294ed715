/**
 * Where a host's model pins are reached, adjusted from the environment before the runtime starts
 * (the runtime derives its egress allow-list from the same base URLs):
 * - `AGENTDEF_BASE_URL_<PROVIDER>` (provider id upper-cased, other characters `_`:
 *   `custom:acme-tuned` → `AGENTDEF_BASE_URL_CUSTOM_ACME_TUNED`) replaces any pin's base URL;
 * - `AGENTDEF_INFERENCE_BASE_URL` replaces the in-container inference server of tuned pins
 *   (`http://127.0.0.1:8000/v1` in an HB3 job), for local runs;
 * - `OLLAMA_HOST` (Ollama's own variable: `host`, `host:port` or a URL) places `local-ollama` pins.
 * A Worker's pins are compiled into its bundle: under `agentdef dev`, the same variables for the
 * public providers (`AGENTDEF_BASE_URL_OPENAI`, `AGENTDEF_BASE_URL_ANTHROPIC`) reroute the
 * requests its egress gateway lets out (`publicModelUpstreams`).
 * Under agentdef's model record/replay server (`AGENTDEF_MODEL_PROXY`, set by `agentdef dev` and
 * `agentdef run` for `--record` / `--replay`), every pin, its base settled as above, is sent
 * through that server (`withModelProxy`).
 */
import type { RuntimeConfig, RuntimeModelPin } from '../../runtime/runtime-config';
import { DEFAULT_PROVIDER_BASE_URLS, modelBaseUrl } from '../../runtime/runtime-config';
import { LOCAL_INFERENCE_BASE_URL } from '../../host-contract/container-contract';
import { parseEndpointUrl } from '../../runtime/endpoint-url';
import { modelProxyOf, proxiedBaseUrl } from '../model-replay/proxy-routes';

export const DEFAULT_OLLAMA_HOST = DEFAULT_PROVIDER_BASE_URLS['ollama-chat'];

export function providerEnvName(providerId: string): string {
  return `AGENTDEF_BASE_URL_${providerId
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_|_$/g, '')}`;
}

/** Ollama's `OLLAMA_HOST` as a base URL: `http://127.0.0.1:11434` when unset. */
export function ollamaBaseUrl(env: NodeJS.ProcessEnv): string {
  const raw = env['OLLAMA_HOST']?.trim();
  if (!raw) return DEFAULT_OLLAMA_HOST;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`;
  const parsed = parseEndpointUrl(withScheme);
  // Left as written: the host's start check names OLLAMA_HOST as what to fix (`endpointProblem`).
  if (!parsed.ok) return withScheme;
  const url = parsed.url;
  if (url.port === '' && url.protocol === 'http:' && !/:\d+$/.test(withScheme.replace(/\/+$/, ''))) url.port = '11434';
  if (url.hostname === '0.0.0.0') url.hostname = '127.0.0.1';
  return url.toString().replace(/\/+$/, '');
}

function pinBaseUrl(pin: RuntimeModelPin, env: NodeJS.ProcessEnv): string | undefined {
  const explicit = env[providerEnvName(pin.providerId)];
  if (explicit) return explicit;
  if (pin.wire === 'ollama-chat') return ollamaBaseUrl(env);
  if (pin.tier === 'tuned' && pin.baseUrl && env['AGENTDEF_INFERENCE_BASE_URL'])
    return env['AGENTDEF_INFERENCE_BASE_URL'];
  return pin.baseUrl;
}

/** The config with every pin's base URL settled for this host (a copy; the input is unchanged). */
export function withEndpointOverrides(config: RuntimeConfig, env: NodeJS.ProcessEnv): RuntimeConfig {
  return {
    ...config,
    models: config.models.map((pin) => {
      const baseUrl = pinBaseUrl(pin, env);
      return baseUrl === undefined ? { ...pin } : { ...pin, baseUrl: baseUrl.replace(/\/+$/, '') };
    }),
  };
}

/**
 * The config with every pin sent through the model record/replay server the environment names
 * (`AGENTDEF_MODEL_PROXY`), each pin's settled base URL carried in its route; unchanged without one.
 */
export function withModelProxy(config: RuntimeConfig, env: NodeJS.ProcessEnv): RuntimeConfig {
  const proxy = modelProxyOf(env);
  if (!proxy) return config;
  return {
    ...config,
    models: config.models.map((pin) => ({ ...pin, baseUrl: proxiedBaseUrl(proxy.url, pin.wire, modelBaseUrl(pin)) })),
  };
}

/**
 * Every base URL a pin can have on this machine, settled from `env`: the providers' public
 * defaults, the in-container inference server, Ollama's, and every override the environment sets.
 * The record server forwards only to these.
 */
export function modelBaseUrls(env: NodeJS.ProcessEnv): string[] {
  const bases = new Set<string>([
    ...Object.values(DEFAULT_PROVIDER_BASE_URLS),
    LOCAL_INFERENCE_BASE_URL,
    ollamaBaseUrl(env),
  ]);
  for (const [name, value] of Object.entries(env))
    if ((name.startsWith('AGENTDEF_BASE_URL_') || name === 'AGENTDEF_INFERENCE_BASE_URL') && value?.trim())
      bases.add(value.trim());
  // One that is no http(s) URL is reached by no pin: the host refuses to start on it (`endpointProblem`).
  return [...bases]
    .filter((base) => parseEndpointUrl(base).ok)
    .map((base) => base.replace(/\/+$/, ''))
    .sort();
}

/** Every origin a config reaches: model base URLs, tool URLs and endpoints, extra allowed origins. */
export function reachedUrls(config: RuntimeConfig): { what: string; url: string }[] {
  const out: { what: string; url: string }[] = [];
  for (const pin of config.models) out.push({ what: `model ${pin.model} (${pin.providerId})`, url: modelBaseUrl(pin) });
  for (const tool of config.tools) {
    if (tool.url) out.push({ what: `tool ${tool.id}`, url: tool.url });
    for (const endpoint of tool.endpoints ?? []) out.push({ what: `tool ${tool.id}`, url: endpoint });
  }
  for (const origin of config.egress.allow) out.push({ what: 'egress.allow', url: origin });
  return out;
}

/** Where the base URL of `pin` was set on this host, when the environment set it (else the compiled output). */
function baseUrlSource(pin: RuntimeModelPin, env: NodeJS.ProcessEnv): string | undefined {
  if (env[providerEnvName(pin.providerId)]) return providerEnvName(pin.providerId);
  if (pin.wire === 'ollama-chat' && env['OLLAMA_HOST']?.trim()) return 'OLLAMA_HOST';
  if (pin.tier === 'tuned' && pin.baseUrl && env['AGENTDEF_INFERENCE_BASE_URL']) return 'AGENTDEF_INFERENCE_BASE_URL';
  return undefined;
}

/**
 * The first URL a config (endpoints settled by `withEndpointOverrides`) reaches that is no http(s)
 * URL the WHATWG parser accepts (runtime/endpoint-url.ts, as validation reads it), as a sentence
 * naming what holds it and where it was set: the environment variable, or the compiled output.
 * Never repeats the value (an override may carry a token).
 */
export function endpointProblem(config: RuntimeConfig, env: NodeJS.ProcessEnv): string | undefined {
  for (const pin of config.models) {
    const parsed = parseEndpointUrl(modelBaseUrl(pin));
    if (parsed.ok) continue;
    const source = baseUrlSource(pin, env);
    return source
      ? `the base URL of model ${pin.model} (${pin.providerId}) ${parsed.problem}: it comes from ${source}; ${parsed.suggestion}`
      : `the base URL of model ${pin.model} (${pin.providerId}) in the compiled output ${parsed.problem}: compile the output again`;
  }
  for (const { what, url } of reachedUrls({ ...config, models: [] })) {
    const parsed = parseEndpointUrl(url);
    if (!parsed.ok)
      return `${what} in the compiled output has an endpoint that ${parsed.problem}: fix the definition (agentdef validate reports it) and compile again`;
  }
  return undefined;
}

/** The public providers a Worker reaches by their default base URLs, by provider id. */
const PUBLIC_PROVIDERS: Readonly<Record<string, string>> = {
  openai: DEFAULT_PROVIDER_BASE_URLS['openai-chat'],
  anthropic: DEFAULT_PROVIDER_BASE_URLS['anthropic-messages'],
};

/**
 * Public provider origin → the base a request to it is sent to instead, from
 * `AGENTDEF_BASE_URL_OPENAI` / `AGENTDEF_BASE_URL_ANTHROPIC`: a request for `<default base><rest>`
 * goes to `<override><rest>`. An override that is not an http(s) URL, or whose path does not end
 * with the default base's path (`/v1` for OpenAI), is reported and left out.
 */
export function publicModelUpstreams(env: NodeJS.ProcessEnv): {
  upstreams: Record<string, string>;
  problems: string[];
} {
  const upstreams: Record<string, string> = {};
  const problems: string[] = [];
  for (const [providerId, base] of Object.entries(PUBLIC_PROVIDERS)) {
    const name = providerEnvName(providerId);
    const raw = env[name]?.trim();
    if (!raw) continue;
    let override: URL;
    try {
      override = new URL(raw);
    } catch {
      problems.push(`${name} is not a URL`);
      continue;
    }
    const defaultUrl = new URL(base);
    const overridePath = override.pathname.replace(/\/+$/, '');
    const defaultPath = defaultUrl.pathname.replace(/\/+$/, '');
    if (!/^https?:$/.test(override.protocol) || !overridePath.endsWith(defaultPath)) {
      problems.push(`${name} must be an http(s) URL whose path ends with ${defaultPath || '/'} (like ${base})`);
      continue;
    }
    upstreams[defaultUrl.origin] =
      `${override.origin}${overridePath.slice(0, overridePath.length - defaultPath.length)}`;
  }
  return { upstreams, problems };
}
