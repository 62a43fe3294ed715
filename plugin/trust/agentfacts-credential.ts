/**
 * The AgentFacts projection as a W3C Verifiable Credential 2.0, signed with a DataIntegrityProof
 * `eddsa-jcs-2022` (data-integrity.ts), and the credential checks `agentdef verify` runs.
 *
 * - `@context`: the VC 2.0 context, then the VC 2.0 undefined-terms context (AgentFacts publishes
 *   no JSON-LD context, so its terms are mapped there rather than under an invented URL);
 * - `type`: `VerifiableCredential`, `AgentFactsCredential`; `issuer`: the did:key of the signing key
 *   (also `credentialSubject.provider.did`);
 * - `validFrom` = the issue time given by the caller (never the clock), `validUntil` = that + TTL;
 * - status: by expiry, not a status list (docs/credentials.md says why): no `credentialStatus`;
 *   a credential is withdrawn by not re-issuing it, and dies at `validUntil`.
 */
import {
  dateTimeStampMillis,
  type IntegrityFailure,
  type ProofOptions,
  signEddsaJcs2022,
  type VerifyProofOptions,
  verifyEddsaJcs2022,
  proofCreatedAfter,
} from './data-integrity';
import { didKeyOf, didKeyVerificationMethod } from './did-key';
import { type AgentFacts, type AgentFactsOptions, projectAgentFacts, validateAgentFacts } from './agentfacts';
import type { AgentDefinition } from '../schema/generated/agent-definition.types';

export const VC_V2_CONTEXT = 'https://www.w3.org/ns/credentials/v2';
export const VC_UNDEFINED_TERMS_CONTEXT = 'https://www.w3.org/ns/credentials/undefined-terms/v2';
export const AGENTFACTS_CREDENTIAL_TYPE = 'AgentFactsCredential';

export interface IssueAgentFactsOptions extends Omit<AgentFactsOptions, 'providerDid'> {
  /** The issue time (an RFC 3339 date-time with a zone); the library never reads the clock. */
  issuedAt: string;
  /** The OKP Ed25519 private JWK the credential is signed with. */
  privateJwk: JsonWebKey;
}

export type IssueResult =
  | { ok: true; credential: Record<string, unknown>; facts: AgentFacts }
  | { ok: false; failures: IntegrityFailure[] };

const DATE_TIME_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** `2026-01-02T03:04:05Z` (whole seconds, UTC) of a time in milliseconds. */
function xsdSeconds(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

export async function issueAgentFactsCredential(
  definition: AgentDefinition,
  options: IssueAgentFactsOptions,
): Promise<IssueResult> {
  const issuedMs =
    typeof options.issuedAt === 'string' && DATE_TIME_WITH_ZONE.test(options.issuedAt)
      ? Date.parse(options.issuedAt)
      : Number.NaN;
  if (Number.isNaN(issuedMs))
    return {
      ok: false,
      failures: [
        {
          pointer: '#/options/issuedAt',
          message: 'issuedAt must be an RFC 3339 date-time with a zone, e.g. 2026-01-02T03:04:05Z',
        },
      ],
    };
  const did = didKeyOf(options.privateJwk);
  if (did === undefined || typeof options.privateJwk.d !== 'string')
    return {
      ok: false,
      failures: [
        { pointer: '#/options/privateJwk', message: 'the signing key must be an OKP Ed25519 private JWK (x and d)' },
      ],
    };
  const { issuedAt: _issuedAt, privateJwk, ...projection } = options;
  const projected = projectAgentFacts(definition, { ...projection, providerDid: did });
  if (!projected.ok) return projected;
  const validFrom = xsdSeconds(issuedMs);
  const unsigned: Record<string, unknown> = {
    '@context': [VC_V2_CONTEXT, VC_UNDEFINED_TERMS_CONTEXT],
    type: ['VerifiableCredential', AGENTFACTS_CREDENTIAL_TYPE],
    issuer: did,
    validFrom,
    validUntil: xsdSeconds(issuedMs + projected.facts.ttl * 1000),
    credentialSubject: projected.facts,
  };
  const proofOptions: ProofOptions = {
    type: 'DataIntegrityProof',
    cryptosuite: 'eddsa-jcs-2022',
    created: validFrom,
    verificationMethod: didKeyVerificationMethod(did),
    proofPurpose: 'assertionMethod',
  };
  const signed = await signEddsaJcs2022(unsigned, proofOptions, privateJwk);
  return signed.ok ? { ok: true, credential: signed.document, facts: projected.facts } : signed;
}

export interface CredentialVerification {
  verified: boolean;
  failures: IntegrityFailure[];
  /** The issuer's id, when there is one. */
  issuer?: string;
  verificationMethod?: string;
}

export interface VerifyCredentialOptions extends VerifyProofOptions {
  /** The time validity is checked at (RFC 3339); the library never reads the clock. */
  at: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * A VC 2.0 with an eddsa-jcs-2022 DataIntegrityProof: the proof (did:key resolved offline), the
 * VC 2.0 shape (base context first, `VerifiableCredential` type, an issuer), the issuer bound to
 * the key when the issuer is a DID, the validity window at `options.at`, no status list to consult
 * (a `credentialStatus` cannot be checked offline and fails), and for an AgentFactsCredential its
 * subject against the AgentFacts schema.
 */
export async function verifyCredential(
  credential: unknown,
  options: VerifyCredentialOptions,
): Promise<CredentialVerification> {
  if (!isRecord(credential))
    return { verified: false, failures: [{ pointer: '', message: 'a credential must be a JSON object' }] };
  const failures: IntegrityFailure[] = [];
  const at = dateTimeStampMillis(options.at) ?? Number.NaN;
  if (Number.isNaN(at))
    failures.push({
      pointer: '',
      message: 'no valid time (a date-time with its time zone) to check the validity window at',
    });
  const proof = await verifyEddsaJcs2022(credential, options);
  failures.push(...proof.failures);

  const context = credential['@context'];
  if (!Array.isArray(context) || context[0] !== VC_V2_CONTEXT)
    failures.push({ pointer: '/@context', message: `@context must be an array starting with "${VC_V2_CONTEXT}"` });
  const type = credential['type'];
  if (!Array.isArray(type) || !type.includes('VerifiableCredential'))
    failures.push({ pointer: '/type', message: 'type must be an array including "VerifiableCredential"' });
  const issuerValue = credential['issuer'];
  const issuer =
    typeof issuerValue === 'string'
      ? issuerValue
      : isRecord(issuerValue) && typeof issuerValue['id'] === 'string'
        ? issuerValue['id']
        : undefined;
  if (issuer === undefined)
    failures.push({ pointer: '/issuer', message: 'issuer must be a URL or an object with an id' });
  else if (issuer.startsWith('did:') && proof.controller !== undefined && issuer !== proof.controller) {
    failures.push({
      pointer: '/issuer',
      message: `the issuer ${issuer} does not control the proof's key (${proof.controller})`,
    });
  }
  if (credential['credentialSubject'] === undefined)
    failures.push({ pointer: '/credentialSubject', message: 'credentialSubject is required' });
  // The window, and the proof's own `expires`, as instants: a time without a zone would be read in
  // the host's zone, and a year Date.parse cannot hold would be NaN and skip the check.
  const instants: Partial<Record<'validFrom' | 'validUntil' | 'expires', number>> = {};
  for (const member of ['validFrom', 'validUntil'] as const) {
    const value = credential[member];
    if (value === undefined) continue;
    const ms = dateTimeStampMillis(value);
    if (ms === undefined)
      failures.push({
        pointer: `/${member}`,
        message: `${member} must be an XML Schema dateTimeStamp (a date-time with its time zone, e.g. 2026-03-01T14:00:00Z)`,
      });
    else instants[member] = ms;
  }
  const proofValue = credential['proof'];
  const expires = isRecord(proofValue) ? proofValue['expires'] : undefined;
  if (expires !== undefined) {
    const ms = dateTimeStampMillis(expires);
    if (ms === undefined)
      failures.push({
        pointer: '/proof/expires',
        message: "the proof's expires must be an XML Schema dateTimeStamp (a date-time with its time zone)",
      });
    else instants.expires = ms;
  }
  if (!Number.isNaN(at)) {
    if (instants.validFrom !== undefined && at < instants.validFrom)
      failures.push({ pointer: '/validFrom', message: `not valid yet: valid from ${String(credential['validFrom'])}` });
    if (instants.validUntil !== undefined && at >= instants.validUntil)
      failures.push({ pointer: '/validUntil', message: `expired at ${String(credential['validUntil'])}` });
    if (instants.expires !== undefined && at >= instants.expires)
      failures.push({ pointer: '/proof/expires', message: `the proof expired at ${String(expires)}` });
    const createdLater = proofCreatedAfter(credential, at);
    if (createdLater !== undefined) failures.push(createdLater);
  }
  if (credential['credentialStatus'] !== undefined)
    failures.push({
      pointer: '/credentialStatus',
      message: 'the credential names a status to consult; agentdef verify works offline and cannot check it',
    });
  if (Array.isArray(type) && type.includes(AGENTFACTS_CREDENTIAL_TYPE))
    failures.push(...validateAgentFacts(credential['credentialSubject'], '/credentialSubject'));

  const result: CredentialVerification = { verified: failures.length === 0, failures };
  if (issuer !== undefined) result.issuer = issuer;
  if (proof.verificationMethod !== undefined) result.verificationMethod = proof.verificationMethod;
  return result;
}
