/**
 * The executor: runs one plan as a bounded dependency sequence, through the execution ledger.
 *
 *   check the entrypoint values → bind the idempotency key to (plan digest, mode, inputs digest)
 *   in the ledger → replay a recorded result, or run: for each step in plan order, re-resolve
 *   its owner's evidence (changed: the step is blocked before invocation), invoke its adapter
 *   once with the caller's signal, check what it returned → stop at the first failure, approval
 *   boundary, deadline uncertainty, bound or cancellation → record the run in the ledger.
 *
 * It never retries. The caller replanned just before (execute-request.ts), so the plan is the one
 * the caller accepted. Runtime bound: `maxRuntimeMs` aborts the signal the adapter holds; a step
 * that had dispatched when the bound or a cancellation hit reports `deadline-uncertain` unless its
 * owner says otherwise. After the gateway's dispatch marker the ledger entry is protected and a
 * later failure carries `reconciliationRequired`. Adapters are host code: a throw is caught and
 * recorded as a failure whose message never repeats what was thrown (it may hold anything).
 */
import { createHash } from 'node:crypto';
import type { ApplicationPlan } from '../schema/generated/application-plan.types';
import type { ApplicationRun, EntrypointValue, ExecuteResponse, StepStatus, StopReason } from './application-service';
import { type AdapterOutcome, identityKey } from './component-adapter';
import type { ExecutionLedger } from './execution-ledger';
import { deepFrozen, type PlannedRun, type PlanningContext, safely } from './plan-application';
import { canonicalText, digestPlainJson, type JsonValue, readApplicationJson } from './stable-json';

export const APPLICATION_RUN_SCHEMA_VERSION = 'agentdef.application-run/v1';
const MAX_INPUT_VALUES = 64;

export interface ExecuteOptions {
  readonly context: PlanningContext;
  readonly ledger: ExecutionLedger;
  readonly idempotencyKey: string;
  readonly inputs: readonly EntrypointValue[];
  readonly signal?: AbortSignal;
  /** Monotonic milliseconds, for the runtime bound (default `performance.now`). */
  readonly monotonic?: () => number;
}

type Refusal = Extract<ExecuteResponse, { ok: false }>;

function refuse(refusal: Refusal['refusal'], message: string, planDigest?: string): Refusal {
  return { ok: false, refusal, message, ...(planDigest !== undefined ? { planDigest } : {}), diagnostics: [] };
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The entrypoint values by `node`/`port`, checked: exactly one per entrypoint, plain JSON, the right kind. */
export function checkEntrypointValues(
  plan: ApplicationPlan,
  inputs: unknown,
): { ok: true; values: Map<string, JsonValue>; digest: string } | { ok: false; message: string } {
  const plain = readApplicationJson(inputs);
  if (!plain.ok || !Array.isArray(plain.value))
    return { ok: false, message: '`inputs` must be a list of { node, port, value } with plain JSON values' };
  if (plain.value.length > MAX_INPUT_VALUES) return { ok: false, message: `at most ${MAX_INPUT_VALUES} input values` };
  const wanted = new Map(plan.entrypoints.map((e) => [JSON.stringify([e.node, e.port]), e.kind]));
  const values = new Map<string, JsonValue>();
  for (const [index, item] of plain.value.entries()) {
    if (
      item === null ||
      typeof item !== 'object' ||
      Array.isArray(item) ||
      Object.keys(item).sort().join(',') !== 'node,port,value'
    ) {
      return { ok: false, message: `inputs[${index}] must have exactly \`node\`, \`port\` and \`value\`` };
    }
    const { node, port, value } = item as { node: JsonValue; port: JsonValue; value: JsonValue };
    const key = JSON.stringify([node, port]);
    const kind = wanted.get(key);
    if (typeof node !== 'string' || typeof port !== 'string' || kind === undefined)
      return {
        ok: false,
        message: `inputs[${index}] names no entrypoint of this application (entrypoints: ${[...wanted.keys()].map((k) => JSON.parse(k).join('.')).join(', ')})`,
      };
    if (values.has(key)) return { ok: false, message: `inputs[${index}] repeats the entrypoint ${node}.${port}` };
    if (kind === 'text' && typeof value !== 'string')
      return { ok: false, message: `inputs[${index}]: ${node}.${port} is a \`text\` port and takes a string` };
    values.set(key, value);
  }
  const missing = [...wanted.keys()].filter((k) => !values.has(k)).map((k) => JSON.parse(k).join('.'));
  if (missing.length > 0)
    return { ok: false, message: `no value for the entrypoint${missing.length > 1 ? 's' : ''} ${missing.join(', ')}` };
  const sorted = [...values]
    .sort(([a], [b]) => byCodeUnit(a, b))
    .map(([k, value]) => ({ at: JSON.parse(k) as JsonValue, value }));
  const digest = digestPlainJson(sorted);
  if (!digest.ok) return { ok: false, message: 'the input values have no canonical JSON form' };
  return { ok: true, values, digest: digest.sha256 };
}

/** A step's idempotency key for its owner: unique per execute key, plan and node; never the key itself. */
function stepKey(key: string, planDigest: string, node: string): string {
  return createHash('sha256').update(`agentdef.application-step/v1\0${key}\0${planDigest}\0${node}`).digest('hex');
}

/** Checks an adapter's outputs: exactly its declared ports, plain JSON, the declared kinds. */
function checkOutputs(
  step: ApplicationPlan['steps'][number],
  outputs: unknown,
): { ok: true; values: Map<string, JsonValue> } | { ok: false; message: string } {
  const plain = readApplicationJson(outputs);
  if (!plain.ok || plain.value === null || typeof plain.value !== 'object' || Array.isArray(plain.value))
    return { ok: false, message: 'the adapter returned outputs that are not a plain JSON object' };
  const given = plain.value;
  const declared = step.outputs.map((o) => o.port);
  const extra = Object.keys(given).filter((k) => !declared.includes(k));
  const absent = declared.filter((p) => !Object.hasOwn(given, p));
  if (extra.length > 0 || absent.length > 0)
    return { ok: false, message: 'the adapter returned other output ports than its component declares' };
  const values = new Map<string, JsonValue>();
  for (const { port, kind } of step.outputs) {
    const value = given[port]!;
    if (kind === 'text' && typeof value !== 'string')
      return { ok: false, message: `the output port \`${port}\` is \`text\`, and the adapter returned no string` };
    if (
      (kind === 'artifact' || kind === 'agent-plan') &&
      (value === null || typeof value !== 'object' || Array.isArray(value))
    ) {
      return { ok: false, message: `the output port \`${port}\` is \`${kind}\`, and the adapter returned no object` };
    }
    values.set(port, value);
  }
  return { ok: true, values };
}

export async function executePlannedRun(planned: PlannedRun, options: ExecuteOptions): Promise<ExecuteResponse> {
  const { plan } = planned;
  const inputs = checkEntrypointValues(plan, options.inputs);
  if (!inputs.ok) return refuse('invalid-inputs', inputs.message, plan.digest);
  const binding = digestPlainJson({ planDigest: plan.digest, inputsDigest: inputs.digest });
  if (!binding.ok) return refuse('invalid-inputs', 'the inputs have no canonical form', plan.digest);

  const { ledger, idempotencyKey: key } = options;
  const claim = await ledger.claim(key, { planDigest: binding.sha256, mode: plan.mode });
  switch (claim.kind) {
    case 'replay':
      return { ok: true, replayed: true, run: claim.result as unknown as ApplicationRun, diagnostics: [] };
    case 'conflict':
      return refuse(
        'idempotency-conflict',
        'this idempotency key was used for another plan, mode or inputs; use a new key for a new run',
        plan.digest,
      );
    case 'in-progress':
      return refuse(
        'in-progress',
        'a run with this idempotency key is in progress; ask again after it finishes',
        plan.digest,
      );
    case 'reconciliation-required':
      return refuse(
        'reconciliation-required',
        `${claim.message} The host reconciles the external outcome with the owner before any retry.`,
        plan.digest,
      );
    case 'full':
      return refuse('ledger-full', claim.message, plan.digest);
    case 'rejected':
      return refuse('ledger-error', claim.message, plan.digest);
  }
  const claimNumber = claim.claim;

  const run = await runSteps(planned, options, inputs.values, claimNumber);
  // The run in canonical form: a fresh answer and a later replay of it are the same bytes.
  const canonical = canonicalText({ ...run, inputsDigest: inputs.digest } as unknown as JsonValue);
  const recorded: ApplicationRun = canonical.ok
    ? (JSON.parse(canonical.text) as ApplicationRun)
    : { ...run, inputsDigest: inputs.digest };
  const status =
    recorded.status === 'succeeded' ? 'succeeded' : recorded.stop?.reason === 'cancelled' ? 'cancelled' : 'failed';
  const finished = await ledger.finish(key, claimNumber, { status, result: recorded as unknown as JsonValue });
  if (!finished.ok) {
    return {
      ok: true,
      replayed: false,
      run: recorded,
      diagnostics: [
        {
          code: 'application_manifest_invalid',
          rule: 'ledger',
          severity: 'warning',
          path: '',
          file: '<ledger>',
          line: 1,
          column: 1,
          message: `the run was not recorded (${finished.reason}): a repeat of this key will not replay it`,
          suggestion: 'raise the ledger limits, or lower the outputs bound',
        },
      ],
    };
  }
  return { ok: true, replayed: false, run: recorded, diagnostics: [] };
}

async function runSteps(
  planned: PlannedRun,
  options: ExecuteOptions,
  entryValues: ReadonlyMap<string, JsonValue>,
  claimNumber: number,
): Promise<Omit<ApplicationRun, 'inputsDigest'>> {
  const { plan, manifest } = planned;
  const { context, ledger, idempotencyKey: key } = options;
  const monotonic = options.monotonic ?? (() => performance.now());
  const started = monotonic();
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new Error('the runtime bound was reached')), plan.bounds.maxRuntimeMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline.signal]) : deadline.signal;

  const produced = new Map<string, JsonValue>(); // JSON [node, port] → value
  const statuses: { node: string; status: StepStatus; dispatched: boolean }[] = plan.steps.map((s) => ({
    node: s.node,
    status: 'not-run',
    dispatched: false,
  }));
  let stop: ApplicationRun['stop'] | undefined;
  let anyDispatched = false;
  const stopWith = (reason: StopReason, node: string | undefined, code: string, message: string) => {
    stop = { reason, ...(node !== undefined ? { node } : {}), code, message };
  };

  try {
    for (const [index, step] of plan.steps.entries()) {
      if (index >= plan.bounds.maxSteps) {
        stopWith('bound', step.node, 'max-steps', `the step bound (${plan.bounds.maxSteps}) was reached`);
        break;
      }
      if (options.signal?.aborted) {
        statuses[index]!.status = 'cancelled';
        stopWith('cancelled', step.node, 'cancelled', 'the caller cancelled the run');
        break;
      }
      if (deadline.signal.aborted || monotonic() - started >= plan.bounds.maxRuntimeMs) {
        stopWith('bound', step.node, 'max-runtime', `the runtime bound (${plan.bounds.maxRuntimeMs} ms) was reached`);
        break;
      }
      const node = manifest.nodes.find((n) => n.id === step.node)!;
      const componentKey = identityKey(node.component);
      const adapter = context.adapters.get(componentKey)!;
      const resolver = context.resolvers.get(componentKey)!;

      // Owner evidence is re-resolved before invocation: a changed owner blocks the step.
      const evidence = await safely(() => resolver.resolve());
      const plain = evidence.ok && evidence.value.ok ? readApplicationJson(evidence.value.evidence) : undefined;
      const digest = plain?.ok ? digestPlainJson(plain.value) : undefined;
      if (!digest?.ok || digest.sha256 !== planned.ownerEvidenceDigests.get(step.node)) {
        statuses[index]!.status = 'blocked';
        stopWith(
          'owner-drift',
          step.node,
          'owner-evidence-changed',
          `the owner \`${resolver.owner}\` no longer gives the evidence the plan was made with; replan and accept the new plan digest`,
        );
        break;
      }

      const stepInputs: Record<string, JsonValue> = Object.create(null);
      for (const input of step.inputs) {
        const value =
          input.from === 'entrypoint'
            ? entryValues.get(JSON.stringify([step.node, input.port]))
            : produced.get(JSON.stringify([input.from.node, input.from.port]));
        if (value !== undefined) stepInputs[input.port] = value;
      }

      let dispatched = false;
      const outcome = await safely<AdapterOutcome>(() =>
        adapter.execute({
          mode: plan.mode,
          node: step.node,
          config: deepFrozen(node.config as JsonValue),
          inputs: deepFrozen(stepInputs as JsonValue) as Record<string, JsonValue>,
          signal,
          idempotencyKey: stepKey(key, plan.digest, step.node),
          planDigest: plan.digest,
          ownerEvidence: plain!.ok ? deepFrozen(plain!.value) : null,
          markDispatched: async () => {
            if (plan.mode !== 'live') return { ok: false, message: 'a dry-run never dispatches' };
            if (signal.aborted)
              return { ok: false, message: 'the run was cancelled or reached its runtime bound before dispatch' };
            const marked = await ledger.markDispatched(key, claimNumber);
            if (!marked.ok) return { ok: false, message: `the ledger refused the dispatch marker (${marked.reason})` };
            dispatched = true;
            anyDispatched = true;
            return { ok: true };
          },
        }),
      );
      statuses[index]!.dispatched = dispatched;

      if (!outcome.ok) {
        statuses[index]!.status = 'failed';
        stopWith(
          'failure',
          step.node,
          'adapter-error',
          `the adapter of \`${step.component.id}\` threw; nothing is retried`,
        );
        break;
      }
      const result = outcome.value;
      if (options.signal?.aborted && !(result.status === 'completed' && !dispatched)) {
        statuses[index]!.status = dispatched ? 'deadline-uncertain' : 'cancelled';
        stopWith(
          'cancelled',
          step.node,
          'cancelled',
          dispatched
            ? 'the caller cancelled the run after the owner dispatched: reconcile with the owner'
            : 'the caller cancelled the run; the owner stopped',
        );
        break;
      }
      if (result.status === 'completed') {
        const outputs = checkOutputs(step, result.outputs);
        if (!outputs.ok) {
          statuses[index]!.status = 'failed';
          stopWith('failure', step.node, 'invalid-adapter-output', outputs.message);
          break;
        }
        for (const [port, value] of outputs.values) produced.set(JSON.stringify([step.node, port]), value);
        statuses[index]!.status = 'completed';
        continue;
      }
      if (deadline.signal.aborted && !options.signal?.aborted) {
        statuses[index]!.status = dispatched ? 'deadline-uncertain' : 'failed';
        stopWith(
          dispatched ? 'deadline-uncertain' : 'bound',
          step.node,
          'max-runtime',
          `the runtime bound (${plan.bounds.maxRuntimeMs} ms) was reached during this step`,
        );
        break;
      }
      if (result.status === 'failed') {
        statuses[index]!.status = 'failed';
        stopWith('failure', step.node, safeCode(result.code), boundedMessage(result.message));
      } else if (result.status === 'approval-required') {
        statuses[index]!.status = 'approval-required';
        stopWith('approval-required', step.node, 'approval-required', boundedMessage(result.message));
      } else if (result.status === 'deadline-uncertain') {
        statuses[index]!.status = 'deadline-uncertain';
        stopWith('deadline-uncertain', step.node, 'deadline-uncertain', boundedMessage(result.message));
      } else {
        statuses[index]!.status = 'failed';
        stopWith('failure', step.node, 'invalid-adapter-outcome', 'the adapter returned an outcome of no known status');
      }
      break;
    }
  } finally {
    clearTimeout(timer);
  }

  let outputs: Record<string, JsonValue> | undefined;
  if (stop === undefined) {
    outputs = Object.create(null) as Record<string, JsonValue>;
    for (const output of plan.outputs)
      outputs[output.name] = produced.get(JSON.stringify([output.node, output.port])) ?? null;
    const text = canonicalText(outputs);
    const bytes = text.ok ? Buffer.byteLength(text.text, 'utf8') : Number.POSITIVE_INFINITY;
    if (bytes > plan.bounds.maxOutputBytes) {
      stopWith(
        'bound',
        undefined,
        'max-output-bytes',
        `the outputs hold ${text.ok ? bytes : 'unencodable'} bytes of canonical JSON, more than \`maxOutputBytes\` (${plan.bounds.maxOutputBytes})`,
      );
      outputs = undefined;
    }
  }
  return {
    schemaVersion: APPLICATION_RUN_SCHEMA_VERSION,
    application: { id: plan.application.id, revision: plan.application.revision },
    mode: plan.mode,
    planDigest: plan.digest,
    status: stop === undefined ? 'succeeded' : 'stopped',
    ...(stop !== undefined ? { stop } : {}),
    steps: statuses,
    ...(outputs !== undefined ? { outputs: { ...outputs } } : {}),
    reconciliationRequired: anyDispatched && stop !== undefined,
  };
}

/** Owner codes are short identifiers; anything else becomes `owner-failure`. */
function safeCode(code: unknown): string {
  return typeof code === 'string' && /^[a-z][a-z0-9-]{0,63}$/.test(code) ? code : 'owner-failure';
}

/** Owner messages are kept to one bounded line of printable text. */
function boundedMessage(message: unknown): string {
  if (typeof message !== 'string') return 'the owner gave no message';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const line = message.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
  return line.length > 512 ? `${line.slice(0, 509)}...` : line || 'the owner gave no message';
}
