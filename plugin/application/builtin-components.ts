/**
 * The five v1 built-in components of application composition, as pure data: what each one is
 * (exact id and revision), what it promises (interface, capability, side effect, replay class,
 * supported modes, owner), how it connects (typed ports, kinds from port-kinds.ts) and what a node
 * may configure (a closed configuration JSON Schema in the pack dialect, pack-schema-dialect.ts).
 *
 * - `agentdef.input`: a local input. The caller supplies its `value` input as an entrypoint; it
 *   passes it on unchanged as its one `json` output. No side effect.
 * - `agentdef.prompt-template`: a literal prompt template. Its `vars` input is an object of named
 *   inputs; the template's `{{name}}` placeholders (declared in `variables`) are filled from it,
 *   giving `text`. No side effect, no model.
 * - `agentdef.registered-agent`: one registered AgentDefinition at an exact version (`slug`,
 *   `version`), planned through agentdef's zero-call `planAgent`: its output is an `agent-plan`
 *   (digests and public metadata). It never calls a model, in either mode.
 * - `agentdef.approved-artifact`: one approved external artifact, by digest, for one capability;
 *   delegated exactly once, behind an idempotency fence, to the gateway owner the host injects.
 *   Its side effect is `external` and it cannot authorise itself: approval is the owner's.
 * - `agentdef.output`: returns its `value` input as an application output.
 *
 * Configuration schemas are closed at every object level, carry no control field (command,
 * endpoint, credential, adapter…, control-fields.ts) and no regular expression (the dialect has
 * none): exact formats such as a semver version or a hex digest are checked by the owner that
 * uses them, at plan time. Nothing here runs: no functions, no paths, no I/O.
 */
import type { PortKind } from './port-kinds';

/** The only revision of every v1 built-in component. */
export const BUILTIN_REVISION = '1.0.0';

export type ExecutionMode = 'dry-run' | 'live';

/** `none`: computes from its inputs only. `external`: reaches outside the process through its owner. */
export type SideEffect = 'none' | 'external';

/**
 * - `deterministic`: the same inputs give the same output; repeating it is harmless.
 * - `fenced-once`: dispatched at most once per idempotency key; a repeat replays the ledger's record.
 */
export type ReplayClass = 'deterministic' | 'fenced-once';

/** `builtin`: agentdef's own owner. `host-injected`: the embedding host supplies the owner at start-up. */
export type OwnerSelection = 'builtin' | 'host-injected';

export interface InputPort {
  readonly kind: PortKind;
  readonly required: boolean;
  readonly description: string;
}

export interface OutputPort {
  readonly kind: PortKind;
  readonly description: string;
}

/** One built-in component's full public definition: plain JSON data. */
export interface BuiltinComponentDefinition {
  readonly id: string;
  readonly revision: string;
  readonly title: string;
  readonly description: string;
  readonly interface: string;
  readonly capability: string;
  readonly sideEffect: SideEffect;
  readonly replay: ReplayClass;
  readonly modes: readonly ExecutionMode[];
  readonly owner: { readonly name: string; readonly selection: OwnerSelection };
  readonly ports: {
    readonly inputs: Readonly<Record<string, InputPort>>;
    readonly outputs: Readonly<Record<string, OutputPort>>;
  };
  readonly configSchema: Readonly<Record<string, unknown>>;
}

const DRAFT = 'https://json-schema.org/draft/2020-12/schema';
const BOTH_MODES: readonly ExecutionMode[] = ['dry-run', 'live'];

const description = () => ({
  type: 'string',
  minLength: 1,
  maxLength: 512,
  description: 'What this node is for, for people reading the manifest.',
});

const INPUT: BuiltinComponentDefinition = {
  id: 'agentdef.input',
  revision: BUILTIN_REVISION,
  title: 'Local input',
  description:
    'A value the caller supplies when the application runs (declare its `value` input an entrypoint), passed on unchanged.',
  interface: 'agentdef.component.input/v1',
  capability: 'application.input.local',
  sideEffect: 'none',
  replay: 'deterministic',
  modes: BOTH_MODES,
  owner: { name: 'agentdef.local-input', selection: 'builtin' },
  ports: {
    inputs: { value: { kind: 'json', required: true, description: 'The caller-supplied value (an entrypoint).' } },
    outputs: { value: { kind: 'json', description: 'The same value.' } },
  },
  configSchema: {
    $schema: DRAFT,
    type: 'object',
    additionalProperties: false,
    properties: { description: description() },
  },
};

const PROMPT_TEMPLATE: BuiltinComponentDefinition = {
  id: 'agentdef.prompt-template',
  revision: BUILTIN_REVISION,
  title: 'Literal prompt template',
  description:
    'A literal text template; each `{{name}}` placeholder is filled from the member `name` of the `vars` input. No model, no side effect.',
  interface: 'agentdef.component.prompt-template/v1',
  capability: 'application.prompt.literal',
  sideEffect: 'none',
  replay: 'deterministic',
  modes: BOTH_MODES,
  owner: { name: 'agentdef.prompt-template', selection: 'builtin' },
  ports: {
    inputs: { vars: { kind: 'json', required: true, description: 'An object of named inputs for the placeholders.' } },
    outputs: { prompt: { kind: 'text', description: 'The filled-in template.' } },
  },
  configSchema: {
    $schema: DRAFT,
    type: 'object',
    additionalProperties: false,
    required: ['template'],
    properties: {
      template: {
        type: 'string',
        minLength: 1,
        maxLength: 16384,
        description: 'The literal template text, with `{{name}}` placeholders.',
      },
      variables: {
        type: 'array',
        maxItems: 64,
        uniqueItems: true,
        items: { type: 'string', minLength: 1, maxLength: 64 },
        description: 'The placeholder names the template uses, each a member of `vars`.',
      },
      description: description(),
    },
  },
};

const REGISTERED_AGENT: BuiltinComponentDefinition = {
  id: 'agentdef.registered-agent',
  revision: BUILTIN_REVISION,
  title: 'Registered agent (zero-call plan)',
  description:
    'One registered AgentDefinition at an exact version, planned through the zero-call `planAgent`: digests and public metadata, never a model call.',
  interface: 'agentdef.component.registered-agent/v1',
  capability: 'application.agent.plan',
  sideEffect: 'none',
  replay: 'deterministic',
  modes: BOTH_MODES,
  owner: { name: 'agentdef.plan-agent', selection: 'builtin' },
  ports: {
    inputs: {
      prompt: { kind: 'text', required: true, description: 'The prompt the agent would be given.' },
      context: { kind: 'json', required: false, description: 'Optional public context for the plan.' },
    },
    outputs: { plan: { kind: 'agent-plan', description: "The agent's zero-call plan (digests and public metadata)." } },
  },
  configSchema: {
    $schema: DRAFT,
    type: 'object',
    additionalProperties: false,
    required: ['slug', 'version'],
    properties: {
      slug: { type: 'string', minLength: 1, maxLength: 64, description: "The registered agent's slug." },
      version: {
        type: 'string',
        minLength: 5,
        maxLength: 64,
        description: "The agent's exact semver version (never a range or `latest`).",
      },
      description: description(),
    },
  },
};

const APPROVED_ARTIFACT: BuiltinComponentDefinition = {
  id: 'agentdef.approved-artifact',
  revision: BUILTIN_REVISION,
  title: 'Approved external artifact',
  description:
    'One approved artifact, by digest, for one capability: delegated exactly once, behind an idempotency fence, to the gateway owner the host injects. It cannot authorise itself.',
  interface: 'agentdef.component.approved-artifact/v1',
  capability: 'application.artifact.approved',
  sideEffect: 'external',
  replay: 'fenced-once',
  modes: BOTH_MODES,
  owner: { name: 'agentdef.gateway', selection: 'host-injected' },
  ports: {
    inputs: { request: { kind: 'json', required: true, description: 'The request passed to the gateway owner.' } },
    outputs: {
      artifact: {
        kind: 'artifact',
        description: 'The artifact reference (digest and public metadata, never the bytes).',
      },
    },
  },
  configSchema: {
    $schema: DRAFT,
    type: 'object',
    additionalProperties: false,
    required: ['artifactDigest', 'capability'],
    properties: {
      artifactDigest: {
        type: 'string',
        minLength: 64,
        maxLength: 64,
        description: "The approved artifact's SHA-256 (64 lowercase hex digits).",
      },
      capability: {
        type: 'string',
        minLength: 1,
        maxLength: 128,
        description: 'The capability the gateway owner approved the artifact for.',
      },
      description: description(),
    },
  },
};

const OUTPUT: BuiltinComponentDefinition = {
  id: 'agentdef.output',
  revision: BUILTIN_REVISION,
  title: 'Output',
  description:
    "Returns its `value` input as one of the application's outputs (declare its `value` output in `outputs`).",
  interface: 'agentdef.component.output/v1',
  capability: 'application.output.local',
  sideEffect: 'none',
  replay: 'deterministic',
  modes: BOTH_MODES,
  owner: { name: 'agentdef.local-output', selection: 'builtin' },
  ports: {
    inputs: { value: { kind: 'json', required: true, description: 'The value to return.' } },
    outputs: { value: { kind: 'json', description: 'The same value, as an application output.' } },
  },
  configSchema: {
    $schema: DRAFT,
    type: 'object',
    additionalProperties: false,
    properties: { description: description() },
  },
};

/** A deep-frozen copy of plain data, so no caller can change the built-ins in place. */
function frozen<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const member of Object.values(value)) frozen(member);
    Object.freeze(value);
  }
  return value;
}

/** The five v1 built-in components (in id order; fresh deep-frozen copies on every call). */
export function builtinComponents(): readonly BuiltinComponentDefinition[] {
  return frozen(structuredClone([APPROVED_ARTIFACT, INPUT, OUTPUT, PROMPT_TEMPLATE, REGISTERED_AGENT]));
}
