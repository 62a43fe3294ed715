/**
 * Tool benchmark events (`tool-benchmark-events/v1`, schema:
 * plugin/schema/tool-benchmark-events.v1.schema.json): the signed batch `agentdef bench-tool` (and
 * `agentdef eval` of a tool-only agent) writes, one event per tool call of the benchmark's runs in
 * the seed's tool taxonomy (category, tool, operation, latency, ok), for exactly one definition:
 * its slug, version, versionId and digest (the RFC 8785 digest `agentdef promote` records,
 * trust/lifecycle-receipt.ts `definitionDigest`). `agentdef promote` requires one to
 * reach `tool-shipped` (trust/bench-gate.ts). No input, answer, prompt or key goes in.
 *
 * Signature: the run receipts' scheme, by their code (runtime/receipts.ts `receiptSigningInput`,
 * `importSigningKey`), over the whole batch: Ed25519 over the RFC 8785 canonical JSON of the batch
 * whose `signature` holds only `alg` and `kid`. One edited event, one removed or added, breaks it.
 * Verification checks the schema (closed), that every iteration is within `runsPerCase`, exactly
 * `alg`/`kid`/`value`, the canonical base64url of 64 bytes, and the signature; it names what
 * failed and where, and never throws.
 */
import { schemaValidator } from '../application/schema-validator';
import { base64UrlToBytes, bytesToBase64Url } from '../runtime/base64url';
import { importSigningKey, receiptSigningInput, type UnsignedReceipt } from '../runtime/receipts';
import schema from '../schema/tool-benchmark-events.v1.schema.json';
import type { ToolBenchmarkEvent, ToolBenchmarkEvents } from '../schema/generated/tool-benchmark-events.types';

export type { ToolBenchmarkEvent, ToolBenchmarkEvents } from '../schema/generated/tool-benchmark-events.types';
export const TOOL_BENCHMARK_EVENTS_VERSION = 'tool-benchmark-events/v1';
export type UnsignedToolBenchmarkEvents = Omit<ToolBenchmarkEvents, 'signature'>;

const ED25519 = { name: 'Ed25519' } as const;

export interface ToolBenchmarkInput {
  definition: { slug: string; version: string; versionId: string; digest: string };
  casesDigest: string;
  runsPerCase: number;
  events: readonly ToolBenchmarkEvent[];
}

export function buildToolBenchmarkEvents(input: ToolBenchmarkInput): UnsignedToolBenchmarkEvents {
  const { slug, version, versionId, digest } = input.definition;
  return {
    eventsVersion: TOOL_BENCHMARK_EVENTS_VERSION,
    definition: { slug, version, versionId, digest },
    casesDigest: input.casesDigest,
    runsPerCase: input.runsPerCase,
    events: input.events.map((e) => ({ ...e })),
  };
}

/** Signs with an Ed25519 private key (JWK, its JSON text, or a CryptoKey); `kid` is its RFC 7638 thumbprint. */
export async function signToolBenchmarkEvents(
  unsigned: UnsignedToolBenchmarkEvents,
  key: CryptoKey | JsonWebKey | string,
  kid: string,
): Promise<ToolBenchmarkEvents> {
  const cryptoKey = await importSigningKey(key);
  const value = new Uint8Array(
    await crypto.subtle.sign(ED25519, cryptoKey, receiptSigningInput(unsigned as unknown as UnsignedReceipt, kid)),
  );
  return { ...unsigned, signature: { alg: 'Ed25519', kid, value: bytesToBase64Url(value) } };
}

/** The file's text: two-space indented JSON and a newline (read back strictly). */
export function toolBenchmarkEventsText(batch: ToolBenchmarkEvents): string {
  return `${JSON.stringify(batch, null, 2)}\n`;
}

export interface ToolBenchmarkFailure {
  pointer: string;
  message: string;
}

export type ToolBenchmarkCheck =
  | { verified: true; kid: string; batch: ToolBenchmarkEvents }
  | { verified: false; kid?: string; failures: ToolBenchmarkFailure[] };

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function schemaFailures(batch: unknown): ToolBenchmarkFailure[] {
  const validate = schemaValidator(schema);
  if (validate(batch)) return [];
  return (validate.errors ?? []).slice(0, 10).map((e) => ({
    pointer:
      e.keyword === 'additionalProperties'
        ? `${e.instancePath}/${String((e.params as { additionalProperty?: unknown }).additionalProperty)}`
        : e.instancePath,
    message:
      e.keyword === 'additionalProperties'
        ? 'is not a member of tool benchmark events'
        : `${e.message ?? 'is invalid'} (tool-benchmark-events/v1 schema)`,
  }));
}

/**
 * Verifies a batch (parsed strictly by the caller: runtime/strict-json.ts `parseSignedJson`)
 * against the signer's public JWK (`keyFor(kid)`; undefined: no key known).
 */
export async function verifyToolBenchmarkEvents(
  batch: unknown,
  keyFor: (kid: string) => JsonWebKey | undefined,
): Promise<ToolBenchmarkCheck> {
  try {
    if (!isRecord(batch))
      return { verified: false, failures: [{ pointer: '', message: 'tool benchmark events are a JSON object' }] };
    const signature = batch['signature'];
    if (!isRecord(signature))
      return {
        verified: false,
        failures: [{ pointer: '/signature', message: 'the batch has no signature object (unsigned)' }],
      };
    const kid = typeof signature['kid'] === 'string' && signature['kid'] !== '' ? signature['kid'] : undefined;
    const withKid = kid === undefined ? {} : { kid };
    const shape = schemaFailures(batch);
    if (shape.length > 0) return { verified: false, ...withKid, failures: shape };
    const typed = batch as unknown as ToolBenchmarkEvents;
    const failures: ToolBenchmarkFailure[] = [];
    typed.events.forEach((event, i) => {
      if (event.iteration > typed.runsPerCase)
        failures.push({
          pointer: `/events/${i}/iteration`,
          message: `is ${event.iteration}, but each case ran ${typed.runsPerCase} times`,
        });
      if (event.ok && event.errorCode !== undefined)
        failures.push({ pointer: `/events/${i}/errorCode`, message: 'a call that succeeded has no error code' });
    });
    const bytes = base64UrlToBytes(typed.signature.value);
    if (bytes.length !== 64 || bytesToBase64Url(bytes) !== typed.signature.value)
      return {
        verified: false,
        ...withKid,
        failures: [
          ...failures,
          {
            pointer: '/signature/value',
            message: 'value must be the canonical base64url (no padding) of a 64-byte Ed25519 signature',
          },
        ],
      };
    const publicJwk = keyFor(typed.signature.kid);
    if (publicJwk === undefined)
      return {
        verified: false,
        ...withKid,
        failures: [...failures, { pointer: '/signature/kid', message: `no public key for kid ${typed.signature.kid}` }],
      };
    const key = await crypto.subtle.importKey(
      'jwk',
      { kty: 'OKP', crv: 'Ed25519', x: publicJwk.x } as JsonWebKey,
      ED25519,
      false,
      ['verify'],
    );
    const intact = await crypto.subtle.verify(
      ED25519,
      key,
      bytes,
      receiptSigningInput(typed as unknown as UnsignedReceipt, typed.signature.kid),
    );
    if (!intact)
      failures.push({
        pointer: '/signature/value',
        message: 'the signature does not match the events (changed, or signed by another key)',
      });
    return failures.length === 0
      ? { verified: true, kid: typed.signature.kid, batch: typed }
      : { verified: false, ...withKid, failures };
  } catch (error) {
    return {
      verified: false,
      failures: [{ pointer: '', message: `the events cannot be checked (${(error as Error).name})` }],
    };
  }
}
