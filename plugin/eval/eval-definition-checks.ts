/**
 * An eval case checked against the definition it scores: the skill it asks exists, the tools its
 * assertions name are in `toolInventory`, the invariants it grades exist (by index or exact
 * text), and every model-graded assertion has a grader: a named pin (`modelSet[].name`, or its
 * `modelId`) or, by default, the definition's `evaluator` pin. Pure; pointers relative to the case.
 */
import type { Finding } from '../definition/diagnostic';
import { nearestName } from '../definition/nearest-name';
import type { AgentDefinition } from '../schema/generated/agent-definition.types';
import type { EvalCase, GraderPin } from '../schema/generated/eval-cases.types';

/** The names a grader may be given by: each pin's `name` (when it has one) and `modelId`. */
export function graderNames(definition: AgentDefinition): string[] {
  const names = new Set<string>();
  for (const pin of definition.modelSet) {
    const name = (pin as { name?: unknown }).name;
    if (typeof name === 'string') names.add(name);
    names.add(pin.modelId);
  }
  return [...names];
}

/** The pin that judges by default: the definition's evaluator pin, by name (else model id). */
export function defaultGrader(definition: AgentDefinition): string | undefined {
  const pin = definition.modelSet.find((p) => p.role === 'evaluator');
  if (pin === undefined) return undefined;
  const name = (pin as { name?: unknown }).name;
  return typeof name === 'string' ? name : pin.modelId;
}

/** The index of the invariant an `invariant` assertion names, or undefined when there is none such. */
export function invariantIndex(definition: AgentDefinition, invariant: number | string): number | undefined {
  const invariants = definition.capabilityContract.invariants;
  if (typeof invariant === 'number') return invariant < invariants.length ? invariant : undefined;
  const index = invariants.indexOf(invariant);
  return index < 0 ? undefined : index;
}

function didYouMean(name: string, candidates: string[]): string {
  const guess = nearestName(name, candidates);
  const listed =
    candidates.length > 0 ? `it has: ${candidates.map((c) => JSON.stringify(c)).join(', ')}` : 'it has none';
  return guess === undefined ? listed : `did you mean "${guess}"? ${listed}`;
}

/** The file grader a `grader` name resolves to (file graders come first), or undefined (a definition pin, or none). */
export function fileGraderPin(
  name: string | undefined,
  fileGraders: readonly GraderPin[] | undefined,
): GraderPin | undefined {
  return name === undefined ? undefined : fileGraders?.find((g) => g.name === name);
}

function invariantFinding(definition: AgentDefinition, path: string, invariant: number | string): Finding {
  const invariants = definition.capabilityContract.invariants;
  return {
    rule: 'eval-invariant',
    path,
    message:
      typeof invariant === 'number'
        ? `the definition has ${invariants.length} invariant(s); index ${invariant} names none`
        : 'no invariant of the definition has exactly this text',
    suggestion:
      invariants.length === 0
        ? 'add the invariant to capabilityContract.invariants, or use a rubric assertion'
        : `use a 0-based index (0 to ${invariants.length - 1}) or copy the text exactly from capabilityContract.invariants`,
  };
}

export function caseDefinitionFindings(
  evalCase: EvalCase,
  definition: AgentDefinition,
  fileGrader: string | undefined,
  fileGraders: readonly GraderPin[] = [],
): Finding[] {
  const findings: Finding[] = [];
  const skills = definition.capabilityContract.skills.map((s) => s.id);
  if (evalCase.input.skill !== undefined && !skills.includes(evalCase.input.skill))
    findings.push({
      rule: 'eval-skill',
      path: '/input/skill',
      message: `the definition has no skill "${evalCase.input.skill}"`,
      suggestion: didYouMean(evalCase.input.skill, skills),
    });
  const tools = definition.toolInventory.map((t) => t.name);
  const graders = [...new Set([...fileGraders.map((g) => g.name), ...graderNames(definition)])];
  evalCase.assertions.forEach((assertion, index) => {
    const at = `/assertions/${index}`;
    if ((assertion.type === 'tool-called' || assertion.type === 'tool-not-called') && !tools.includes(assertion.tool))
      findings.push({
        rule: 'eval-tool',
        path: `${at}/tool`,
        message: `the definition's toolInventory has no tool named "${assertion.tool}"`,
        suggestion: didYouMean(assertion.tool, tools),
      });
    if (assertion.type === 'invariant' && invariantIndex(definition, assertion.invariant) === undefined)
      findings.push(invariantFinding(definition, `${at}/invariant`, assertion.invariant));
    assertion.covers?.forEach((invariant, k) => {
      if (invariantIndex(definition, invariant) === undefined)
        findings.push(invariantFinding(definition, `${at}/covers/${k}`, invariant));
    });
    if (assertion.type === 'invariant' || assertion.type === 'rubric') {
      const named = assertion.grader ?? fileGrader;
      if (named !== undefined && !graders.includes(named))
        findings.push({
          rule: 'eval-grader',
          path: assertion.grader !== undefined ? `${at}/grader` : at,
          message: `neither the file's graders nor the definition's modelSet has a grader named "${named}"${assertion.grader === undefined ? " (the file's grader)" : ''}`,
          suggestion: didYouMean(named, graders),
        });
      if (named === undefined && defaultGrader(definition) === undefined)
        findings.push({
          rule: 'eval-grader',
          path: at,
          message: 'a model-graded assertion needs a grader, and the definition has no `evaluator` pin',
          suggestion:
            'name a grader with `grader` (here or at the top of the file; declare one under `graders` in a YAML file), or add a pin with role `evaluator`',
        });
    }
  });
  return findings;
}
