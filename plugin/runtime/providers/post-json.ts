/**
 * One JSON POST to a model provider, with the failure modes mapped onto `RuntimeError`s that
 * carry no secret: an HTTP error keeps the status and the provider's short error type/code only
 * (never its message, which may echo the key), a network failure keeps nothing but its class.
 */
import { RuntimeError, isRuntimeError } from '../errors';

export async function postJson(provider: string, fetchFn: typeof fetch, url: string, headers: Record<string, string>, body: unknown, signal: AbortSignal | undefined): Promise<Record<string, unknown>> {
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
    throw new RuntimeError('provider_unreachable', `${provider}: the request failed (${error instanceof Error ? error.name : 'error'})`, { provider });
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
  return parsed as Record<string, unknown>;
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
    if (err !== null && typeof err === 'object') candidates.push((err as { type?: unknown }).type, (err as { code?: unknown }).code);
    candidates.push(body.type);
    for (const candidate of candidates) if (typeof candidate === 'string' && /^[A-Za-z0-9_.-]{1,64}$/.test(candidate) && candidate !== 'error') return candidate;
  } catch {
    // not JSON: say nothing
  }
  return undefined;
}
