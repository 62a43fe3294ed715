/**
 * Context budgets: the working set fits in the context window, and a working set too large for a
 * Worker isolate is not declared for Workers.
 */
import type { Finding } from '../diagnostic';
import { ERROR_CODES } from '../diagnostic';
import type { SemanticRule } from './rule';

const RULE = 'budgets';
const PATH = '/memoryContract/workingSetTokens';

function tokens(n: number): string {
  return `${n.toLocaleString('en-US')} tokens`;
}

export const budgetsRule: SemanticRule = {
  name: RULE,
  description:
    'memoryContract.workingSetTokens does not exceed contextWindowBudget, and a working set above the Workers threshold is not declared workers-only (error) or workers-preferred (warning).',
  check(definition, options) {
    const findings: Finding[] = [];
    const { workingSetTokens, contextWindowBudget } = definition.memoryContract;
    if (workingSetTokens === undefined) return findings;

    if (contextWindowBudget !== undefined && workingSetTokens > contextWindowBudget) {
      findings.push({
        rule: RULE,
        path: PATH,
        message: `memoryContract.workingSetTokens (${tokens(workingSetTokens)}) exceeds contextWindowBudget (${tokens(contextWindowBudget)}): the typical turn would not fit in the context window.`,
        suggestion: `Lower workingSetTokens to at most ${contextWindowBudget}, or raise contextWindowBudget to at least ${workingSetTokens}.`,
      });
    }

    const threshold = options.workingSetThreshold;
    const cls = definition.runtimeRequirements.runtimeCapabilityClass;
    if (workingSetTokens > threshold && (cls === 'workers-only' || cls === 'workers-preferred')) {
      const strict = cls === 'workers-only';
      findings.push({
        rule: RULE,
        code: ERROR_CODES.runtimeMismatch,
        severity: strict ? 'error' : 'warning',
        path: PATH,
        message: strict
          ? `memoryContract.workingSetTokens (${tokens(workingSetTokens)}) is above the ${tokens(threshold)} a Worker isolate handles well, but runtimeCapabilityClass is "workers-only".`
          : `memoryContract.workingSetTokens (${tokens(workingSetTokens)}) is above the ${tokens(threshold)} a Worker isolate handles well; with "workers-preferred" the agent will usually fall back to a container.`,
        suggestion: strict
          ? `Declare runtimeCapabilityClass "workers-preferred" or "container-required", or bring workingSetTokens to ${threshold} or less (compact or quarantine the context).`
          : `Declare runtimeCapabilityClass "container-required" to say so, or bring workingSetTokens to ${threshold} or less.`,
      });
    }
    return findings;
  },
};
