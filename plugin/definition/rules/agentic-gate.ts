/**
 * The agentic gate: an entity with no model is a tool, one with a model is an agent that must
 * register in KYM. Both facts are stored explicitly (never inferred), so this rule audits them.
 */
import type { Finding } from '../diagnostic';
import type { SemanticRule } from './rule';

const RULE = 'agentic-gate';

export const agenticGateRule: SemanticRule = {
  name: RULE,
  description:
    'telemetryContract.agenticGate is "tool-only" exactly when modelSet is empty, and kymRegistrationRequired is true exactly when the gate is "agentic".',
  check(definition) {
    const findings: Finding[] = [];
    const models = definition.modelSet.length;
    const { agenticGate, kymRegistrationRequired } = definition.telemetryContract;
    const expectedGate = models === 0 ? 'tool-only' : 'agentic';

    if (agenticGate !== expectedGate) {
      findings.push({
        rule: RULE,
        path: '/telemetryContract/agenticGate',
        message:
          models === 0
            ? 'telemetryContract.agenticGate is "agentic" but modelSet is empty: an entity with no model in its execution path is a tool.'
            : `telemetryContract.agenticGate is "tool-only" but modelSet pins ${models} model${models === 1 ? '' : 's'}: any model in the execution path makes the entity an agent.`,
        suggestion:
          models === 0
            ? 'Set telemetryContract.agenticGate to "tool-only" (and kymRegistrationRequired to false), or pin the model the agent uses in modelSet.'
            : 'Set telemetryContract.agenticGate to "agentic" and kymRegistrationRequired to true, or remove the model pins if the entity is a tool.',
      });
    }

    const expectedKym = agenticGate === 'agentic';
    if (kymRegistrationRequired !== expectedKym) {
      findings.push({
        rule: RULE,
        path: '/telemetryContract/kymRegistrationRequired',
        message: expectedKym
          ? 'telemetryContract.kymRegistrationRequired is false but agenticGate is "agentic": every agentic entity must register in KYM.'
          : 'telemetryContract.kymRegistrationRequired is true but agenticGate is "tool-only": only agentic entities register in KYM.',
        suggestion: `Set telemetryContract.kymRegistrationRequired to ${String(expectedKym)}.`,
      });
    }
    return findings;
  },
};
