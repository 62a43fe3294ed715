/**
 * The eval gate of a promotion, pure: a workspace (or one `agentdef promote --require-eval`) can
 * demand that moving a definition up to `tool-shipped` or `mcp-resident` is backed by a passing,
 * signed eval receipt (`eval-receipt/v1`, written by `agentdef eval`) for exactly the definition
 * being promoted: its digest (`definitionDigest` of the file as it stands, what eval scored) must be
 * the receipt's `definition.digest`, its signature must verify with the promoting key (the key that
 * signs the transition: `--key`, else the definition's `identity.signingKeyRef`), and it must say
 * the run passed. Each failure is a finding at `/lifecycleState` naming the receipt file and what
 * to do; promotion.ts locates it in the definition.
 */
import type { Finding } from '../definition/diagnostic';
import type { LifecycleState } from '../runtime/runtime-config';

/** The stages whose promotion an eval requirement gates. */
export const EVAL_GATED_STAGES: readonly LifecycleState[] = ['tool-shipped', 'mcp-resident'];

const RULE = 'lifecycle-eval-gate';
const POINTER = '/lifecycleState';

/** Checks a receipt's signature (and form) with a public key: the failures, empty when it verifies. */
export type VerifyEvalReceipt = (receipt: unknown, publicJwk: JsonWebKey) => Promise<string[]>;

export interface EvalRequirement {
  /** The receipt as read (parsed JSON), or undefined when there is none at `shown`. */
  receipt: unknown;
  /** Where it was looked for, as the user would type it. */
  shown: string;
  /** The promoting key's public half and its kid. */
  publicJwk: JsonWebKey;
  kid: string;
  verify: VerifyEvalReceipt;
  /** The command that writes a receipt for this definition (`agentdef eval <file>`). */
  evalCommand: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Why the requirement is not met for promoting the definition whose digest is `digest` to `to` (empty: it is, or the stage is not gated). */
export async function evalGateFindings(
  requirement: EvalRequirement,
  to: LifecycleState,
  digest: string,
): Promise<Finding[]> {
  if (!EVAL_GATED_STAGES.includes(to)) return [];
  const { receipt, shown, evalCommand } = requirement;
  const finding = (message: string, suggestion: string): Finding[] => [
    {
      rule: RULE,
      path: POINTER,
      message: `"${to}" requires a passing eval of this definition: ${message}`,
      suggestion,
    },
  ];
  const rerun = `run \`${evalCommand}\` and promote with the receipt it writes`;
  if (receipt === undefined) return finding(`there is no eval receipt at ${shown}`, rerun);
  if (!isRecord(receipt) || receipt['receiptVersion'] !== 'eval-receipt/v1')
    return finding(`${shown} is not an eval receipt (receiptVersion eval-receipt/v1)`, rerun);
  const signature = receipt['signature'];
  const kid = isRecord(signature) && typeof signature['kid'] === 'string' ? signature['kid'] : '';
  if (kid !== requirement.kid)
    return finding(
      `${shown} is signed by key ${kid === '' ? '(none)' : kid}, not by the promoting key ${requirement.kid}`,
      `sign the eval with the key that promotes (\`${evalCommand} --key <the same keyref>\`), or promote with --key naming the key that signed it`,
    );
  const failures = await requirement.verify(receipt, requirement.publicJwk);
  if (failures.length > 0)
    return finding(
      `${shown} does not verify (${failures.slice(0, 3).join('; ')}): it was changed after it was signed, or is not one agentdef eval wrote`,
      rerun,
    );
  const scored = isRecord(receipt['definition']) ? receipt['definition']['digest'] : undefined;
  if (scored !== digest)
    return finding(
      `${shown} scored another definition (digest ${typeof scored === 'string' ? scored : '(none)'}), not this one (digest ${digest}); the definition changed since it was evaluated`,
      rerun,
    );
  if (receipt['passed'] !== true) {
    const totals = isRecord(receipt['totals']) ? receipt['totals'] : {};
    const rate = typeof totals['passRate'] === 'number' ? totals['passRate'] : undefined;
    const threshold = typeof receipt['threshold'] === 'number' ? receipt['threshold'] : undefined;
    return finding(
      `the eval run in ${shown} did not pass${rate !== undefined && threshold !== undefined ? ` (pass rate ${rate} below its threshold ${threshold})` : ''}`,
      `fix what its failing cases show (eval.json, junit.xml beside it) and ${rerun}`,
    );
  }
  return [];
}
