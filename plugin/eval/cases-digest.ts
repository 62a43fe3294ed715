/**
 * The digest of the cases an eval run scored: `sha-256:<hex>` of the RFC 8785 form of every case
 * with its file's name and grader settings (as the loader names it, relative to the workspace), in load order, so an
 * eval receipt names exactly what the agent was scored against. Same cases, same digest, on any
 * machine; a change of a case, its file's name or the order is a new digest.
 */
import { definitionDigest } from '../trust/lifecycle-receipt';
import type { LocatedEvalCase } from './parse-eval-cases';

export async function evalCasesDigest(cases: readonly LocatedEvalCase[]): Promise<string> {
  return definitionDigest(
    cases.map((c) => ({
      file: c.file,
      ...(c.fileGrader !== undefined ? { grader: c.fileGrader } : {}),
      case: c.value,
    })),
  );
}
