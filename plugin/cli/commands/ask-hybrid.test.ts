/** The hybrid line of `agentdef ask`: the route and the verdicts from the task metadata, nothing else. */
import { describe, expect, it } from 'vitest';
import { hybridLine } from './ask-hybrid';

describe('hybridLine', () => {
  it('names the route and each verdict in order, never the critique', () => {
    const line = hybridLine({
      hybrid: {
        route: { label: 'billing', pin: 'billing' },
        verdicts: [
          { pin: 'billing', pass: false, score: 0.67, critique: 'End with a next step.', failed: [2] },
          { pin: 'billing', pass: true, score: 1, critique: '', failed: [] },
        ],
      },
    });
    expect(line).toBe('hybrid: routed to billing (label billing); evaluator: billing failed, billing passed');
  });

  it('says when the default answered, and prints the route alone when nothing was judged', () => {
    expect(hybridLine({ hybrid: { route: { pin: 'technical' }, verdicts: [] } })).toBe(
      'hybrid: routed to technical (the default: the router named no label)',
    );
    expect(hybridLine({ hybrid: { verdicts: [{ pin: 'technical', pass: true }] } })).toBe(
      'hybrid: evaluator: technical passed',
    );
  });

  it('prints nothing for a task that is not a hybrid leaf or whose metadata has another shape', () => {
    expect(hybridLine(undefined)).toBeUndefined();
    expect(hybridLine({ receipt: {} })).toBeUndefined();
    expect(hybridLine({ hybrid: 'billing' })).toBeUndefined();
    expect(hybridLine({ hybrid: { route: { pin: 7 }, verdicts: [{ pin: 'x', pass: 'yes' }] } })).toBeUndefined();
  });

  it('keeps a name the agent sent on one bounded line', () => {
    const line = hybridLine({ hybrid: { route: { pin: `evil\n\u001b[31mred${'x'.repeat(200)}` }, verdicts: [] } });
    expect(line).not.toContain('\n');
    expect(line).not.toContain('\u001b');
    expect(line).toMatch(/^hybrid: routed to evil \[31mredx+\.\.\. \(the default/);
    expect(line?.length).toBeLessThan(160);
  });
});
