/**
 * Ranking published candidates by their attested reputation (`agentdef registry rank`): each
 * candidate is a verified AgentFacts credential whose capability tags include the skill tag asked
 * for; its score is its attestation under the receipt-scored scheme (the latest `asOf` when there
 * are several). Highest score first; ties by more receipts counted, then slug, then version
 * (semver, highest first), so the order is total and the same every time. A candidate with no
 * attestation is listed last, unscored. Pure.
 */
import { compareSemver } from '../definition/workspace-definitions';

export interface RankCandidate {
  slug: string;
  version: string;
  score: number | null;
  receiptCount: number;
  asOf?: string;
}

export function rankCandidates(candidates: readonly RankCandidate[]): RankCandidate[] {
  return [...candidates].sort((a, b) => {
    if (a.score !== b.score) {
      if (a.score === null) return 1;
      if (b.score === null) return -1;
      return b.score - a.score;
    }
    if (a.receiptCount !== b.receiptCount) return b.receiptCount - a.receiptCount;
    if (a.slug !== b.slug) return a.slug < b.slug ? -1 : 1;
    return compareSemver(b.version, a.version);
  });
}
