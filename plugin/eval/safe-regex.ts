/**
 * Regular expressions from eval case files (a `regex` assertion's pattern, a `json-schema`
 * assertion's `pattern`s): user input that runs against model output, so it must not be able to
 * hang `agentdef eval` by catastrophic backtracking. Checked once, when the file is loaded; a
 * pattern that fails is a located diagnostic there, never a crash or a hang later.
 *
 * The choice (documented in docs/reference/eval-cases.md through the schema):
 * 1. A pattern of at most {@link MAX_PATTERN_LENGTH} characters that compiles.
 * 2. With only the flags `m` and `s` and no lookaround or backreference, it runs on V8's linear-time
 *    engine (the `l` flag, enabled here for this process): any pattern, any answer up to
 *    {@link MAX_LINEAR_INPUT} characters, time linear in the answer. Nothing else is refused.
 * 3. Otherwise (the `i` or `u` flag, a lookaround) it runs on the backtracking engine, and only a
 *    shape that cannot blow up is accepted: no backreference, no quantified group that holds a
 *    quantifier or an alternation (star height 1: `(a+)+`, `(a|a)*` are exponential), and at most
 *    {@link MAX_BACKTRACKING_UNBOUNDED} unbounded quantifier (two already make `\s*\s*x` cubic);
 *    the answer is matched up to {@link MAX_BACKTRACKING_INPUT} characters.
 * A longer answer fails the assertion, saying so (deterministic: never a timeout).
 */
import { setFlagsFromString } from 'node:v8';

export const MAX_PATTERN_LENGTH = 1000;
export const MAX_LINEAR_INPUT = 1_000_000;
export const MAX_BACKTRACKING_INPUT = 20_000;
export const MAX_BACKTRACKING_UNBOUNDED = 1;
/** A bounded repetition with a larger maximum counts as unbounded. */
const LARGE_REPEAT = 100;

export interface SafeRegex {
  regex: RegExp;
  /** `linear`: V8's linear-time engine; `backtracking`: the default engine, shape-checked. */
  engine: 'linear' | 'backtracking';
  /** The longest text it is run on. */
  maxInput: number;
}

export type SafeRegexResult = { ok: true; value: SafeRegex } | { ok: false; message: string; suggestion: string };

/** V8's flag for its linear-time engine (a variable: a literal `/a/l` does not parse without the engine). */
const LINEAR = 'l';
let linearEngine: boolean | undefined;

/** Whether V8's linear-time engine (`l` flag) is available; enables it on first call. */
function linearAvailable(): boolean {
  if (linearEngine === undefined) {
    try {
      setFlagsFromString('--enable-experimental-regexp-engine');
      linearEngine = new RegExp('a', LINEAR).flags.includes(LINEAR);
    } catch {
      linearEngine = false;
    }
  }
  return linearEngine;
}

/** Compiles `pattern` with `flags` when it is safe to run on model output; otherwise says why. */
export function compileSafeRegex(pattern: string, flags = ''): SafeRegexResult {
  if (pattern.length > MAX_PATTERN_LENGTH)
    return {
      ok: false,
      message: `the pattern is ${pattern.length} characters; at most ${MAX_PATTERN_LENGTH} are allowed`,
      suggestion: 'shorten it, or split it into several assertions',
    };
  if (!/^[imsu]*$/.test(flags) || new Set(flags).size !== flags.length)
    return { ok: false, message: `flags "${flags}" are not allowed`, suggestion: 'use some of i, m, s, u, each once' };
  try {
    new RegExp(pattern, flags);
  } catch (error) {
    return {
      ok: false,
      message: `the pattern is not a valid regular expression: ${(error as Error).message.replace(/^Invalid regular expression: /, '')}`,
      suggestion: 'fix the pattern (JavaScript syntax, without slashes)',
    };
  }
  if (!/[iu]/.test(flags) && linearAvailable()) {
    try {
      return {
        ok: true,
        value: { regex: new RegExp(pattern, `${flags}${LINEAR}`), engine: 'linear', maxInput: MAX_LINEAR_INPUT },
      };
    } catch {
      // a lookaround or a backreference: the shape check below decides
    }
  }
  const problem = backtrackingHazard(pattern);
  if (problem !== undefined)
    return {
      ok: false,
      message: `the pattern ${problem}, which can take exponential or polynomial time on a long answer`,
      suggestion:
        'drop the i and u flags and lookarounds (write [Aa] for a letter in either case) so it runs on the linear-time engine, or simplify it: no quantified group holding a quantifier or `|`, no backreference, at most one `*`, `+` or `{n,}`',
    };
  return {
    ok: true,
    value: { regex: new RegExp(pattern, flags), engine: 'backtracking', maxInput: MAX_BACKTRACKING_INPUT },
  };
}

interface GroupFrame {
  quantified: boolean;
  alternation: boolean;
}

/** What makes a pattern unsafe on the backtracking engine, or undefined. Assumes it compiles. */
export function backtrackingHazard(pattern: string): string | undefined {
  const stack: GroupFrame[] = [{ quantified: false, alternation: false }];
  let unbounded = 0;
  let i = 0;
  /** Length of the quantifier at `at` (0 when there is none), and whether it is unbounded. */
  const quantifierAt = (at: number): { length: number; unbounded: boolean } => {
    const c = pattern[at];
    if (c === '*' || c === '+') return { length: 1, unbounded: true };
    if (c === '?') return { length: 1, unbounded: false };
    if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(at, at + 24));
      if (m) {
        const max = m[2] === undefined ? Number(m[1]) : m[3] === '' ? Number.POSITIVE_INFINITY : Number(m[3]);
        return { length: m[0].length, unbounded: max > LARGE_REPEAT };
      }
    }
    return { length: 0, unbounded: false };
  };
  /** Consumes a quantifier (and its lazy `?`) after an atom; true when there was one. */
  const quantify = (): boolean => {
    const q = quantifierAt(i);
    if (q.length === 0) return false;
    i += q.length;
    if (pattern[i] === '?') i++;
    if (q.unbounded) unbounded++;
    stack[stack.length - 1]!.quantified = true;
    return true;
  };
  while (i < pattern.length) {
    const c = pattern[i]!;
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (/[1-9]/.test(next) || next === 'k') return 'uses a backreference';
      if (/[pPu]/.test(next) && pattern[i + 2] === '{') i = pattern.indexOf('}', i) + 1;
      else if (next === 'x') i += 4;
      else if (next === 'u') i += 6;
      else if (next === 'c') i += 3;
      else i += 2;
      quantify();
    } else if (c === '[') {
      i++;
      if (pattern[i] === '^') i++;
      if (pattern[i] === ']') i++;
      while (i < pattern.length && pattern[i] !== ']') i += pattern[i] === '\\' ? 2 : 1;
      i++;
      quantify();
    } else if (c === '(') {
      stack.push({ quantified: false, alternation: false });
      i++;
      if (pattern[i] === '?') {
        const m = /^\?(?:<[=!]|[:=!]|<[^>]*>)/.exec(pattern.slice(i));
        i += m ? m[0].length : 1;
      }
    } else if (c === ')') {
      const frame = stack.pop() ?? { quantified: false, alternation: false };
      i++;
      const parent = stack[stack.length - 1]!;
      if (quantifierAt(i).length > 0) {
        if (frame.quantified) return 'repeats a group that holds a quantifier (a nested quantifier)';
        if (frame.alternation) return 'repeats a group that holds an alternation (`|`)';
        quantify();
      }
      if (frame.quantified) parent.quantified = true;
    } else if (c === '|') {
      stack[stack.length - 1]!.alternation = true;
      i++;
    } else {
      i++;
      quantify();
    }
    if (unbounded > MAX_BACKTRACKING_UNBOUNDED)
      return `has more than ${MAX_BACKTRACKING_UNBOUNDED} unbounded quantifier (\`*\`, \`+\`, \`{n,}\`)`;
  }
  return undefined;
}
