/**
 * What a hybrid leaf decided, for the caller (the A2A task's metadata, `agentdef eval`): the route
 * the router took and each verdict the evaluator gave. Critiques are model text, like answers: they
 * go through the run's redactor and never into a receipt (the receipt keeps the labels and the
 * pass/fail of each verdict in its `modelCalls`).
 */
export interface HybridTrace {
  route?: {
    /** The label the router named; absent when its reply named none and the default answered. */
    label?: string;
    /** The answering pin (its name, else `models[i]`). */
    pin: string;
  };
  /** One per evaluated answer, in order. */
  verdicts: {
    /** The pin whose answer was judged. */
    pin: string;
    pass: boolean;
    score: number;
    critique: string;
    /** Indices of the invariants the answer failed. */
    failed: number[];
  }[];
}
