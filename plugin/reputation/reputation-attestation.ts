/**
 * An agent's reputation as the attestation its AgentFacts credential carries
 * (`credentialSubject.reputation.attestations`, scheme trust/agentfacts.ts `REPUTATION_SCHEME`):
 * the score, the receipts it rests on (total and by kind), the window they were counted in, the
 * decay per composition layer, and the issuer (the publisher's did:key; the credential's proof
 * signs the attestation with everything else). Pure.
 */
import type { ReputationAttestation } from '../trust/agentfacts';
import type { AgentReputation, ReputationReport } from './score-reputation';

/** The attestation of `agent` from `report`, or undefined when it has no score to attest. */
export function reputationAttestation(
  report: ReputationReport,
  agent: AgentReputation,
  issuer: string,
): ReputationAttestation | undefined {
  if (agent.score === null) return undefined;
  const { run, eval: evals, lifecycle, attributed } = agent.receipts;
  return {
    issuer,
    score: agent.score,
    receiptCount: run + evals + lifecycle,
    asOf: report.window.until,
    window: { from: report.window.from, until: report.window.until },
    receiptCounts: { run, eval: evals, lifecycle, attributed },
    decayPerLayer: report.decayPerLayer,
  };
}
