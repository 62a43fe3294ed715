/**
 * Checks, before serving, that the Ollama server the `local-ollama` pins use is up and has their
 * models (`GET /api/tags`), so a launcher fails at start with a clear message instead of on the
 * first question.
 */
import { HostStartError } from './host-error';
import type { RuntimeConfig } from '../../runtime/runtime-config';
import { modelBaseUrl } from '../../runtime/runtime-config';

export async function checkOllama(
  configs: readonly RuntimeConfig[],
  fetchFn: typeof fetch = fetch,
  timeoutMs = 3000,
): Promise<void> {
  const byBase = new Map<string, { model: string; agent: string }[]>();
  for (const config of configs) {
    for (const pin of config.models) {
      if (pin.wire !== 'ollama-chat') continue;
      const base = modelBaseUrl(pin).replace(/\/+$/, '');
      byBase.set(base, [
        ...(byBase.get(base) ?? []),
        { model: pin.model, agent: `${config.agent.slug}@${config.agent.version}` },
      ]);
    }
  }
  for (const [base, needs] of byBase) {
    const first = needs[0]!;
    let tags: unknown;
    try {
      const response = await fetchFn(`${base}/api/tags`, { signal: AbortSignal.timeout(timeoutMs) });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      tags = await response.json();
    } catch (error) {
      const why = error instanceof Error && error.message.startsWith('HTTP') ? error.message : 'connection failed';
      throw new HostStartError(
        `Ollama is not reachable at ${base} (${why}; ${first.agent} needs model ${first.model}): start it with \`ollama serve\`, or set OLLAMA_HOST to where it listens`,
      );
    }
    const models = (tags as { models?: { name?: unknown; model?: unknown }[] } | undefined)?.models;
    const names = new Set<string>();
    for (const m of Array.isArray(models) ? models : [])
      for (const n of [m.name, m.model]) if (typeof n === 'string') names.add(n);
    for (const need of needs) {
      if (!names.has(need.model) && !names.has(`${need.model}:latest`)) {
        throw new HostStartError(
          `Ollama at ${base} has no model ${need.model} (${need.agent} needs it): run \`ollama pull ${need.model}\``,
        );
      }
    }
  }
}
