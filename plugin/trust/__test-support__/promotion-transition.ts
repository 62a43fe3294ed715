/** An unsigned lifecycle receipt of one promotion (tool-prototype → tool-shipped), for tests that sign and verify it. */
import { LIFECYCLE_RECEIPT_VERSION, type signLifecycleReceipt } from '../lifecycle-receipt';

export function promotionTransition(): Parameters<typeof signLifecycleReceipt>[0] {
  return {
    receiptVersion: LIFECYCLE_RECEIPT_VERSION,
    agent: {
      id: '01KQB8J5284X2B3T395NAM3B7D',
      slug: 'text-stats',
      versionSemver: '1.0.0',
      versionId: '01KQXTGGAHPQXPXEVVWRWT04ZM',
    },
    transition: 'promotion',
    from: 'tool-prototype',
    to: 'tool-shipped',
    definition: {
      file: 'agent.json',
      digestBefore: `sha-256:${'a'.repeat(64)}`,
      digestAfter: `sha-256:${'b'.repeat(64)}`,
    },
    at: '2026-03-01T12:00:00Z',
  };
}
