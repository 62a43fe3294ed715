/** A finished tool-only loop (one `calc.add` call answering `{"sum":3}`): what receipts are built from in tests. */
import type { LoopResult } from '../agent-loop';

export function loopResult(overrides: Partial<LoopResult> = {}): LoopResult {
  return {
    stopReason: 'answer',
    skillId: 'add',
    answer: { text: '{"sum":3}', data: { sum: 3 } },
    toolCalls: [{ seq: 1, step: 1, name: 'add', toolId: 'calc.add', ok: true }],
    steps: 1,
    subrequests: 1,
    compactions: [],
    quarantined: [],
    usage: { inputTokens: 0, outputTokens: 0 },
    ...overrides,
  };
}
