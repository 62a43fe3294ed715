/** The order of a workflow's steps as the Kubernetes step Jobs number them. */
import { describe, expect, it } from 'vitest';
import { orderedSteps, stepNumber, type WorkflowStep } from './workflow-order';

const step = (id: string, after: string[] = []): WorkflowStep => ({
  id,
  name: id,
  agent: `${id}@1.0.0`,
  parent: 'root@1.0.0',
  isolation: 'job',
  dependsOn: after.map((s) => ({ step: s, gate: 'deterministic' })),
});

describe('orderedSteps', () => {
  it('puts every step after the steps it depends on, even when the plan lists it first', () => {
    const order = orderedSteps([step('c', ['b']), step('a'), step('b', ['a'])]).map((s) => s.id);
    expect(order).toEqual(['a', 'b', 'c']);
  });

  it('keeps the plan order among steps free at once (a diamond)', () => {
    const order = orderedSteps([step('a'), step('c', ['a']), step('b', ['a']), step('d', ['b', 'c'])]).map((s) => s.id);
    expect(order).toEqual(['a', 'c', 'b', 'd']);
  });

  it('ignores a dependency on a step outside the list (the driver, another composition)', () => {
    expect(orderedSteps([step('b', ['elsewhere']), step('a')]).map((s) => s.id)).toEqual(['b', 'a']);
  });
});

describe('stepNumber', () => {
  it('numbers from 01, as wide as the largest number', () => {
    expect([stepNumber(0, 2), stepNumber(1, 2)]).toEqual(['01', '02']);
    expect([stepNumber(0, 120), stepNumber(119, 120)]).toEqual(['001', '120']);
  });
});
