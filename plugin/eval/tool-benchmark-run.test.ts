/**
 * The events of one observed run: one per tool call, the tool named by its inventory id and the
 * operation by the name it was called by, the skill from the run receipt's pinning (else the
 * case's, else the definition's first), the category that skill's first tag, the host's latency
 * from the receipt (else the client's), a failed call's error code; a run with no tool call gives none.
 */
import { describe, expect, it } from 'vitest';
import type { AskedCase } from './ask-case';
import type { EvalObservation } from './observation';
import { toolBenchmarkEventsOfRun, UNCATEGORISED } from './tool-benchmark-run';

const definition = {
  capabilityContract: {
    inputs: [],
    outputs: [],
    invariants: [],
    skills: [
      { id: 'search', name: 'Search', description: 'd', version: '1.0.0', tags: ['retrieval', 'code'] },
      { id: 'bare', name: 'Bare', description: 'd', version: '1.0.0', tags: [] },
    ],
  },
  toolInventory: [
    { id: 'code-search', name: 'search_code', version: '1.0.0', provenance: 'mcp', risk: 'low' },
    { id: 'stats', name: 'count', version: '1.0.0', provenance: 'native', risk: 'low' },
  ],
} as never;

function asked(observation: Partial<EvalObservation>, receipt?: Record<string, unknown>): AskedCase {
  return {
    observation: {
      caseId: 'c',
      stopReason: 'answer',
      latencyMs: 40,
      usage: { inputTokens: 0, outputTokens: 0 },
      modelCalls: 0,
      toolCalls: [],
      egressBlocked: [],
      ...observation,
    },
    ...(receipt ? { receipt } : {}),
  };
}

describe('toolBenchmarkEventsOfRun', () => {
  it('names the tool, operation, skill and category, and takes the host latency from the run receipt', () => {
    const events = toolBenchmarkEventsOfRun(definition, {
      asked: asked(
        { runId: 'R1', toolCalls: [{ name: 'search_code', ok: true }] },
        { pinning: { skill: 'search' }, latencyMs: 7 },
      ),
      caseId: 'find-it',
      iteration: 2,
    });
    expect(events).toEqual([
      {
        runId: 'R1',
        caseId: 'find-it',
        iteration: 2,
        skill: 'search',
        category: 'retrieval',
        tool: 'code-search',
        operation: 'search_code',
        latencyMs: 7,
        ok: true,
      },
    ]);
  });

  it("without a receipt: the case's skill, the client's latency; a failed call keeps its error code", () => {
    const [event] = toolBenchmarkEventsOfRun(definition, {
      asked: asked({ toolCalls: [{ name: 'count', ok: false, errorCode: 'tool_failed' }] }),
      caseId: 'c',
      iteration: 1,
      caseSkill: 'bare',
    });
    expect(event).toEqual({
      caseId: 'c',
      iteration: 1,
      skill: 'bare',
      category: UNCATEGORISED,
      tool: 'stats',
      operation: 'count',
      latencyMs: 40,
      ok: false,
      errorCode: 'tool_failed',
    });
  });

  it("a failed call with no code of its own takes the run's, and a run with no tool call gives no event", () => {
    const [event] = toolBenchmarkEventsOfRun(definition, {
      asked: asked({ toolCalls: [{ name: 'count', ok: false }], error: { code: 'limit:wall_clock', message: '' } }),
      caseId: 'c',
      iteration: 1,
    });
    expect(event).toMatchObject({ skill: 'search', ok: false, errorCode: 'limit:wall_clock' });
    expect(toolBenchmarkEventsOfRun(definition, { asked: asked({}), caseId: 'c', iteration: 1 })).toEqual([]);
  });
});
