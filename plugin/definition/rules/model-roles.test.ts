import { describe, expect, it } from 'vitest';
import type { AgentDefinition, LlmPin } from '../../schema/generated/agent-definition.types';
import { resolveModelRoles } from '../model-roles';
import { modelRolesRule as rule } from './model-roles';
import { EXAMPLE_FILES, loadExample, runRule } from './test-support';

const triage = (): AgentDefinition => loadExample('support-triage');
const paths = (def: AgentDefinition) => runRule(rule, def).map((f) => f.path);
const messages = (def: AgentDefinition) => runRule(rule, def).map((f) => f.message);

describe('model-roles', () => {
  it.each(Object.keys(EXAMPLE_FILES))('passes the %s example', (slug) => {
    expect(runRule(rule, loadExample(slug))).toEqual([]);
  });

  it('resolves the support-triage example into the plan the runtime runs', () => {
    expect(resolveModelRoles(triage()).plan).toEqual({
      route: {
        by: 0,
        routes: [
          { label: 'billing', to: 1, description: 'Invoices, charges, refunds, plans and payment methods.' },
          { label: 'technical', to: 2, description: 'Errors, installation, the CLI, the API and integrations.' },
        ],
        default: 2,
      },
      evaluate: { by: 3, maxRetries: 1, escalateTo: 2 },
    });
  });

  it('refuses an evaluator with no invariants to judge, at its role', () => {
    const def = triage();
    def.capabilityContract.invariants = [];
    expect(paths(def)).toEqual(['/modelSet/3/role']);
    expect(messages(def)[0]).toContain('capabilityContract.invariants is empty');
  });

  it('refuses two routers, at the second', () => {
    const def = triage();
    def.modelSet[1]!.role = 'router';
    expect(paths(def)).toContain('/modelSet/1/role');
    expect(messages(def).join('\n')).toContain('is a second router');
  });

  it('refuses a routing label naming no pin, suggesting the nearest name', () => {
    const def = triage();
    def.composition.routing!.routes[0]!.to = 'biling';
    const findings = runRule(rule, def);
    expect(findings.map((f) => f.path)).toEqual(['/composition/routing/routes/0/to', '/modelSet/1/role']);
    expect(findings[0]?.suggestion).toBe('Did you mean "billing"?');
    // The billing specialist is now unreachable: said at its own pin.
    expect(findings[1]?.message).toContain('would never be called');
  });

  it('refuses a route to a pin that does not answer (the evaluator)', () => {
    const def = triage();
    def.composition.routing!.default = 'reviewer';
    expect(paths(def)).toEqual(['/composition/routing/default']);
    expect(messages(def)[0]).toContain('needs an answering pin (role primary or specialist)');
  });

  it('refuses duplicate labels and duplicate pin names', () => {
    const def = triage();
    def.composition.routing!.routes[1]!.label = 'billing';
    def.modelSet[2]!.name = 'billing';
    expect(paths(def)).toEqual(expect.arrayContaining(['/modelSet/2/name', '/composition/routing/routes/1/label']));
  });

  it('refuses a decider with no routing rule when other pins answer, and answering pins past the first', () => {
    const def = triage();
    delete def.composition.routing;
    delete def.composition.evaluation;
    expect(paths(def)).toEqual(['/modelSet/0/role', '/modelSet/2/role']);
  });

  it('refuses routing with no decider, evaluation with no evaluator, and escalation to a non-answering pin', () => {
    const def = triage();
    def.modelSet = def.modelSet.filter((p: LlmPin) => p.role === 'specialist');
    def.composition.routing!.by = undefined as unknown as string;
    delete def.composition.routing!.by;
    def.composition.evaluation = { maxRetries: 1, escalateTo: 'triage' };
    expect(paths(def)).toEqual([
      '/composition/routing',
      '/composition/evaluation',
      '/composition/evaluation/escalateTo',
    ]);
  });

  it('refuses routing and evaluation in a dag, and an evaluator there', () => {
    const def = loadExample('write-router');
    def.capabilityContract.invariants = ['x'];
    def.composition.routing = { routes: [{ label: 'a', to: 'x' }], default: 'x' };
    def.modelSet.push({ ...def.modelSet[0]!, role: 'evaluator' });
    expect(paths(def)).toEqual(['/composition/routing', '/modelSet/1/role']);
  });

  it('accepts a lone router or classifier leaf (it answers itself) and a primary with an evaluator', () => {
    const def = triage();
    def.modelSet = [def.modelSet[0]!];
    delete def.composition.routing;
    delete def.composition.evaluation;
    expect(paths(def)).toEqual([]);
    expect(resolveModelRoles(def).plan).toEqual({ answer: 0 });
    const judged = triage();
    judged.modelSet = [{ ...judged.modelSet[1]!, role: 'primary' }, judged.modelSet[3]!];
    delete judged.composition.routing;
    delete judged.composition.evaluation;
    expect(paths(judged)).toEqual([]);
    expect(resolveModelRoles(judged).plan).toEqual({ answer: 0, evaluate: { by: 1, maxRetries: 1 } });
  });

  it('refuses a leaf whose only pin is an evaluator', () => {
    const def = triage();
    def.modelSet = [def.modelSet[3]!];
    delete def.composition.routing;
    delete def.composition.evaluation;
    expect(paths(def)).toEqual(['/modelSet/0/role']);
    expect(messages(def)[0]).toContain('No pin answers');
  });
});
