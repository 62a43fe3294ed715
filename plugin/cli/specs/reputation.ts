/** The table of `agentdef reputation` (command-spec.ts). */
import type { CommandSpec } from './command-spec';
import { USAGE_OR_IO, FORMAT, SIGNING_AT } from './shared-options';

export const REPUTATION_WINDOW = {
  type: 'string',
  value: 'window',
  default: '30d',
  description:
    'the receipts counted: those issued in the last <n>d or <n>h before --at, or between <start>/<end> (RFC 3339 date-times with their zones); others are counted as outside-window',
} as const;

export const REPUTATION_TRUST = {
  type: 'string',
  value: 'dir',
  otherwise:
    "each receipt's kid is looked up among the local key store's public keys (`agentdef keys generate`), trusted for every agent",
  description:
    'a folder of public Ed25519 JWKs whose signatures count: a file at its top is trusted for every agent, a file in a subfolder named after a slug for that slug only',
} as const;

export const REPUTATION = {
  name: 'reputation',
  arguments: [
    {
      name: '<receipts>...',
      description:
        'receipt files (JSON Lines of run or lifecycle receipts, an eval receipt) or folders of them (*.jsonl, *.ndjson, *receipt*.json, searched recursively)',
    },
  ],
  summary: 'score each slug@version from signed run, eval and lifecycle receipts',
  description:
    "Verifies every receipt strictly (as `agentdef verify` does) and counts only those signed by a key trusted for the agent they name, once each (a replay, or a receipt for the same run, card and skill, counts once), issued in the window. Prints per slug@version the success rate, eval pass rate, latency p50/p95, tokens and model calls, the receipts counted, and the combined score (docs/reputation.md); a parent is credited with its composed children's runs at 0.5 per composition layer. Every receipt not counted is printed with its reason (forged-signature, unsigned, untrusted-signer, replayed, malformed, outside-window) and counted.",
  options: {
    window: REPUTATION_WINDOW,
    at: {
      ...SIGNING_AT,
      otherwise: 'now',
      description: 'the end of a duration window (RFC 3339 date-time with its zone)',
    },
    trust: REPUTATION_TRUST,
    format: FORMAT,
  },
  exitCodes: ['scored (every receipt not counted is listed with its reason)', 'no receipt counted at all', USAGE_OR_IO],
} as const satisfies CommandSpec;
