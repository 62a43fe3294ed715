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
import schema from '../schema/tool-benchmark-events.v1.schema.json';
import type { ToolBenchmarkEvent, ToolBenchmarkEvents } from '../schema/generated/tool-benchmark-events.types';
import { type SignedDocumentKind, signDocument, signedDocumentText, verifySignedDocument } from './signed-document';

export type { ToolBenchmarkEvent, ToolBenchmarkEvents } from '../schema/generated/tool-benchmark-events.types';
export const TOOL_BENCHMARK_EVENTS_VERSION = 'tool-benchmark-events/v1';
export type UnsignedToolBenchmarkEvents = Omit<ToolBenchmarkEvents, 'signature'>;

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
export function signToolBenchmarkEvents(
  unsigned: UnsignedToolBenchmarkEvents,
  key: CryptoKey | JsonWebKey | string,
  kid: string,
): Promise<ToolBenchmarkEvents> {
  return signDocument(unsigned, key, kid);
}

/** The file's text: two-space indented JSON and a newline (read back strictly). */
export const toolBenchmarkEventsText: (batch: ToolBenchmarkEvents) => string = signedDocumentText;

export interface ToolBenchmarkFailure {
  pointer: string;
  message: string;
}

export type ToolBenchmarkCheck =
  | { verified: true; kid: string; batch: ToolBenchmarkEvents }
  | { verified: false; kid?: string; failures: ToolBenchmarkFailure[] };

/** Iterations within `runsPerCase`, and no error code on a call that succeeded. */
function consistencyFailures(batch: ToolBenchmarkEvents): ToolBenchmarkFailure[] {
  const failures: ToolBenchmarkFailure[] = [];
  batch.events.forEach((event, i) => {
    if (event.iteration > batch.runsPerCase)
      failures.push({
        pointer: `/events/${i}/iteration`,
        message: `is ${event.iteration}, but each case ran ${batch.runsPerCase} times`,
      });
    if (event.ok && event.errorCode !== undefined)
      failures.push({ pointer: `/events/${i}/errorCode`, message: 'a call that succeeded has no error code' });
  });
  return failures;
}

const TOOL_BENCHMARK_EVENTS: SignedDocumentKind<ToolBenchmarkEvents> = {
  schema,
  notAnObject: 'tool benchmark events are a JSON object',
  unsigned: 'the batch has no signature object (unsigned)',
  noun: 'events',
  schemaName: 'tool-benchmark-events/v1',
  memberOf: 'tool benchmark events',
  consistency: consistencyFailures,
};

/**
 * Verifies a batch (parsed strictly by the caller: runtime/strict-json.ts `parseSignedJson`)
 * against the signer's public JWK (`keyFor(kid)`; undefined: no key known).
 */
export async function verifyToolBenchmarkEvents(
  batch: unknown,
  keyFor: (kid: string) => JsonWebKey | undefined,
): Promise<ToolBenchmarkCheck> {
  const check = await verifySignedDocument(TOOL_BENCHMARK_EVENTS, batch, keyFor);
  return check.verified ? { verified: true, kid: check.kid, batch: check.document } : check;
}
