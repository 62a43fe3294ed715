/**
 * The published candidates for a skill tag, with the reputation their credentials attest: for each
 * version the registry index records, its AgentFacts credential (`<slug>/<version>.agentfacts.vc.json`)
 * read strictly and verified at its own `validFrom`, as `agentdef registry verify` checks it; a
 * candidate when `credentialSubject.capabilities.tags` includes the tag. Its score is the
 * attestation under the receipt-scored scheme (`REPUTATION_SCHEME`) issued by the credential's own
 * issuer (the publisher's key signs it with the credential), the latest `asOf` when there are
 * several; none: unscored. A credential that does not verify is no candidate: it is reported.
 * Reads through the {@link RegistryFiles} port; never throws.
 */
import type { RegistryFiles } from '../registry/registry-files';
import type { RegistryIndex } from '../registry/registry-index';
import { publishedFileNames } from '../registry/registry-layout';
import { parseSignedJson } from '../runtime/strict-json';
import { REPUTATION_SCHEME } from './agentfacts';
import { verifyCredential } from './agentfacts-credential';

export interface PublishedCandidate {
  slug: string;
  version: string;
  score: number | null;
  receiptCount: number;
  asOf?: string;
}

export interface CandidateProblem {
  file: string;
  message: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export async function publishedCandidates(
  index: RegistryIndex,
  files: RegistryFiles,
  tag: string,
): Promise<{ candidates: PublishedCandidate[]; problems: CandidateProblem[] }> {
  const candidates: PublishedCandidate[] = [];
  const problems: CandidateProblem[] = [];
  for (const { slug, version } of index.snapshots) {
    const file = `${slug}/${publishedFileNames(version).credential}`;
    try {
      const bytes = files.read(file);
      if (!(bytes instanceof Uint8Array)) {
        problems.push({ file, message: typeof bytes === 'string' ? bytes : 'the credential is missing' });
        continue;
      }
      const parsed = parseSignedJson(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
      if (!parsed.ok) {
        problems.push({
          file,
          message: `not strict JSON: line ${parsed.line}, column ${parsed.column}: ${parsed.reason}`,
        });
        continue;
      }
      const credential = parsed.value;
      const validFrom =
        isRecord(credential) && typeof credential['validFrom'] === 'string' ? credential['validFrom'] : '';
      const checked = await verifyCredential(credential, { at: validFrom });
      if (!checked.verified || !isRecord(credential)) {
        problems.push({
          file,
          message: `does not verify (${checked.failures.map((f) => `${f.pointer || '(document)'}: ${f.message}`).join('; ')})`,
        });
        continue;
      }
      const subject = credential['credentialSubject'];
      const capabilities = isRecord(subject) ? subject['capabilities'] : undefined;
      const tags = isRecord(capabilities) && Array.isArray(capabilities['tags']) ? capabilities['tags'] : [];
      if (!tags.includes(tag)) continue;
      const reputation = isRecord(subject) ? subject['reputation'] : undefined;
      const attestations =
        isRecord(reputation) && reputation['scheme'] === REPUTATION_SCHEME && Array.isArray(reputation['attestations'])
          ? reputation['attestations'].filter(
              (a): a is Record<string, unknown> =>
                isRecord(a) &&
                a['issuer'] === checked.issuer &&
                typeof a['score'] === 'number' &&
                a['score'] >= 0 &&
                a['score'] <= 1 &&
                typeof a['receiptCount'] === 'number' &&
                typeof a['asOf'] === 'string',
            )
          : [];
      const latest = attestations.sort((a, b) => ((a['asOf'] as string) < (b['asOf'] as string) ? 1 : -1))[0];
      candidates.push(
        latest === undefined
          ? { slug, version, score: null, receiptCount: 0 }
          : {
              slug,
              version,
              score: latest['score'] as number,
              receiptCount: latest['receiptCount'] as number,
              asOf: latest['asOf'] as string,
            },
      );
    } catch (error) {
      problems.push({ file, message: `cannot be checked: ${(error as Error).message}` });
    }
  }
  return { candidates, problems };
}
