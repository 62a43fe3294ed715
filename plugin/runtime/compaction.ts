/**
 * Context compaction, applied when the next model request would exceed `contextWindowBudget`
 * (estimated as characters / 4). The newest step is always kept; older steps go by policy:
 * - `summarise`: all older steps (and any earlier summary) are replaced by ONE summary that a
 *   single model call produces;
 * - `drop`: older tool results are elided first (oldest first), then whole older steps;
 * - `quarantine`: older steps move out of the context into the run's quarantine store, leaving a
 *   one-line stub each.
 * If the context still does not fit, compaction fails with `context_budget_exceeded`. Each policy
 * is its own function, so a Worker carries only its agent's (`compactWith`).
 */
import { RuntimeError } from './errors';
import type { CompactionPolicy } from './runtime-config';
import type { ChatMessage, ToolSpec } from './providers/model-turn';
import type { Transcript } from './transcript';
import { estimateTokens, renderGroups, renderMessages } from './transcript';

export interface CompactionEvent {
  policy: CompactionPolicy;
  /** Estimated tokens before and after. */
  beforeTokens: number;
  afterTokens: number;
  /** Steps removed from the context (summarised, dropped or quarantined). */
  stepsRemoved: number;
  /** Tool results elided in place (`drop` only). */
  resultsElided: number;
}

export interface QuarantinedStep {
  /** The step's position in the run (1-based). */
  step: number;
  messages: ChatMessage[];
}

export interface CompactionContext {
  budget: number;
  policy: CompactionPolicy;
  system?: string;
  tools: ToolSpec[];
  /** One model call that returns a summary of `text` (`summarise` only). */
  summarise: (text: string) => Promise<string>;
  /** Where quarantined steps go (`quarantine` only). */
  quarantine: QuarantinedStep[];
  /** Step numbers of `transcript.groups` (parallel array), for stubs and quarantine records. */
  stepNumbers: number[];
}

export const ELIDED_RESULT = '[tool result dropped to fit the context budget]';

export function transcriptTokens(transcript: Transcript, system: string | undefined, tools: ToolSpec[]): number {
  return estimateTokens({ ...(system !== undefined ? { system } : {}), messages: renderMessages(transcript), tools });
}

/** One policy's way to make room: takes older steps out of `transcript` in place, recording what it did in `event`. */
export type CompactionPolicyStep = (
  transcript: Transcript,
  ctx: CompactionContext,
  size: () => number,
  event: CompactionEvent,
) => Promise<void> | void;

/** Compacts `transcript` in place if needed; returns what it did, or undefined when it fit. */
export type Compactor = (transcript: Transcript, ctx: CompactionContext) => Promise<CompactionEvent | undefined>;

/** `summarise`: every older step (and an earlier summary) becomes one summary from one model call. */
export const summariseOlderSteps: CompactionPolicyStep = async (transcript, ctx, _size, event) => {
  const older = transcript.groups.length - 1;
  if (older <= 0) return;
  const removed = transcript.groups.splice(0, older);
  ctx.stepNumbers.splice(0, older);
  const previous = transcript.notes.join('\n');
  const text = `${previous ? `${previous}\n` : ''}${renderGroups(removed)}`;
  const summary = await ctx.summarise(text);
  transcript.notes = [`[Summary of ${removed.length} earlier step(s)]\n${summary.trim()}`];
  event.stepsRemoved = removed.length;
};

/** `drop`: older tool results are elided (oldest first), then whole older steps go. */
export const dropOlderSteps: CompactionPolicyStep = (transcript, ctx, size, event) => {
  for (let g = 0; g < transcript.groups.length - 1 && size() > ctx.budget; g++) {
    const group = transcript.groups[g]!;
    for (let m = 0; m < group.length && size() > ctx.budget; m++) {
      const message = group[m]!;
      if (message.role === 'tool' && message.content !== ELIDED_RESULT) {
        group[m] = { ...message, content: ELIDED_RESULT };
        event.resultsElided++;
      }
    }
  }
  const earlier = previousDropped(transcript.notes);
  let dropped = 0;
  while (size() > ctx.budget && transcript.groups.length > 1) {
    transcript.groups.shift();
    ctx.stepNumbers.shift();
    dropped++;
    // One running note, rewritten as steps go, so the note's own size is counted.
    transcript.notes = transcript.notes.filter((n) => !n.startsWith('[dropped '));
    transcript.notes.push(`[dropped ${earlier + dropped} earlier step(s) to fit the context budget]`);
  }
  event.stepsRemoved = dropped;
};

/** `quarantine`: older steps move to the run's quarantine store, a one-line stub each. */
export const quarantineOlderSteps: CompactionPolicyStep = (transcript, ctx, size, event) => {
  while (size() > ctx.budget && transcript.groups.length > 1) {
    const group = transcript.groups.shift()!;
    const step = ctx.stepNumbers.shift() ?? 0;
    ctx.quarantine.push({ step, messages: group });
    const names = group.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => c.name) : []));
    transcript.notes.push(
      `[step ${step} quarantined out of context${names.length ? `: called ${names.join(', ')}` : ''}]`,
    );
    event.stepsRemoved++;
  }
};

/**
 * The compactor of the given policies (a generated Worker names only its agent's); a policy not
 * given takes nothing out, so a context that does not fit fails with `context_budget_exceeded`.
 */
export function compactWith(policies: Partial<Record<CompactionPolicy, CompactionPolicyStep>>): Compactor {
  return async (transcript, ctx) => {
    const size = () => transcriptTokens(transcript, ctx.system, ctx.tools);
    const beforeTokens = size();
    if (beforeTokens <= ctx.budget) return undefined;
    const event: CompactionEvent = {
      policy: ctx.policy,
      beforeTokens,
      afterTokens: beforeTokens,
      stepsRemoved: 0,
      resultsElided: 0,
    };
    const policyStep = Object.hasOwn(policies, ctx.policy) ? policies[ctx.policy] : undefined;
    await policyStep?.(transcript, ctx, size, event);
    event.afterTokens = size();
    if (event.afterTokens > ctx.budget) {
      throw new RuntimeError(
        'context_budget_exceeded',
        `the context needs about ${event.afterTokens} tokens after ${ctx.policy} compaction; the budget is ${ctx.budget}`,
        {
          tokens: event.afterTokens,
          budget: ctx.budget,
        },
      );
    }
    return event;
  };
}

/** Every policy. */
export const compactIfNeeded: Compactor = /* @__PURE__ */ compactWith({
  summarise: summariseOlderSteps,
  drop: dropOlderSteps,
  quarantine: quarantineOlderSteps,
});

/** Steps an earlier `drop` note already accounts for (the note is replaced by one running total). */
function previousDropped(notes: string[]): number {
  let total = 0;
  for (const note of notes) {
    const match = /^\[dropped (\d+) /.exec(note);
    if (match) total += Number(match[1]);
  }
  return total;
}
