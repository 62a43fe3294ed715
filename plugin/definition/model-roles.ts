/**
 * How the pins of one definition work together, resolved once: which pin routes, which pins
 * answer, which pin judges, and the problems that would keep the roles from making a run. The
 * `model-roles` rule reports the problems; the compiler projects the resolved plan into the
 * runtime config (`hybrid`), so what is checked is exactly what runs.
 *
 * Roles: `router`/`classifier` decide (one at most), `primary`/`specialist` answer, `evaluator`
 * judges against `capabilityContract.invariants` (one at most, and only with invariants).
 * A leaf without `composition.routing` has exactly one answering pin (a lone router or classifier
 * answers itself); with routing, every answering pin is reachable from a route, the default or
 * `evaluation.escalateTo`. A DAG routes by its edges: routing and evaluation are leaf-only.
 */
import type { AgentDefinition, LlmPin } from '../schema/generated/agent-definition.types';
import type { Finding } from './diagnostic';
import { nearestName } from './nearest-name';

const RULE = 'model-roles';

export interface LeafRoutePlan {
  /** Index of the deciding pin in `modelSet`. */
  by: number;
  routes: { label: string; to: number; description?: string }[];
  default: number;
}

export interface LeafEvaluationPlan {
  /** Index of the evaluator pin. */
  by: number;
  maxRetries: number;
  escalateTo?: number;
}

export interface LeafRolePlan {
  /** The answering pin when there is no routing rule. */
  answer?: number;
  route?: LeafRoutePlan;
  evaluate?: LeafEvaluationPlan;
}

const DECIDES = new Set(['router', 'classifier']);
const ANSWERS = new Set(['primary', 'specialist']);

function label(pin: LlmPin, index: number): string {
  return `modelSet[${index}] (${pin.name ? `"${pin.name}", ` : ''}${pin.role})`;
}

/** The roles' plan and what is wrong with it (an empty list: the plan runs as declared). */
export function resolveModelRoles(definition: AgentDefinition): { plan: LeafRolePlan; findings: Finding[] } {
  const findings: Finding[] = [];
  const pins = definition.modelSet;
  const composition = definition.composition;
  const plan: LeafRolePlan = {};
  const byName = new Map<string, number>();
  pins.forEach((pin, index) => {
    if (pin.name === undefined) return;
    const first = byName.get(pin.name);
    if (first !== undefined)
      findings.push({
        rule: RULE,
        path: `/modelSet/${index}/name`,
        message: `${label(pin, index)} has the name "${pin.name}" that modelSet[${first}] already has: routing and evaluation name pins, so each name points at one pin.`,
        suggestion: `Give modelSet[${index}] a name of its own.`,
      });
    else byName.set(pin.name, index);
  });

  const deciders = indicesWhere(pins, (p) => DECIDES.has(p.role));
  const answerers = indicesWhere(pins, (p) => ANSWERS.has(p.role));
  const evaluators = indicesWhere(pins, (p) => p.role === 'evaluator');
  for (const extra of deciders.slice(1))
    findings.push({
      rule: RULE,
      path: `/modelSet/${extra}/role`,
      message: `${label(pins[extra]!, extra)} is a second ${pins[extra]!.role}: modelSet[${deciders[0]}] already decides, and a run has one routing decision.`,
      suggestion:
        'Keep one router or classifier pin; give this one the role it plays (primary or specialist), or remove it.',
    });
  for (const extra of evaluators.slice(1))
    findings.push({
      rule: RULE,
      path: `/modelSet/${extra}/role`,
      message: `${label(pins[extra]!, extra)} is a second evaluator: modelSet[${evaluators[0]}] already judges every answer.`,
      suggestion: 'Keep one evaluator pin, or remove this one.',
    });
  const invariants = definition.capabilityContract.invariants;
  for (const index of evaluators.slice(0, 1))
    if (invariants.length === 0)
      findings.push({
        rule: RULE,
        path: `/modelSet/${index}/role`,
        message: `${label(pins[index]!, index)} is an evaluator, but capabilityContract.invariants is empty: an evaluator judges answers against the invariants, so it would have nothing to judge.`,
        suggestion:
          'Add the postconditions every answer must meet to capabilityContract.invariants, or remove the evaluator pin.',
      });

  if (composition.kind === 'dag') {
    for (const key of ['routing', 'evaluation'] as const)
      if (composition[key] !== undefined)
        findings.push({
          rule: RULE,
          path: `/composition/${key}`,
          at: 'key',
          message: `composition.${key} is for a leaf, whose models run in one process; this composition is a dag, which ${key === 'routing' ? 'routes by its edges (gate "llm-decides" asks the router pin)' : 'runs its children, each judged by its own evaluator'}.`,
          suggestion: `Remove composition.${key}, or make the composition a leaf.`,
        });
    for (const index of evaluators.slice(0, 1))
      findings.push({
        rule: RULE,
        path: `/modelSet/${index}/role`,
        message: `${label(pins[index]!, index)} is an evaluator in a dag: a dag's answer is its children's, and each child judges its own answers.`,
        suggestion: 'Move the evaluator pin into the child leaf whose answers it should judge.',
      });
    return { plan, findings };
  }

  const pinRef = (name: string, path: string, allowed: ReadonlySet<string>, what: string): number | undefined => {
    const index = byName.get(name);
    if (index === undefined) {
      const near = nearestName(name, byName.keys());
      findings.push({
        rule: RULE,
        path,
        message: `"${name}" names no pin: no pin in modelSet has that name.`,
        suggestion:
          near !== undefined
            ? `Did you mean "${near}"?`
            : `Name ${what} pin (modelSet[i].name) and use that name here; the named pins are: ${[...byName.keys()].join(', ') || 'none'}.`,
      });
      return undefined;
    }
    const pin = pins[index]!;
    if (!allowed.has(pin.role)) {
      findings.push({
        rule: RULE,
        path,
        message: `"${name}" is ${label(pin, index)}, but this place needs ${what} pin (role ${[...allowed].join(' or ')}).`,
        suggestion: `Point at a pin with role ${[...allowed].join(' or ')}.`,
      });
      return undefined;
    }
    return index;
  };

  const reached = new Set<number>();
  const routing = composition.routing;
  if (routing !== undefined) {
    let by: number | undefined;
    if (routing.by !== undefined) by = pinRef(routing.by, '/composition/routing/by', DECIDES, 'a router or classifier');
    else if (deciders.length === 0)
      findings.push({
        rule: RULE,
        path: '/composition/routing',
        at: 'key',
        message: 'composition.routing needs a pin that decides, and modelSet has no router or classifier pin.',
        suggestion: 'Add a modelSet pin with role "router" (or "classifier"), or remove composition.routing.',
      });
    else by = deciders[0];
    const labels = new Map<string, number>();
    const routes: LeafRoutePlan['routes'] = [];
    routing.routes.forEach((route, i) => {
      const seen = labels.get(route.label);
      if (seen !== undefined)
        findings.push({
          rule: RULE,
          path: `/composition/routing/routes/${i}/label`,
          message: `The label "${route.label}" is already routes[${seen}]'s: the router's reply would be ambiguous.`,
          suggestion: 'Give each route its own label.',
        });
      labels.set(route.label, i);
      const to = pinRef(route.to, `/composition/routing/routes/${i}/to`, ANSWERS, 'an answering');
      if (to !== undefined) {
        reached.add(to);
        routes.push({ label: route.label, to, ...(route.description ? { description: route.description } : {}) });
      }
    });
    const fallback = pinRef(routing.default, '/composition/routing/default', ANSWERS, 'an answering');
    if (fallback !== undefined) reached.add(fallback);
    if (by !== undefined && fallback !== undefined && routes.length === routing.routes.length)
      plan.route = { by, routes, default: fallback };
  } else {
    // No routing rule: one pin answers. A lone router or classifier answers itself.
    const candidates = answerers.length > 0 ? answerers : deciders.slice(0, 1);
    if (candidates[0] !== undefined) {
      plan.answer = candidates[0];
      reached.add(candidates[0]);
    } else if (pins.length > 0)
      findings.push({
        rule: RULE,
        path: '/modelSet/0/role',
        message: `No pin answers: the leaf's only models are evaluators, and an evaluator judges answers another pin gives.`,
        suggestion: 'Add a modelSet pin with role "primary" (or "specialist") that answers the task.',
      });
    if (answerers.length > 0)
      for (const index of deciders.slice(0, 1))
        findings.push({
          rule: RULE,
          path: `/modelSet/${index}/role`,
          message: `${label(pins[index]!, index)} would never be called: a leaf's ${pins[index]!.role} decides between pins only through composition.routing, and this leaf has none.`,
          suggestion: 'Add composition.routing (the labels, the pin each goes to, the default), or remove this pin.',
        });
  }

  const evaluation = composition.evaluation;
  const evaluator = evaluators[0];
  if (evaluation !== undefined || evaluator !== undefined) {
    let by: number | undefined = evaluator;
    if (evaluation?.by !== undefined)
      by = pinRef(evaluation.by, '/composition/evaluation/by', new Set(['evaluator']), 'an evaluator');
    else if (evaluator === undefined)
      findings.push({
        rule: RULE,
        path: '/composition/evaluation',
        at: 'key',
        message:
          'composition.evaluation says what happens when the evaluator fails an answer, but modelSet has no evaluator pin.',
        suggestion: 'Add a modelSet pin with role "evaluator", or remove composition.evaluation.',
      });
    let escalateTo: number | undefined;
    if (evaluation?.escalateTo !== undefined) {
      escalateTo = pinRef(evaluation.escalateTo, '/composition/evaluation/escalateTo', ANSWERS, 'an answering');
      if (escalateTo !== undefined) reached.add(escalateTo);
    }
    if (by !== undefined && invariants.length > 0)
      plan.evaluate = {
        by,
        maxRetries: evaluation?.maxRetries ?? 1,
        ...(escalateTo !== undefined ? { escalateTo } : {}),
      };
  }

  if (routing !== undefined || answerers.length > 1)
    for (const index of answerers)
      if (!reached.has(index))
        findings.push({
          rule: RULE,
          path: `/modelSet/${index}/role`,
          message: `${label(pins[index]!, index)} would never be called: ${routing === undefined ? 'a leaf without composition.routing has one answering pin, and this is not the first' : 'no route, default or escalateTo names it'}.`,
          suggestion:
            routing === undefined
              ? 'Add composition.routing to choose between the answering pins, or remove this pin.'
              : `Name this pin (modelSet[${index}].name) in a route's "to", in routing.default or in evaluation.escalateTo, or remove it.`,
        });
  return { plan, findings };
}

function indicesWhere(pins: readonly LlmPin[], test: (pin: LlmPin) => boolean): number[] {
  const out: number[] = [];
  pins.forEach((pin, index) => {
    if (test(pin)) out.push(index);
  });
  return out;
}
