/**
 * Lifecycle promotion, pure: given a definition file's text, a target stage, the time and a signing
 * key, it returns the new text (only the `lifecycleState` value changed, quoting kept) and the
 * signed transition receipt, or located diagnostics saying why not.
 *
 * Rules (the seed's six stages, in order): a promotion stops at every stage that applies to the
 * definition (a jump past one is refused and names it, so no gate is ever skipped); it passes only
 * a stage that does not apply (`composed`, for a leaf: the seed publishes the same definition and
 * moves only `lifecycleState`), and the receipt lists it in `skipped` with the reason. A
 * demotion may go to any earlier stage and is recorded as such. Either way the definition as it
 * would be is validated in full (JSON Schema, lifecycle gates and every other rule) and any error
 * refuses the change, so the file never leaves a valid state. `marketplace-published` also needs
 * the AgentFacts credential to verify (eddsa-jcs-2022, offline) at the given time and to be about
 * this agent and version. With an eval requirement, `tool-shipped` and `mcp-resident` also need a
 * passing eval receipt of this exact definition (eval-gate.ts); `tool-shipped` always needs signed tool benchmark events of
 * it, one per declared tool (bench-gate.ts).
 * No file system, no clock: the promote operation (plugin/operations/promote.ts) reads and writes.
 */
import type { Diagnostic, Finding } from '../definition/diagnostic';
import { ERROR_CODES, hasErrors } from '../definition/diagnostic';
import { parseDefinitionText, type DefinitionFormat } from '../definition/parse-document';
import { LIFECYCLE_STAGES } from '../definition/rules/lifecycle-gates';
import type { SourceDocument } from '../definition/source-document';
import { locateFinding, validateDocument } from '../definition/validate-definition';
import type { AgentDefinition } from '../schema/generated/agent-definition.types';
import type { LifecycleState } from '../runtime/runtime-config';
import { verifyCredential } from './agentfacts-credential';
import {
  definitionDigest,
  LIFECYCLE_RECEIPT_VERSION,
  type LifecycleReceipt,
  type SkippedStage,
  signLifecycleReceipt,
} from './lifecycle-receipt';
import { offsetOfPosition } from '../definition/read-source';
import { type EvalRequirement, evalGateFindings } from './eval-gate';
import { BENCH_GATED_STAGES, type BenchRequirement, benchGateFindings } from './bench-gate';

const RULE = 'lifecycle-promotion';
const POINTER = '/lifecycleState';

export interface PromotionRequest {
  /** The definition file's text. */
  text: string;
  /** The file's name as shown in diagnostics; its last segment is recorded in the receipt. */
  file: string;
  format: DefinitionFormat;
  /** The stage to move to. */
  to: string;
  /** RFC 3339 time of the transition (the shell's `--at` or clock). */
  at: string;
  /** The Ed25519 private JWK that signs the receipt, and its kid (RFC 7638 thumbprint). */
  signer: { privateJwk: JsonWebKey; kid: string };
  /** The AgentFacts credential (parsed JSON); required to reach `marketplace-published`. */
  credential?: unknown;
  /**
   * Given (`--require-eval`, the plugin's `requireEval`), a promotion to `tool-shipped` or
   * `mcp-resident` also needs a passing eval receipt signed by the promoting key for exactly this
   * definition (eval-gate.ts).
   */
  evalRequirement?: EvalRequirement;
  /**
   * Required to promote to `tool-shipped` (without it that promotion is refused): signed tool
   * benchmark events of exactly this definition, one for every declared tool (bench-gate.ts).
   */
  benchRequirement?: BenchRequirement;
}

export type PromotionResult =
  | {
      ok: true;
      text: string;
      receipt: LifecycleReceipt;
      from: LifecycleState;
      to: LifecycleState;
      transition: 'promotion' | 'demotion';
      skipped: SkippedStage[];
    }
  | { ok: false; diagnostics: Diagnostic[] };

/**
 * Why `stage` does not apply to the definition, or undefined when it does. `composed` applies to
 * compositions only (its gate is a DAG of pinned agents): the seed publishes the same definition
 * and moves only `lifecycleState`, so a leaf goes from `kym-registered` to `marketplace-published`.
 */
export function notApplicable(
  stage: LifecycleState,
  definition: { composition?: { kind?: unknown } } | undefined,
): string | undefined {
  const kind = definition?.composition?.kind;
  if (stage === 'composed' && kind === 'leaf')
    return `composition.kind is "leaf": "composed" applies to compositions (a DAG of pinned agents), not to a leaf`;
  return undefined;
}

/** The text with the scalar at `pointer` (currently `current`) replaced by `next`, its quoting kept; undefined when the token is not where and what it should be. */
function replaceScalar(document: SourceDocument, current: string, next: string): string | undefined {
  const { text } = document;
  const position = document.locate(POINTER);
  const start = offsetOfPosition(text, position.line, position.column);
  if (start < 0) return undefined;
  const quote = text[start] === '"' || text[start] === "'" ? text[start] : '';
  const begin = start + quote.length;
  if (text.slice(begin, begin + current.length) !== current) return undefined;
  const after = text[begin + current.length];
  const closed = quote !== '' ? after === quote : after === undefined || /[\s#,}\]]/.test(after);
  if (!closed) return undefined;
  return `${text.slice(0, begin)}${next}${text.slice(begin + current.length)}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function refuse(document: SourceDocument, findings: Finding[]): PromotionResult {
  return { ok: false, diagnostics: findings.map((f) => locateFinding(document, { code: ERROR_CODES.invalid, ...f })) };
}

/** Why the credential does not back `marketplace-published` for this definition (empty: it does). */
async function credentialFindings(definition: AgentDefinition, credential: unknown, at: string): Promise<Finding[]> {
  const suggestion =
    'issue the AgentFacts credential for this version (agentdef publish) and pass it with --credential <file>';
  if (credential === undefined) {
    return [
      {
        rule: RULE,
        path: POINTER,
        message: '"marketplace-published" requires the AgentFacts credential, and none was given',
        suggestion,
      },
    ];
  }
  const result = await verifyCredential(credential, { at });
  const findings: Finding[] = result.failures.map((f) => ({
    rule: RULE,
    path: POINTER,
    message: `the AgentFacts credential does not verify: at ${f.pointer === '' ? '(credential)' : f.pointer}: ${f.message}`,
    suggestion,
  }));
  const subject = isRecord(credential) ? credential['credentialSubject'] : undefined;
  const expectedName = `urn:agentdef:agent:${definition.identity.id}`;
  if (
    !isRecord(subject) ||
    subject['agent_name'] !== expectedName ||
    subject['version'] !== definition.identity.versionSemver
  ) {
    findings.push({
      rule: RULE,
      path: '/identity/id',
      message: `the AgentFacts credential is not about this agent version: its subject must have agent_name "${expectedName}" and version "${definition.identity.versionSemver}"`,
      suggestion,
    });
  }
  return findings;
}

export async function promoteDefinitionText(request: PromotionRequest): Promise<PromotionResult> {
  const parsed = parseDefinitionText(request.text, request.file, request.format);
  if (!parsed.document || hasErrors(parsed.diagnostics)) return { ok: false, diagnostics: parsed.diagnostics };
  const document = parsed.document;
  const before = document.value;
  const from = isRecord(before) ? before['lifecycleState'] : undefined;
  if (typeof from !== 'string' || !LIFECYCLE_STAGES.includes(from as LifecycleState)) {
    return refuse(document, [
      {
        rule: RULE,
        path: POINTER,
        message: 'lifecycleState is missing or not a stage, so there is no stage to move from',
        suggestion: `set lifecycleState to one of ${LIFECYCLE_STAGES.join(', ')} and validate the file`,
      },
    ]);
  }
  const to = request.to;
  if (!LIFECYCLE_STAGES.includes(to as LifecycleState)) {
    return refuse(document, [
      {
        rule: RULE,
        path: POINTER,
        message: `"${to.slice(0, 80)}" is not a lifecycle stage`,
        suggestion: `--to one of ${LIFECYCLE_STAGES.join(', ')}`,
      },
    ]);
  }
  const fromIndex = LIFECYCLE_STAGES.indexOf(from as LifecycleState);
  const toIndex = LIFECYCLE_STAGES.indexOf(to as LifecycleState);
  if (toIndex === fromIndex)
    return refuse(document, [
      {
        rule: RULE,
        path: POINTER,
        message: `the definition is already at "${from}"`,
        suggestion: 'name another stage',
      },
    ]);
  const transition = toIndex > fromIndex ? 'promotion' : 'demotion';

  const text = replaceScalar(document, from, to);
  if (text === undefined) {
    return refuse(document, [
      {
        rule: RULE,
        path: POINTER,
        message: 'lifecycleState is not written as a plain or quoted scalar agentdef can change in place',
        suggestion: `write it as lifecycleState: "${from}" and run promote again`,
      },
    ]);
  }
  const next = parseDefinitionText(text, request.file, request.format);
  if (!next.document || hasErrors(next.diagnostics)) return { ok: false, diagnostics: next.diagnostics };
  // A promotion stops at every stage that applies to the definition (as it would be): it may pass
  // only a stage that does not apply, and the receipt says which and why. Checked before the gates,
  // so a jump is named as such.
  const shape = next.document.value as Pick<AgentDefinition, 'composition'> | undefined;
  const skipped: SkippedStage[] = [];
  for (const stage of transition === 'promotion' ? LIFECYCLE_STAGES.slice(fromIndex + 1, toIndex) : []) {
    const reason = notApplicable(stage, shape);
    if (reason === undefined) {
      return refuse(document, [
        {
          rule: RULE,
          path: POINTER,
          message: `"${from}" to "${to}" skips "${stage}": a promotion moves one stage at a time through every stage that applies to the agent, so every gate is checked`,
          suggestion: `promote to "${stage}" first (--to ${stage})`,
        },
      ]);
    }
    skipped.push({ stage, reason });
  }
  const toReason = transition === 'promotion' ? notApplicable(to as LifecycleState, shape) : undefined;
  if (toReason !== undefined) {
    const after = LIFECYCLE_STAGES.slice(toIndex + 1).find((stage) => notApplicable(stage, shape) === undefined);
    return refuse(document, [
      {
        rule: RULE,
        path: POINTER,
        message: `"${to}" does not apply to this agent: ${toReason}`,
        suggestion: after
          ? `promote to "${after}": it passes "${to}" and the receipt says why`
          : 'choose a stage that applies',
      },
    ]);
  }
  const validated = validateDocument(next.document);
  const errors = validated.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0 || validated.definition === undefined) {
    // The would-be file's diagnostics, each saying the stage it was checked for.
    return { ok: false, diagnostics: errors.map((d) => ({ ...d, message: `as "${to}": ${d.message}` })) };
  }
  const definition = validated.definition;
  if (to === 'marketplace-published') {
    const findings = await credentialFindings(definition, request.credential, request.at);
    if (findings.length > 0) return refuse(next.document, findings);
  }

  let digestBefore: string;
  let digestAfter: string;
  try {
    digestBefore = await definitionDigest(before);
    digestAfter = await definitionDigest(next.document.value);
  } catch (error) {
    return refuse(document, [
      { rule: RULE, path: '', message: `the definition has no canonical JSON form (${(error as Error).message})` },
    ]);
  }
  if (transition === 'promotion' && request.evalRequirement !== undefined) {
    const findings = await evalGateFindings(request.evalRequirement, to as LifecycleState, digestBefore);
    if (findings.length > 0) return refuse(document, findings);
  }
  if (transition === 'promotion' && BENCH_GATED_STAGES.includes(to as LifecycleState)) {
    // Mandatory: no caller reaches tool-shipped without benchmark events of this definition.
    if (request.benchRequirement === undefined)
      return refuse(document, [
        {
          rule: 'lifecycle-bench-gate',
          path: POINTER,
          message: `"${to}" requires signed tool benchmark events of this definition, and none were given`,
          suggestion: `run \`agentdef bench-tool ${request.file}\` and promote with the events it writes (--bench-events <file>)`,
        },
      ]);
    const findings = await benchGateFindings(
      request.benchRequirement,
      to as LifecycleState,
      digestBefore,
      definition.toolInventory,
    );
    if (findings.length > 0) return refuse(document, findings);
  }
  try {
    const receipt = await signLifecycleReceipt(
      {
        receiptVersion: LIFECYCLE_RECEIPT_VERSION,
        agent: {
          id: definition.identity.id,
          slug: definition.identity.slug,
          versionSemver: definition.identity.versionSemver,
          versionId: definition.identity.versionId,
        },
        transition,
        from: from as LifecycleState,
        to: to as LifecycleState,
        definition: { file: request.file.split(/[\\/]/).pop() ?? request.file, digestBefore, digestAfter },
        ...(skipped.length > 0 ? { skipped } : {}),
        at: request.at,
      },
      request.signer.privateJwk,
      request.signer.kid,
    );
    return { ok: true, text, receipt, from: from as LifecycleState, to: to as LifecycleState, transition, skipped };
  } catch (error) {
    return refuse(document, [
      {
        rule: RULE,
        path: '/identity/signingKeyRef',
        message: `the signing key cannot sign (${(error as Error).name})`,
        suggestion: 'give an Ed25519 private key (agentdef keys generate keyref:<name>)',
      },
    ]);
  }
}
