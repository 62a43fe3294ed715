/**
 * The semantic rules, in the order they run and report. Each rule is one file; adding a rule is
 * adding a file and a line here.
 */
import { agentFactsExportRule } from './agentfacts-export';
import { agenticGateRule } from './agentic-gate';
import { budgetsRule } from './budgets';
import { cardExportsRule } from './card-exports';
import { compositionShapeRule } from './composition-shape';
import { controlCharactersRule } from './control-characters';
import { exactModelsRule } from './exact-models';
import { keyCustodyRule } from './key-custody';
import { kymRefRule } from './kym-ref';
import { lifecycleGatesRule } from './lifecycle-gates';
import { limitsRule } from './limits';
import { memoryEgressRule } from './memory-egress';
import { modelRolesRule } from './model-roles';
import { modelTaskRule } from './model-task';
import { oasfExportRule } from './oasf-export';
import { pinsRule } from './pins';
import type { SemanticRule } from './rule';
import { samplingParamsRule } from './sampling-params';
import { sandboxingRule } from './sandboxing';
import { secretsRule } from './secrets';
import { telemetryKindsRule } from './telemetry-kinds';
import { toolFieldsRule } from './tool-fields';
import { uniqueBindingsRule } from './unique-bindings';
import { urlFieldsRule } from './url-fields';

export type { RuleOptions, SemanticRule } from './rule';
export { DEFAULT_RULE_OPTIONS } from './rule';

export const SEMANTIC_RULES: readonly SemanticRule[] = [
  agenticGateRule,
  lifecycleGatesRule,
  kymRefRule,
  compositionShapeRule,
  pinsRule,
  modelRolesRule,
  modelTaskRule,
  exactModelsRule,
  samplingParamsRule,
  toolFieldsRule,
  urlFieldsRule,
  sandboxingRule,
  budgetsRule,
  limitsRule,
  secretsRule,
  uniqueBindingsRule,
  controlCharactersRule,
  cardExportsRule,
  agentFactsExportRule,
  oasfExportRule,
  keyCustodyRule,
  telemetryKindsRule,
  memoryEgressRule,
];

export {
  agentFactsExportRule,
  agenticGateRule,
  budgetsRule,
  cardExportsRule,
  compositionShapeRule,
  controlCharactersRule,
  exactModelsRule,
  keyCustodyRule,
  kymRefRule,
  lifecycleGatesRule,
  limitsRule,
  memoryEgressRule,
  modelRolesRule,
  modelTaskRule,
  oasfExportRule,
  pinsRule,
  samplingParamsRule,
  sandboxingRule,
  secretsRule,
  telemetryKindsRule,
  toolFieldsRule,
  uniqueBindingsRule,
  urlFieldsRule,
};
