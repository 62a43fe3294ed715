/**
 * One JSON POST to a model provider, with the failure modes mapped onto `RuntimeError`s that
 * carry no secret: an HTTP error keeps the status and the provider's short error type/code only
 * (never its message, which may echo the key), a network failure keeps nothing but its class.
 */
import { RuntimeError, isRuntimeError } from '../errors';

/**
 * The response header agentdef's model replay server (`agentdef dev --replay`) sets on every answer
 * it gives from a recording. A provider never sends it; the run records that its models were
 * replayed (its receipt's `modelsReplayed`, the task's metadata), so a replayed run never passes
 * for a live one.
 */
export const MODEL_REPLAY_HEADER = 'x-agentdef-model-replay';

/** A provider's JSON answer, and whether it came from a recording rather than a live model. */
export interface ProviderAnswer {
  body: Record<string, unknown>;
  replayed: boolean;
}

export async function postJson(
  provider: string,
  fetchFn: typeof fetch,
  url: string,
  headers: Record<string, string>,
  body: unknown,
  signal: AbortSignal | undefined,
): Promise<ProviderAnswer> {
  let response: Response;
  try {
    response = await fetchFn(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: signal ?? null,
    });
  } catch (error) {
    if (isRuntimeError(error)) throw error; // egress_blocked and friends keep their code
    if (signal?.aborted) throw signal.reason ?? error;
    throw new RuntimeError(
      'provider_unreachable',
      `${provider}: the request failed (${error instanceof Error ? error.name : 'error'})`,
      { provider },
    );
  }
  const text = await readText(response, signal);
  if (!response.ok) {
    const kind = providerErrorKind(text);
    throw new RuntimeError('provider_http_error', `${provider}: HTTP ${response.status}${kind ? ` (${kind})` : ''}`, {
      provider,
      status: response.status,
    });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new RuntimeError('provider_bad_response', `${provider}: the response is not JSON`, { provider });
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new RuntimeError('provider_bad_response', `${provider}: the response is not a JSON object`, { provider });
  }
  return { body: parsed as Record<string, unknown>, replayed: response.headers.get(MODEL_REPLAY_HEADER) !== null };
}

async function readText(response: Response, signal: AbortSignal | undefined): Promise<string> {
  try {
    return await response.text();
  } catch (error) {
    if (signal?.aborted) throw signal.reason ?? error;
    throw new RuntimeError('provider_unreachable', 'the provider response could not be read');
  }
}

/** `invalid_request_error` / `model_not_found` style identifiers only: short, no free text. */
function providerErrorKind(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { error?: unknown; type?: unknown };
    const err = body.error;
    const candidates: unknown[] = [];
    if (err !== null && typeof err === 'object')
      candidates.push((err as { type?: unknown }).type, (err as { code?: unknown }).code);
    candidates.push(body.type);
    for (const candidate of candidates)
      if (typeof candidate === 'string' && /^[A-Za-z0-9_.-]{1,64}$/.test(candidate) && candidate !== 'error')
        return candidate;
  } catch {
    // not JSON: say nothing
  }
  return undefined;
}
