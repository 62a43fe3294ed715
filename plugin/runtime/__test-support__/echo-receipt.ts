/** An unsigned run receipt of one tool-only answer of the echo card, for tests that sign and verify receipts. */
import type { UnsignedReceipt } from '../receipts';

export function echoReceipt(runId: string): UnsignedReceipt {
  return {
    receiptVersion: 'receipt/v1',
    runId,
    issuedAt: '2026-03-01T12:00:00.000Z',
    pinning: { card: 'echo', cardVersion: '1.0.0', skill: 'echo', skillVersion: '1.0.0' },
    agent: { definitionId: '01KT07NYX0REMXMJQP3ND8QVHG', versionId: '01KT07NZW8SC87MJSHJ11S7EHY' },
    lifecycleState: 'tool-shipped',
    agenticGate: 'tool-only',
    latencyMs: 3,
    outcome: { stopReason: 'answer', status: 'answer' },
    toolCalls: [],
    steps: 1,
    subrequests: 0,
    models: [],
    compactions: 0,
  } as UnsignedReceipt;
}
