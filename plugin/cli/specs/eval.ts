/** The table of `agentdef eval` (command-spec.ts). */
import { suggestTarget, TARGET_OPTIONS } from '../../targets/targets';
import type { CommandSpec } from './command-spec';
import { MODEL_SESSION, USAGE_OR_IO } from './shared-options';
import { SIGNING_KEY } from './signing-key';

export const EVAL = {
  name: 'eval',
  arguments: [{ name: '<file or dir>', description: 'the AgentDefinition file, or the folder that holds it' }],
  summary:
    'score an agent on its eval cases: compile, serve, ask every case over A2A, grade, write JSON, JUnit XML and a signed eval receipt',
  description:
    "Loads the eval cases beside the definition (<dir>/evals/*.yaml, *.yml, *.jsonl; closed schema, located diagnostics), compiles the agent into <out>/build, serves it on loopback through its target's own host (as agentdef dev does) and asks every case over A2A, a few at once. Deterministic assertions are checked against what the run did (answer, tool calls, latency, tokens, model calls, egress refused); model-graded ones (an invariant, a rubric) are judged by the grader the case names (a pin of the definition, or one its cases file declares under graders), else the definition's evaluator pin, with the runtime evaluator's prompt, the grader's reasoning kept. Model exchanges, the grader's included, are replayed from --replay (default <dir>/recordings when it exists) or recorded with --record, through one session. Prints a table (case by assertion, pass or fail, score, cost, latency), writes <out>/eval.json, <out>/junit.xml and <out>/eval.receipt.json (signed; agentdef verify checks it, agentdef promote --require-eval requires it), and lists every invariant no case scores.",
  options: {
    target: {
      type: 'string',
      values: TARGET_OPTIONS,
      suggest: suggestTarget,
      default: 'auto',
      description: "the runtime target to compile for and serve: auto takes the plan's choice",
    },
    cases: {
      type: 'string',
      multiple: true,
      value: 'file|glob',
      otherwise: '<dir>/evals/*.yaml, *.yml and *.jsonl',
      description: 'the case files to run instead (repeatable), relative to the working folder',
    },
    threshold: {
      type: 'string',
      value: 'x',
      otherwise: '1 (every case passes)',
      description: 'the share of cases (0 to 1) that must pass for the run to pass; below it the exit code is 1',
    },
    out: {
      type: 'string',
      value: 'dir',
      otherwise: 'dist/eval/<slug> of the workspace',
      description:
        'the folder for eval.json, junit.xml, eval.receipt.json and the build, relative to the working folder',
    },
    concurrency: {
      type: 'string',
      value: 'n',
      otherwise: '4',
      description: 'the most cases asked at once (a whole number, at least 1)',
    },
    key: { ...SIGNING_KEY, description: 'the key that signs the eval receipt' },
    record: MODEL_SESSION.record,
    replay: {
      ...MODEL_SESSION.replay,
      otherwise: 'AGENTDEF_REPLAY when set, else <dir>/recordings when it exists, else the live providers',
    },
  },
  exitCodes: [
    'the run passed: its pass rate is at or above the threshold',
    'the run is below the threshold, the host could not start, or a recording cannot be replayed',
    `${USAGE_OR_IO}, an invalid definition or invalid eval cases (located diagnostics), or no cases`,
  ],
} as const satisfies CommandSpec;
