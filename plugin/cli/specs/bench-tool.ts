/** The table of `agentdef bench-tool` (command-spec.ts). */
import { suggestTarget, TARGET_OPTIONS } from '../../targets/targets';
import type { CommandSpec } from './command-spec';
import { USAGE_OR_IO } from './shared-options';
import { SIGNING_KEY } from './signing-key';

export const BENCH_TOOL = {
  name: 'bench-tool',
  arguments: [
    { name: '<file or dir>', description: 'the tool-only AgentDefinition file, or the folder that holds it' },
  ],
  summary:
    'benchmark a tool-only agent: serve it, run each case N times over A2A, write signed tool benchmark events and print calls, ok rate and p50/p95 latency per tool',
  description:
    "For a tool (empty modelSet): loads the cases beside the definition (<dir>/evals/*.yaml, *.yml, *.jsonl, as agentdef eval does; their assertions are not scored here), compiles it into <out>/build and serves it on loopback through its target's own host, asks every case --runs times, one at a time, and records one event per tool call in the tool taxonomy (skill, category, tool, operation, latency, ok, error code, run id, case id). Writes <out>/tool-benchmark-events.json, the batch signed with --key (Ed25519 over its RFC 8785 form: an edited event does not verify), and prints per tool and operation the calls, ok rate and p50/p95 latency. agentdef promote requires these events to reach tool-shipped; agentdef eval of a tool-only agent writes them too.",
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
    runs: {
      type: 'string',
      value: 'n',
      otherwise: '3',
      description: 'how many times each case is run (a whole number from 1 to 1000)',
    },
    out: {
      type: 'string',
      value: 'dir',
      otherwise: 'dist/bench/<slug> of the workspace',
      description: 'the folder for tool-benchmark-events.json and the build, relative to the working folder',
    },
    key: { ...SIGNING_KEY, description: 'the key that signs the benchmark events' },
  },
  exitCodes: [
    'benchmarked: the signed events are written (failed calls count too; the ok rate shows them)',
    "the agent's host could not start",
    `${USAGE_OR_IO}, an invalid definition or cases (located diagnostics), a definition with a model pin, or no cases`,
  ],
} as const satisfies CommandSpec;
