/**
 * The benchmark gate of a promotion, pure: moving a tool up to `tool-shipped` always rests
 * (`agentdef promote`, the `agentdef:promote` executor) on signed tool benchmark
 * events (`tool-benchmark-events/v1`, written by `agentdef bench-tool` or by `agentdef eval` of a
 * tool-only agent) for exactly the definition being promoted: the batch must be signed by the
 * promoting key (`--key`, else `identity.signingKeyRef`), verify (so an edited, added or removed
 * event, or an unsigned file, never counts), name this definition's digest (so a batch of another
 * definition, or one replayed from an older version of this one, never counts), and hold at least one
 * event for every tool the definition declares (`toolInventory`). Each failure is a finding naming
 * the events file and the command that fixes it; promotion.ts locates it in the definition.
 */
import type { Finding } from '../definition/diagnostic';
import type { LifecycleState } from '../runtime/runtime-config';

/** The stages whose promotion a benchmark requirement gates. */
export const BENCH_GATED_STAGES: readonly LifecycleState[] = ['tool-shipped'];

const RULE = 'lifecycle-bench-gate';
const POINTER = '/lifecycleState';

/** Checks a batch's signature (and form) with a public key: the failures, empty when it verifies. */
export type VerifyBenchEvents = (events: unknown, publicJwk: JsonWebKey) => Promise<string[]>;

export interface BenchRequirement {
  /** The events file as read (parsed JSON; null when it is not JSON), or undefined when there is none. */
  events: unknown;
  /** Where it was looked for, as the user would type it. */
  shown: string;
  /** The promoting key's public half and its kid. */
  publicJwk: JsonWebKey;
  kid: string;
  verify: VerifyBenchEvents;
  /** The command that writes benchmark events for this definition (`agentdef bench-tool <file>`). */
  benchCommand: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Why the requirement is not met for promoting to `to` the definition whose digest is `digest` and
 * whose tools are `tools` (`toolInventory`, in order); empty when it is, or the stage is not gated.
 */
export async function benchGateFindings(
  requirement: BenchRequirement,
  to: LifecycleState,
  digest: string,
  tools: readonly { id: string }[],
): Promise<Finding[]> {
  if (!BENCH_GATED_STAGES.includes(to)) return [];
  const { events, shown, benchCommand } = requirement;
  const prefix = `"${to}" requires signed tool benchmark events of this definition`;
  const rerun = `run \`${benchCommand}\` and promote with the events it writes (--bench-events <file>)`;
  const finding = (message: string, suggestion = rerun, path = POINTER): Finding[] => [
    { rule: RULE, path, message: `${prefix}: ${message}`, suggestion },
  ];
  if (events === undefined) return finding(`there are no benchmark events at ${shown}`);
  if (!isRecord(events) || events['eventsVersion'] !== 'tool-benchmark-events/v1')
    return finding(`${shown} is not a tool benchmark events file (eventsVersion tool-benchmark-events/v1)`);
  const signature = events['signature'];
  if (!isRecord(signature)) return finding(`${shown} is not signed, so none of its events count`);
  const kid = typeof signature['kid'] === 'string' ? signature['kid'] : '';
  if (kid !== requirement.kid)
    return finding(
      `${shown} is signed by key ${kid === '' ? '(none)' : kid}, not by the promoting key ${requirement.kid}`,
      `benchmark with the key that promotes (\`${benchCommand} --key <the same keyref>\`), or promote with --key naming the key that signed it`,
    );
  const failures = await requirement.verify(events, requirement.publicJwk);
  if (failures.length > 0)
    return finding(
      `${shown} does not verify (${failures.slice(0, 3).join('; ')}): it was changed after it was signed, or is not one agentdef wrote`,
    );
  const definition = isRecord(events['definition']) ? events['definition'] : {};
  const measured = definition['digest'];
  if (measured !== digest) {
    const of =
      typeof definition['slug'] === 'string' && typeof definition['version'] === 'string'
        ? ` of ${definition['slug']}@${definition['version']}`
        : '';
    return finding(
      `${shown} measured another definition${of} (digest ${typeof measured === 'string' ? measured : '(none)'}), not this one (digest ${digest}); the definition changed since it was benchmarked`,
    );
  }
  const list = Array.isArray(events['events']) ? events['events'] : [];
  const called = new Set(list.flatMap((e) => (isRecord(e) && typeof e['tool'] === 'string' ? [e['tool']] : [])));
  return tools.flatMap((tool, i) =>
    called.has(tool.id)
      ? []
      : finding(
          `${shown} has no event for tool "${tool.id}": every declared tool must be benchmarked`,
          `add a case that calls "${tool.id}" (evals/*.yaml beside the definition, or --cases), then ${rerun}`,
          `/toolInventory/${i}`,
        ),
  );
}
