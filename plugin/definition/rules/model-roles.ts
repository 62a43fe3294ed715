/**
 * The model pins make a run: at most one router or classifier, at most one evaluator and only with
 * invariants to judge, every routing label and escalation naming an answering pin, every pin
 * reachable. The resolution itself is `resolveModelRoles` (model-roles.ts), which the compiler
 * also uses, so the rule and the runtime config cannot disagree.
 */
import { resolveModelRoles } from '../model-roles';
import type { SemanticRule } from './rule';

export const modelRolesRule: SemanticRule = {
  name: 'model-roles',
  description:
    'The model pins make a run: one router or classifier at most, one evaluator at most and only with invariants, routing and escalation naming answering pins, no pin that is never called, routing and evaluation only in a leaf.',
  check(definition) {
    return resolveModelRoles(definition).findings;
  },
};
