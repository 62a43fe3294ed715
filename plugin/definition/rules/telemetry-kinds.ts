/**
 * `telemetryContract.telemetryKinds` names the streams the agent emits, and only an agent can
 * emit the agentic ones. The seed: a tool (empty `modelSet`) "emits tool-taxonomy telemetry
 * only", so a tool declares `events` and nothing else; `session-report` reports an agent's
 * session and `experiment` keys on the exact model set, so both need at least one model pin.
 */
import type { Finding } from '../diagnostic';
import type { SemanticRule } from './rule';

const RULE = 'telemetry-kinds';

/** The kinds a tool (no model pin) may declare. */
export const TOOL_TELEMETRY_KINDS: readonly string[] = ['events'];

export const telemetryKindsRule: SemanticRule = {
  name: RULE,
  description:
    'A tool (empty modelSet) emits tool-taxonomy telemetry only: its telemetryKinds may hold "events" alone; session-report and experiment need a model pin.',
  check(definition) {
    if (definition.modelSet.length > 0) return [];
    const findings: Finding[] = [];
    definition.telemetryContract.telemetryKinds.forEach((kind, index) => {
      if (TOOL_TELEMETRY_KINDS.includes(kind)) return;
      findings.push({
        rule: RULE,
        path: `/telemetryContract/telemetryKinds/${index}`,
        message: `telemetryKinds "${kind}" needs an agent, but modelSet is empty: a tool emits tool-taxonomy telemetry ("events") only, so no host would produce "${kind}".`,
        suggestion: `Remove "${kind}", or pin a model in modelSet if this is an agent.`,
      });
    });
    return findings;
  },
};
