/* Generated from the JSON Schema by `npm run generate`. Do not edit. */

/**
 * A grader: the `name` of one of the file's `graders`, or of a pin of the definition's modelSet (or that pin's `modelId`).
 */
export type PinName = string;
/**
 * A case id: letters, digits, `.`, `_`, `-` (up to 64, starting with a letter or digit).
 */
export type CaseId = string;
/**
 * One check of a run, chosen by `type`.
 */
export type Assertion =
  | AssertEquals
  | AssertContains
  | AssertNotContains
  | AssertRegex
  | AssertJsonSchema
  | AssertMaxLength
  | AssertMaxLatency
  | AssertMaxCost
  | AssertToolCalled
  | AssertToolNotCalled
  | AssertNoEgress
  | AssertInvariant
  | AssertRubric;
/**
 * An assertion id: letters, digits, `.`, `_`, `-` (up to 64).
 */
export type AssertionId = string;

/**
 * A file of eval cases for `agentdef eval`, beside the definition in `evals/` (`*.yaml`, `*.yml`). A `.jsonl` file holds one `EvalCase` object per line instead (its `schemaVersion` implied, no file-level `grader`).
 */
export interface EvalCases {
  /**
   * Optional: the schema this file follows, so editors can autocomplete.
   */
  $schema?: string;
  /**
   * The eval-cases format version; always `eval-cases/v1`.
   */
  schemaVersion: 'eval-cases/v1';
  grader?: PinName;
  /**
   * Grader models of this file's own (a tool-only agent has no pins to grade with): a `grader` name resolves against these first, then the definition's modelSet.
   *
   * @minItems 1
   * @maxItems 16
   */
  graders?:
    | [GraderPin]
    | [GraderPin, GraderPin]
    | [GraderPin, GraderPin, GraderPin]
    | [GraderPin, GraderPin, GraderPin, GraderPin]
    | [GraderPin, GraderPin, GraderPin, GraderPin, GraderPin]
    | [GraderPin, GraderPin, GraderPin, GraderPin, GraderPin, GraderPin]
    | [GraderPin, GraderPin, GraderPin, GraderPin, GraderPin, GraderPin, GraderPin]
    | [GraderPin, GraderPin, GraderPin, GraderPin, GraderPin, GraderPin, GraderPin, GraderPin]
    | [GraderPin, GraderPin, GraderPin, GraderPin, GraderPin, GraderPin, GraderPin, GraderPin, GraderPin]
    | [GraderPin, GraderPin, GraderPin, GraderPin, GraderPin, GraderPin, GraderPin, GraderPin, GraderPin, GraderPin]
    | [
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin
      ]
    | [
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin
      ]
    | [
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin
      ]
    | [
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin
      ]
    | [
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin
      ]
    | [
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin,
        GraderPin
      ];
  /**
   * The cases, each run once against the agent.
   *
   * @minItems 1
   * @maxItems 1000
   */
  cases: [EvalCase, ...EvalCase[]];
}
/**
 * A grader model declared by the cases file: a closed subset of a definition pin.
 */
export interface GraderPin {
  /**
   * The name assertions and the file use in `grader`, unique in the file.
   */
  name: string;
  /**
   * Who serves the model, as in a definition pin (`openai`, `anthropic`, `local-ollama`, `custom:<name>`, ...).
   */
  providerId: string;
  /**
   * The provider's model identifier.
   */
  modelId: string;
  /**
   * The exact model version or snapshot date.
   */
  modelVersion: string;
  /**
   * Sampling for the grader calls (default: the provider defaults).
   */
  samplingParams?: {
    /**
     * Sampling temperature.
     */
    temperature?: number;
    /**
     * Nucleus sampling probability mass.
     */
    topP?: number;
    /**
     * Maximum tokens per grader reply.
     */
    maxTokens?: number;
    /**
     * Seed for providers that support deterministic sampling.
     */
    seed?: number;
  };
}
/**
 * One case: what the agent is asked, what it should answer, and the assertions its run is scored by.
 */
export interface EvalCase {
  id: CaseId;
  /**
   * What the case checks, for people.
   */
  description?: string;
  input: EvalInput;
  expected?: EvalExpected;
  /**
   * What must hold of the run; every one must pass for the case to pass.
   *
   * @minItems 1
   * @maxItems 64
   */
  assertions: [Assertion, ...Assertion[]];
  /**
   * Labels for selecting and grouping cases.
   *
   * @maxItems 32
   */
  tags?: string[];
}
/**
 * The message the agent is sent: a text part, and optionally a data part.
 */
export interface EvalInput {
  /**
   * The text part.
   */
  text: string;
  /**
   * A data part (any JSON value), sent beside the text.
   */
  data?: {
    [k: string]: unknown | undefined;
  };
  /**
   * The skill to ask (`capabilityContract.skills[].id`); default: the agent's first.
   */
  skill?: string;
}
/**
 * The expected answer: its text, or its data; one of the two.
 */
export interface EvalExpected {
  /**
   * The expected text.
   */
  text?: string;
  /**
   * The expected data (any JSON value).
   */
  data?: {
    [k: string]: unknown | undefined;
  };
}
/**
 * The answer equals a value: a string is compared with the answer's text exactly; any other JSON value with the answer's data (or its text parsed as JSON), by canonical JSON.
 */
export interface AssertEquals {
  /**
   * The assertion kind.
   */
  type: 'equals';
  /**
   * What the answer must equal; absent: the case's `expected` (its `text`, else its `data`).
   */
  value?: {
    [k: string]: unknown | undefined;
  };
  id?: AssertionId;
  /**
   * The assertion's weight in its case's score (default 1); 0 counts it in pass/fail only.
   */
  weight?: number;
  /**
   * The definition's invariants this assertion checks (0-based indices or exact texts), so they count as scored (an `invariant` assertion covers its own).
   *
   * @minItems 1
   * @maxItems 64
   */
  covers?: [number | string, ...(number | string)[]];
}
/**
 * The answer's text contains a string.
 */
export interface AssertContains {
  /**
   * The assertion kind.
   */
  type: 'contains';
  /**
   * The text to find.
   */
  value: string;
  /**
   * Compare case-sensitively (default true); false folds case with `toLowerCase`.
   */
  caseSensitive?: boolean;
  id?: AssertionId;
  /**
   * The assertion's weight in its case's score (default 1); 0 counts it in pass/fail only.
   */
  weight?: number;
  /**
   * The definition's invariants this assertion checks (0-based indices or exact texts), so they count as scored (an `invariant` assertion covers its own).
   *
   * @minItems 1
   * @maxItems 64
   */
  covers?: [number | string, ...(number | string)[]];
}
/**
 * The answer's text does not contain a string.
 */
export interface AssertNotContains {
  /**
   * The assertion kind.
   */
  type: 'not-contains';
  /**
   * The text that must not appear.
   */
  value: string;
  /**
   * Compare case-sensitively (default true).
   */
  caseSensitive?: boolean;
  id?: AssertionId;
  /**
   * The assertion's weight in its case's score (default 1); 0 counts it in pass/fail only.
   */
  weight?: number;
  /**
   * The definition's invariants this assertion checks (0-based indices or exact texts), so they count as scored (an `invariant` assertion covers its own).
   *
   * @minItems 1
   * @maxItems 64
   */
  covers?: [number | string, ...(number | string)[]];
}
/**
 * The answer's text matches a regular expression (JavaScript syntax). With only the flags `m` and `s` and no lookaround or backreference the pattern runs on V8's linear-time engine (answers up to 1,000,000 characters). Otherwise, so that no pattern can backtrack catastrophically, it is refused when the file is loaded unless it has no backreference, no quantified group that holds a quantifier or an alternation, and at most one unbounded quantifier (`*`, `+`, `{n,}`); such a pattern is matched against answers up to 20,000 characters. A longer answer fails the assertion.
 */
export interface AssertRegex {
  /**
   * The assertion kind.
   */
  type: 'regex';
  /**
   * The regular expression, without slashes.
   */
  pattern: string;
  /**
   * Flags: some of `i`, `m`, `s`, `u`.
   */
  flags?: string;
  id?: AssertionId;
  /**
   * The assertion's weight in its case's score (default 1); 0 counts it in pass/fail only.
   */
  weight?: number;
  /**
   * The definition's invariants this assertion checks (0-based indices or exact texts), so they count as scored (an `invariant` assertion covers its own).
   *
   * @minItems 1
   * @maxItems 64
   */
  covers?: [number | string, ...(number | string)[]];
}
/**
 * The answer's data (or its text parsed as JSON) is valid against a JSON Schema (draft 2020-12; the standard formats; no remote references). Its patterns obey the regex assertion's rules.
 */
export interface AssertJsonSchema {
  /**
   * The assertion kind.
   */
  type: 'json-schema';
  /**
   * The JSON Schema the output must satisfy.
   */
  schema: {};
  id?: AssertionId;
  /**
   * The assertion's weight in its case's score (default 1); 0 counts it in pass/fail only.
   */
  weight?: number;
  /**
   * The definition's invariants this assertion checks (0-based indices or exact texts), so they count as scored (an `invariant` assertion covers its own).
   *
   * @minItems 1
   * @maxItems 64
   */
  covers?: [number | string, ...(number | string)[]];
}
/**
 * The answer's text has at most this many characters (Unicode code points).
 */
export interface AssertMaxLength {
  /**
   * The assertion kind.
   */
  type: 'max-length';
  /**
   * The most characters allowed.
   */
  chars: number;
  id?: AssertionId;
  /**
   * The assertion's weight in its case's score (default 1); 0 counts it in pass/fail only.
   */
  weight?: number;
  /**
   * The definition's invariants this assertion checks (0-based indices or exact texts), so they count as scored (an `invariant` assertion covers its own).
   *
   * @minItems 1
   * @maxItems 64
   */
  covers?: [number | string, ...(number | string)[]];
}
/**
 * The run took at most this long, end to end.
 */
export interface AssertMaxLatency {
  /**
   * The assertion kind.
   */
  type: 'max-latency';
  /**
   * The most milliseconds allowed.
   */
  ms: number;
  id?: AssertionId;
  /**
   * The assertion's weight in its case's score (default 1); 0 counts it in pass/fail only.
   */
  weight?: number;
  /**
   * The definition's invariants this assertion checks (0-based indices or exact texts), so they count as scored (an `invariant` assertion covers its own).
   *
   * @minItems 1
   * @maxItems 64
   */
  covers?: [number | string, ...(number | string)[]];
}
/**
 * The run's cost stays within limits (grader calls not counted); give `tokens`, `modelCalls` or both.
 */
export interface AssertMaxCost {
  /**
   * The assertion kind.
   */
  type: 'max-cost';
  /**
   * The most tokens (input plus output) of every model call of the run.
   */
  tokens?: number;
  /**
   * The most model calls of the run.
   */
  modelCalls?: number;
  id?: AssertionId;
  /**
   * The assertion's weight in its case's score (default 1); 0 counts it in pass/fail only.
   */
  weight?: number;
  /**
   * The definition's invariants this assertion checks (0-based indices or exact texts), so they count as scored (an `invariant` assertion covers its own).
   *
   * @minItems 1
   * @maxItems 64
   */
  covers?: [number | string, ...(number | string)[]];
}
/**
 * The run called a tool (by the name the model calls it, `toolInventory[].name`).
 */
export interface AssertToolCalled {
  /**
   * The assertion kind.
   */
  type: 'tool-called';
  /**
   * The tool name.
   */
  tool: string;
  /**
   * Exactly this many calls; absent: at least one.
   */
  times?: number;
  id?: AssertionId;
  /**
   * The assertion's weight in its case's score (default 1); 0 counts it in pass/fail only.
   */
  weight?: number;
  /**
   * The definition's invariants this assertion checks (0-based indices or exact texts), so they count as scored (an `invariant` assertion covers its own).
   *
   * @minItems 1
   * @maxItems 64
   */
  covers?: [number | string, ...(number | string)[]];
}
/**
 * The run never called a tool.
 */
export interface AssertToolNotCalled {
  /**
   * The assertion kind.
   */
  type: 'tool-not-called';
  /**
   * The tool name.
   */
  tool: string;
  id?: AssertionId;
  /**
   * The assertion's weight in its case's score (default 1); 0 counts it in pass/fail only.
   */
  weight?: number;
  /**
   * The definition's invariants this assertion checks (0-based indices or exact texts), so they count as scored (an `invariant` assertion covers its own).
   *
   * @minItems 1
   * @maxItems 64
   */
  covers?: [number | string, ...(number | string)[]];
}
/**
 * The run never tried to reach a host outside its egress allow-list.
 */
export interface AssertNoEgress {
  /**
   * The assertion kind.
   */
  type: 'no-egress-outside-allowlist';
  id?: AssertionId;
  /**
   * The assertion's weight in its case's score (default 1); 0 counts it in pass/fail only.
   */
  weight?: number;
  /**
   * The definition's invariants this assertion checks (0-based indices or exact texts), so they count as scored (an `invariant` assertion covers its own).
   *
   * @minItems 1
   * @maxItems 64
   */
  covers?: [number | string, ...(number | string)[]];
}
/**
 * Model-graded: the answer satisfies one of the definition's `capabilityContract.invariants`, as a grader judges it.
 */
export interface AssertInvariant {
  /**
   * The assertion kind.
   */
  type: 'invariant';
  /**
   * The invariant: its 0-based index, or its exact text.
   */
  invariant: number | string;
  /**
   * The grader's score (0..1) at or above which the assertion passes; absent: it passes when the grader's verdict passes.
   */
  threshold?: number;
  grader?: PinName;
  id?: AssertionId;
  /**
   * The assertion's weight in its case's score (default 1); 0 counts it in pass/fail only.
   */
  weight?: number;
  /**
   * The definition's invariants this assertion checks (0-based indices or exact texts), so they count as scored (an `invariant` assertion covers its own).
   *
   * @minItems 1
   * @maxItems 64
   */
  covers?: [number | string, ...(number | string)[]];
}
/**
 * Model-graded: the answer satisfies a rubric (one criterion, or several that must all hold), as a grader judges it.
 */
export interface AssertRubric {
  /**
   * The assertion kind.
   */
  type: 'rubric';
  /**
   * The criterion, or a list of criteria.
   */
  rubric: string | [string, ...string[]];
  /**
   * The grader's score (0..1) at or above which the assertion passes; absent: it passes when the grader's verdict passes.
   */
  threshold?: number;
  grader?: PinName;
  id?: AssertionId;
  /**
   * The assertion's weight in its case's score (default 1); 0 counts it in pass/fail only.
   */
  weight?: number;
  /**
   * The definition's invariants this assertion checks (0-based indices or exact texts), so they count as scored (an `invariant` assertion covers its own).
   *
   * @minItems 1
   * @maxItems 64
   */
  covers?: [number | string, ...(number | string)[]];
}
