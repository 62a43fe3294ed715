/**
 * Context budgets: the working set fits in the context window, a working set too large for a
 * Worker isolate is not declared for Workers, and a compaction policy has a budget to apply to
 * (the runtime compacts only when a turn would exceed `contextWindowBudget`; without one the
 * policy would change nothing).
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
    'memoryContract.workingSetTokens does not exceed contextWindowBudget, a working set above the Workers threshold is not declared workers-only (error) or workers-preferred (warning), and a compactionPolicy comes with the contextWindowBudget it applies to.',
  check(definition, options) {
    const findings: Finding[] = [];
    const { workingSetTokens, contextWindowBudget, compactionPolicy } = definition.memoryContract;
    if (compactionPolicy !== undefined && contextWindowBudget === undefined) {
      findings.push({
        rule: RULE,
        path: '/memoryContract/compactionPolicy',
        message: `memoryContract.compactionPolicy "${compactionPolicy}" would never apply: the runtime compacts only when a turn would exceed contextWindowBudget, and no contextWindowBudget is set.`,
        suggestion:
          'Add memoryContract.contextWindowBudget (the most tokens the agent may hold in context), or remove compactionPolicy.',
      });
    }
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
