/**
 * The contracts of the three MCP tools `agentdef mcp` serves: their names, their input and output
 * JSON Schemas, and the readers that turn raw tool arguments into a `PlanRequest` or an
 * `ExecuteRequest` (application-service.ts) or into located diagnostics. Pure: no MCP SDK, no I/O.
 *
 * The input schemas are closed at every object level (`additionalProperties: false`) and hold no
 * open value: every argument is a bounded string, an enum or an array of closed objects. An entry
 * point value travels as JSON text (`inputs[].json`), parsed here with the strict parser (duplicate
 * keys, lone surrogates and nesting deeper than 64 are refused). So nothing an MCP caller sends can
 * carry a component pack, an adapter, a callback, a URL to follow, a command, a credential or
 * operator authority: those exist only in the host API.
 *
 * Arguments are read as plain JSON data first (a custom prototype, an accessor or a hidden
 * property is refused before any schema runs), then checked by Ajv (draft 2020-12, strict) against
 * the input schema, then by the checks a schema cannot say: exactly one of `manifestPath` and
 * `manifestText`, a manifest path that stays inside the workspace, distinct entry points, a bound
 * on the total size. Problems are diagnostics located by JSON Pointer into the arguments; their
 * `file` is the tool's name. Messages never quote an argument's value.
 *
 * The output schemas describe each tool's `structuredContent`: the catalog projection
 * (`catalogToolResult`, catalog.ts), `PlanResponse` (its plan is the published
 * `application-plan.v1` schema, its `$defs` hoisted to the top), `ExecuteResponse`, and, for
 * every tool, the refusal of invalid arguments.
 */
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import { type Diagnostic, ERROR_CODES } from '../definition/diagnostic';
import { joinPointer } from '../definition/json-pointer';
import { MAX_DEFINITION_BYTES } from '../definition/read-source';
import { parseStrictJson } from '../runtime/strict-json';
import planSchema from '../schema/application-plan.v1.schema.json';
import type {
  EntrypointValue,
  ExecuteRefusal,
  ExecuteRequest,
  ManifestInput,
  PlanRequest,
  StepStatus,
  StopReason,
} from './application-service';
import type { ExecutionMode } from './builtin-components';
import { CATALOG_TOOL_RESULT_VERSION } from './catalog';
import { IDEMPOTENCY_KEY } from './execution-ledger';
import { readApplicationJson } from './stable-json';

export const CATALOG_TOOL = 'agentdef.application.catalog';
export const PLAN_TOOL = 'agentdef.application.plan';
export const EXECUTE_TOOL = 'agentdef.application.execute';
/** Exactly these three tools, in this order; there is no fourth (packs are a host API). */
export const APPLICATION_TOOL_NAMES = [CATALOG_TOOL, PLAN_TOOL, EXECUTE_TOOL] as const;
export type ApplicationToolName = (typeof APPLICATION_TOOL_NAMES)[number];

/** Bounds of the arguments (UTF-16 code units for text). */
export const ARGUMENT_LIMITS = {
  manifestPath: 1024,
  /** As much as the host reads from a manifest file. */
  manifestText: MAX_DEFINITION_BYTES,
  inputs: 64,
  inputJson: 1024 * 1024,
  /** All `inputs[].json` texts together. */
  inputJsonTotal: 4 * 1024 * 1024,
  /** Nesting of one entry point value. */
  inputDepth: 64,
} as const;

/** Why a tool refused its arguments: its only refusal that is not the service's. */
export const INVALID_ARGUMENTS = 'invalid-arguments';
export const ARGUMENTS_RULE = 'mcp-arguments';

const MODES: readonly ExecutionMode[] = ['dry-run', 'live'];
const EXECUTE_REFUSALS = [
  'invalid-manifest',
  'drift',
  'invalid-inputs',
  'idempotency-conflict',
  'in-progress',
  'reconciliation-required',
  'ledger-full',
  'ledger-error',
] as const satisfies readonly ExecuteRefusal[];
const STEP_STATUSES = [
  'completed',
  'failed',
  'approval-required',
  'deadline-uncertain',
  'cancelled',
  'blocked',
  'not-run',
] as const satisfies readonly StepStatus[];
const STOP_REASONS = [
  'failure',
  'approval-required',
  'deadline-uncertain',
  'bound',
  'cancelled',
  'owner-drift',
] as const satisfies readonly StopReason[];
// Compile-time proof that the lists above name every member of their union (a new member breaks the build).
type Exhaustive<Union, Listed> = [Union] extends [Listed] ? true : never;
const listsAreExhaustive: [
  Exhaustive<ExecuteRefusal, (typeof EXECUTE_REFUSALS)[number]>,
  Exhaustive<StepStatus, (typeof STEP_STATUSES)[number]>,
  Exhaustive<StopReason, (typeof STOP_REASONS)[number]>,
] = [true, true, true];
void listsAreExhaustive;

type Schema = Readonly<Record<string, unknown>>;

// ---------------------------------------------------------------------------------------------
// Input schemas
// ---------------------------------------------------------------------------------------------

const SLUG = '^[a-z0-9]+(?:-[a-z0-9]+)*$';
const PORT_NAME = '^[a-z][a-zA-Z0-9]*(?:[-_][a-zA-Z0-9]+)*$';
const SHA256 = '^[0-9a-f]{64}$';

const manifestArguments = (): Record<string, Schema> => ({
  manifestPath: {
    type: 'string',
    minLength: 1,
    maxLength: ARGUMENT_LIMITS.manifestPath,
    description:
      'The manifest file, relative to the workspace root with `/` separators, ending in `.json`, `.yaml` or `.yml` (no absolute path, no `..`, no URL). Give exactly one of `manifestPath` and `manifestText`.',
  },
  manifestText: {
    type: 'string',
    minLength: 1,
    maxLength: ARGUMENT_LIMITS.manifestText,
    description:
      'The manifest itself, as JSON or YAML text (see `manifestFormat`). Give exactly one of `manifestPath` and `manifestText`.',
  },
  manifestFormat: {
    type: 'string',
    enum: ['json', 'yaml'],
    description:
      'The format of `manifestText` (default `json`). Only with `manifestText`: a path names its format by its extension.',
  },
  mode: {
    type: 'string',
    enum: [...MODES],
    description: '`dry-run` runs every step without external dispatch; `live` lets owners dispatch.',
  },
});

const CATALOG_INPUT_SCHEMA: Schema = {
  type: 'object',
  title: 'CatalogArguments',
  description: 'No arguments.',
  additionalProperties: false,
  properties: {},
};

const PLAN_INPUT_SCHEMA: Schema = {
  type: 'object',
  title: 'PlanArguments',
  description: 'One application manifest (by workspace path or as text) and the mode to plan it for.',
  additionalProperties: false,
  required: ['mode'],
  properties: manifestArguments(),
};

const EXECUTE_INPUT_SCHEMA: Schema = {
  type: 'object',
  title: 'ExecuteArguments',
  description:
    'The same manifest and mode as the plan, the plan digest the caller accepted, an idempotency key, and a value for every entry point.',
  additionalProperties: false,
  required: ['mode', 'expectedPlanDigest', 'idempotencyKey', 'inputs'],
  properties: {
    ...manifestArguments(),
    expectedPlanDigest: {
      type: 'string',
      pattern: SHA256,
      minLength: 64,
      maxLength: 64,
      description:
        'The `digest` of the plan the caller accepted (64 lowercase hex digits): any other plan digest now is drift and nothing runs.',
    },
    idempotencyKey: {
      type: 'string',
      pattern: '^[\\x21-\\x7e]{1,256}$',
      minLength: 1,
      maxLength: 256,
      description:
        '1-256 visible ASCII characters. The same key with the same plan, mode and inputs replays the recorded run; with anything else it is refused.',
    },
    inputs: {
      type: 'array',
      minItems: 1,
      maxItems: ARGUMENT_LIMITS.inputs,
      description: 'A value for every entry point of the plan, and nothing else (one per node and port).',
      items: {
        type: 'object',
        title: 'EntrypointArgument',
        additionalProperties: false,
        required: ['node', 'port', 'json'],
        properties: {
          node: {
            type: 'string',
            pattern: SLUG,
            minLength: 1,
            maxLength: 64,
            description: "The entry point's node id.",
          },
          port: {
            type: 'string',
            pattern: PORT_NAME,
            minLength: 1,
            maxLength: 64,
            description: "The entry point's input port.",
          },
          json: {
            type: 'string',
            minLength: 1,
            maxLength: ARGUMENT_LIMITS.inputJson,
            description:
              'The value, as JSON text (strict: no duplicate keys, no lone surrogates, nesting at most 64 deep). A text port takes a JSON string, e.g. "\\"hello\\"".',
          },
        },
      },
    },
  },
};

// ---------------------------------------------------------------------------------------------
// Output schemas
// ---------------------------------------------------------------------------------------------

const text = (description: string): Schema => ({ type: 'string', description });

const DIAGNOSTIC_SCHEMA: Schema = {
  type: 'object',
  title: 'Diagnostic',
  description: 'One problem, located by JSON Pointer and by file:line:column (for arguments, `file` is the tool name).',
  additionalProperties: false,
  required: ['code', 'rule', 'severity', 'path', 'file', 'line', 'column', 'message'],
  properties: {
    code: text(`The error family, such as ${Object.values(ERROR_CODES).join(', ')}.`),
    rule: text('The rule that found the problem.'),
    severity: { type: 'string', enum: ['error', 'warning'] },
    path: text('JSON Pointer (RFC 6901) of the offending value; "" is the whole document.'),
    file: text('The file (or, for arguments, the tool) the problem is in.'),
    line: { type: 'integer', description: '1-based line.' },
    column: { type: 'integer', description: '1-based column, in UTF-16 code units.' },
    message: text('What is wrong.'),
    suggestion: text('How to fix it.'),
    redactSource: { type: 'boolean', description: 'The located text may hold a secret: never echo the source line.' },
  },
};

const ARGUMENT_REFUSAL_SCHEMA: Schema = {
  type: 'object',
  title: 'ArgumentRefusal',
  description: 'The arguments were refused before anything was planned or executed.',
  additionalProperties: false,
  required: ['ok', 'refusal', 'message', 'diagnostics'],
  properties: {
    ok: { const: false },
    refusal: { const: INVALID_ARGUMENTS },
    message: text('A one-line summary.'),
    diagnostics: { type: 'array', items: { $ref: '#/$defs/McpDiagnostic' } },
  },
};

const {
  $schema: _planDialect,
  $id: _planId,
  $defs: planDefs,
  ...planRoot
} = planSchema as unknown as { $schema: string; $id: string; $defs: Record<string, Schema> } & Schema;

/** `$defs` of one output schema: the given ones, the plan's (hoisted) and the shared ones. Names never collide. */
function outputDefs(extra: Record<string, Schema>, withPlan: boolean): Record<string, Schema> {
  const defs: Record<string, Schema> = {
    McpDiagnostic: DIAGNOSTIC_SCHEMA,
    McpArgumentRefusal: ARGUMENT_REFUSAL_SCHEMA,
  };
  const add = (from: Record<string, Schema>) => {
    for (const [name, schema] of Object.entries(from)) {
      // Constant data: a collision is a build defect, caught by mcp-tool-contracts.test.ts.
      if (Object.hasOwn(defs, name)) throw new Error(`output schema definition ${name} is defined twice`);
      defs[name] = schema;
    }
  };
  if (withPlan) add({ ...planDefs, ApplicationPlan: planRoot });
  add(extra);
  return defs;
}

const PORTS_SCHEMA = (withRequired: boolean): Schema => ({
  type: 'object',
  description: 'Ports by name.',
  additionalProperties: {
    type: 'object',
    additionalProperties: false,
    required: withRequired ? ['kind', 'required', 'description'] : ['kind', 'description'],
    properties: {
      kind: text('The port kind (`text`, `json`, `artifact`, `agent-plan`…).'),
      ...(withRequired ? { required: { type: 'boolean' } } : {}),
      description: text('What the port carries.'),
    },
  },
});

const CATALOG_RESULT_SCHEMA: Schema = {
  type: 'object',
  title: 'CatalogResult',
  description: 'The public, read-only component catalog: authoring schemas, execution evidence and digests.',
  additionalProperties: false,
  required: ['schemaVersion', 'catalogDigest', 'adapterPolicyDigest', 'components', 'packs', 'integrations'],
  properties: {
    schemaVersion: { const: CATALOG_TOOL_RESULT_VERSION },
    catalogDigest: {
      $ref: '#/$defs/Sha256',
      description: 'The composite catalog digest a manifest names as `catalogDigest`.',
    },
    adapterPolicyDigest: {
      $ref: '#/$defs/Sha256',
      description: 'The composite adapter-policy digest a manifest names as `adapterPolicyDigest`.',
    },
    components: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: [
          'id',
          'revision',
          'title',
          'description',
          'definitionDigest',
          'evidence',
          'ownerSelection',
          'ports',
          'configSchema',
        ],
        properties: {
          id: text('The exact component id.'),
          revision: text('The exact component revision.'),
          title: text('A short title.'),
          description: text('What the component does.'),
          definitionDigest: { $ref: '#/$defs/Sha256' },
          evidence: {
            type: 'object',
            additionalProperties: false,
            required: ['interface', 'capability', 'modes', 'sideEffect', 'replay', 'owner'],
            properties: {
              interface: text('The exact interface.'),
              capability: text('The capability.'),
              modes: { type: 'array', items: { type: 'string', enum: [...MODES] } },
              sideEffect: { type: 'string', enum: ['none', 'external'] },
              replay: { type: 'string', enum: ['deterministic', 'fenced-once'] },
              owner: text("The owner's name."),
            },
          },
          ownerSelection: { type: 'string', enum: ['builtin', 'host-injected'] },
          ports: {
            type: 'object',
            additionalProperties: false,
            required: ['inputs', 'outputs'],
            properties: { inputs: PORTS_SCHEMA(true), outputs: PORTS_SCHEMA(false) },
          },
          configSchema: { type: 'object', description: "The closed JSON Schema (pack dialect) of a node's `config`." },
        },
      },
    },
    packs: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'revision', 'sourceDigest'],
        properties: {
          id: text('The pack id.'),
          revision: text('The selected revision.'),
          sourceDigest: { $ref: '#/$defs/Sha256' },
        },
      },
    },
    integrations: {
      type: 'array',
      description:
        'Opaque integration records: each owner, whether it gives evidence now, and only the digest of that evidence.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['owner', 'selection', 'components', 'available', 'evidenceDigest'],
        properties: {
          owner: text("The owner's name."),
          selection: { type: 'string', enum: ['builtin', 'host-injected'] },
          components: {
            type: 'array',
            items: { type: 'string' },
            description: 'The `id@revision` of the components it owns.',
          },
          available: { type: 'boolean', description: 'Whether the owner gives evidence now.' },
          evidenceDigest: {
            anyOf: [{ $ref: '#/$defs/Sha256' }, { type: 'null' }],
            description: "SHA-256 of the owner's current evidence; null when it gives none.",
          },
        },
      },
    },
  },
};

const Sha256Def = {
  Sha256: { type: 'string', pattern: SHA256, description: 'A SHA-256 digest: 64 lowercase hex digits.' },
};

const CATALOG_OUTPUT_SCHEMA: Schema = {
  type: 'object',
  description: 'The catalog, or the refusal of invalid arguments.',
  anyOf: [{ $ref: '#/$defs/CatalogResult' }, { $ref: '#/$defs/McpArgumentRefusal' }],
  $defs: outputDefs({ ...Sha256Def, CatalogResult: CATALOG_RESULT_SCHEMA }, false),
};

const PLAN_OUTPUT_SCHEMA: Schema = {
  type: 'object',
  description:
    '`{ ok: true, plan, diagnostics }` (warnings only), `{ ok: false, diagnostics }` for an invalid manifest, or the refusal of invalid arguments.',
  anyOf: [
    {
      type: 'object',
      additionalProperties: false,
      required: ['ok', 'plan', 'diagnostics'],
      properties: {
        ok: { const: true },
        plan: { $ref: '#/$defs/ApplicationPlan' },
        diagnostics: { type: 'array', items: { $ref: '#/$defs/McpDiagnostic' } },
      },
    },
    {
      type: 'object',
      additionalProperties: false,
      required: ['ok', 'diagnostics'],
      properties: { ok: { const: false }, diagnostics: { type: 'array', items: { $ref: '#/$defs/McpDiagnostic' } } },
    },
    { $ref: '#/$defs/McpArgumentRefusal' },
  ],
  $defs: outputDefs({}, true),
};

const JSON_VALUE: Schema = { description: 'Any JSON value.' };

const RUN_SCHEMA: Schema = {
  type: 'object',
  title: 'ApplicationRun',
  description: 'What one execute recorded; a replay returns it unchanged.',
  additionalProperties: false,
  required: [
    'schemaVersion',
    'application',
    'mode',
    'planDigest',
    'inputsDigest',
    'status',
    'steps',
    'reconciliationRequired',
  ],
  properties: {
    schemaVersion: { const: 'agentdef.application-run/v1' },
    application: {
      type: 'object',
      additionalProperties: false,
      required: ['id', 'revision'],
      properties: { id: text('The application id.'), revision: text('The exact revision.') },
    },
    mode: { type: 'string', enum: [...MODES] },
    planDigest: { $ref: '#/$defs/Sha256' },
    inputsDigest: { $ref: '#/$defs/Sha256' },
    status: { type: 'string', enum: ['succeeded', 'stopped'] },
    stop: {
      type: 'object',
      additionalProperties: false,
      required: ['reason', 'code', 'message'],
      properties: {
        reason: { type: 'string', enum: [...STOP_REASONS] },
        node: text('Where it stopped.'),
        code: text('A stable code.'),
        message: text('Why it stopped.'),
      },
    },
    steps: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['node', 'status', 'dispatched'],
        properties: {
          node: text('The node id.'),
          status: { type: 'string', enum: [...STEP_STATUSES] },
          dispatched: { type: 'boolean' },
        },
      },
    },
    outputs: {
      type: 'object',
      description: 'The named outputs (only when the run succeeded).',
      additionalProperties: JSON_VALUE,
    },
    reconciliationRequired: {
      type: 'boolean',
      description: 'A failure after real external dispatch: reconcile with the owner before any retry.',
    },
  },
};

const EXECUTE_OUTPUT_SCHEMA: Schema = {
  type: 'object',
  description:
    '`{ ok: true, replayed, run, diagnostics }`, or `{ ok: false, refusal, message, planDigest?, diagnostics }` when nothing ran.',
  anyOf: [
    {
      type: 'object',
      additionalProperties: false,
      required: ['ok', 'replayed', 'run', 'diagnostics'],
      properties: {
        ok: { const: true },
        replayed: {
          type: 'boolean',
          description: 'true: the run was recorded before under this idempotency key and is returned unchanged.',
        },
        run: { $ref: '#/$defs/ApplicationRun' },
        diagnostics: { type: 'array', items: { $ref: '#/$defs/McpDiagnostic' } },
      },
    },
    {
      type: 'object',
      additionalProperties: false,
      required: ['ok', 'refusal', 'message', 'diagnostics'],
      properties: {
        ok: { const: false },
        refusal: { type: 'string', enum: [...EXECUTE_REFUSALS, INVALID_ARGUMENTS] },
        message: text('Why nothing ran.'),
        planDigest: { $ref: '#/$defs/Sha256', description: 'The plan digest now (for drift).' },
        diagnostics: { type: 'array', items: { $ref: '#/$defs/McpDiagnostic' } },
      },
    },
  ],
  $defs: outputDefs({ ApplicationRun: RUN_SCHEMA }, true),
};

export interface ApplicationToolContract {
  readonly name: ApplicationToolName;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: Schema;
  readonly outputSchema: Schema;
  readonly annotations: {
    readonly title: string;
    readonly readOnlyHint: boolean;
    readonly destructiveHint: boolean;
    readonly idempotentHint: boolean;
    readonly openWorldHint: boolean;
  };
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const member of Object.values(value)) deepFreeze(member);
    Object.freeze(value);
  }
  return value;
}

/** The three tools as `tools/list` lists them (deep-frozen). */
export const APPLICATION_TOOLS: readonly ApplicationToolContract[] = deepFreeze([
  {
    name: CATALOG_TOOL,
    title: 'Application component catalog',
    description:
      'The component catalog: every component revision with its authoring (config) schema, ports, interface/capability/owner evidence and digests, plus the `catalogDigest` and `adapterPolicyDigest` a manifest must name. Read-only, no external connection.',
    inputSchema: CATALOG_INPUT_SCHEMA,
    outputSchema: CATALOG_OUTPUT_SCHEMA,
    annotations: {
      title: 'Application component catalog',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
  },
  {
    name: PLAN_TOOL,
    title: 'Plan an application',
    description:
      'Verifies an application manifest (source digest, catalog and adapter-policy digests, typed DAG, reachability, bounds, owner evidence, mode) and returns its exact plan (digests and public metadata only) or located diagnostics. Runs nothing.',
    inputSchema: PLAN_INPUT_SCHEMA,
    outputSchema: PLAN_OUTPUT_SCHEMA,
    annotations: {
      title: 'Plan an application',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
  },
  {
    name: EXECUTE_TOOL,
    title: 'Execute an application',
    description:
      'Replans the same manifest and mode, refuses any drift from `expectedPlanDigest`, then runs the ready steps in dependency order, stopping at the first failure, approval boundary, deadline uncertainty or bound, never retrying. The same idempotency key replays the recorded run.',
    inputSchema: EXECUTE_INPUT_SCHEMA,
    outputSchema: EXECUTE_OUTPUT_SCHEMA,
    annotations: {
      title: 'Execute an application',
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    },
  },
]);

export function toolContract(name: ApplicationToolName): ApplicationToolContract {
  return APPLICATION_TOOLS.find((tool) => tool.name === name) as ApplicationToolContract;
}

export function isApplicationToolName(name: unknown): name is ApplicationToolName {
  return typeof name === 'string' && (APPLICATION_TOOL_NAMES as readonly string[]).includes(name);
}

// ---------------------------------------------------------------------------------------------
// Argument readers
// ---------------------------------------------------------------------------------------------

export type ArgumentsResult<T> =
  | { readonly ok: true; readonly request: T }
  | { readonly ok: false; readonly message: string; readonly diagnostics: readonly Diagnostic[] };

let validators: Map<ApplicationToolName, ValidateFunction> | undefined;

function validatorOf(name: ApplicationToolName): ValidateFunction {
  if (validators === undefined) {
    const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: true, unicodeRegExp: true, verbose: true });
    validators = new Map(APPLICATION_TOOLS.map((tool) => [tool.name, ajv.compile(tool.inputSchema)]));
  }
  return validators.get(name) as ValidateFunction;
}

/** A property name fit to appear in a pointer or a message: long ones are summarised, never echoed. */
const MAX_NAME_SHOWN = 64;
const nameShown = (name: string): string | undefined =>
  name.length <= MAX_NAME_SHOWN && /^[\x20-\x7e]*$/.test(name) ? name : undefined;

function diagnostic(tool: ApplicationToolName, path: string, message: string, suggestion?: string): Diagnostic {
  const d: Diagnostic = {
    code: ERROR_CODES.applicationInvalid,
    rule: ARGUMENTS_RULE,
    severity: 'error',
    path,
    file: tool,
    line: 1,
    column: 1,
    message,
  };
  if (suggestion !== undefined) d.suggestion = suggestion;
  return d;
}

const AUTHORITY_HELP =
  'the tool takes only the arguments its input schema lists; packs, adapters, callbacks, URLs, commands, credentials and operator authority are never MCP arguments (the host supplies them)';

function schemaErrorDiagnostic(tool: ApplicationToolName, error: ErrorObject): Diagnostic {
  const at = error.instancePath;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties': {
      const extra = String(params.additionalProperty);
      const shown = nameShown(extra);
      const allowed = Object.keys(((error.parentSchema as Schema | undefined)?.properties as Schema | undefined) ?? {});
      const list =
        allowed.length > 0
          ? `: the allowed ones are ${allowed.map((k) => `\`${k}\``).join(', ')}`
          : ': this tool takes no arguments';
      return shown !== undefined
        ? diagnostic(tool, joinPointer(at, shown), `unknown argument \`${shown}\`${list}`, AUTHORITY_HELP)
        : diagnostic(tool, at, `an unknown argument with a ${extra.length}-character name${list}`, AUTHORITY_HELP);
    }
    case 'required':
      return diagnostic(
        tool,
        joinPointer(at, String(params.missingProperty)),
        `the argument \`${String(params.missingProperty)}\` is required`,
      );
    case 'type':
      return diagnostic(
        tool,
        at,
        `must be ${String(params.type) === 'object' ? 'an object' : `a ${String(params.type)}`}`,
      );
    case 'enum':
      return diagnostic(
        tool,
        at,
        `must be one of ${((params.allowedValues as unknown[]) ?? []).map((v) => `\`${String(v)}\``).join(', ')}`,
      );
    case 'maxLength':
      return diagnostic(tool, at, `is too long: at most ${String(params.limit)} characters`);
    case 'minLength':
      return diagnostic(
        tool,
        at,
        `is too short: at least ${String(params.limit)} character${params.limit === 1 ? '' : 's'}`,
      );
    case 'maxItems':
      return diagnostic(tool, at, `has too many entries: at most ${String(params.limit)}`);
    case 'minItems':
      return diagnostic(tool, at, `needs at least ${String(params.limit)} entr${params.limit === 1 ? 'y' : 'ies'}`);
    case 'pattern':
      return diagnostic(tool, at, `${describePattern(at)}`);
    default:
      return diagnostic(tool, at, `is invalid (${error.keyword})`);
  }
}

function describePattern(at: string): string {
  if (at === '/expectedPlanDigest') return 'must be a plan digest: 64 lowercase hexadecimal characters';
  if (at === '/idempotencyKey') return 'must be 1 to 256 visible ASCII characters (no spaces, no control characters)';
  if (at.endsWith('/node')) return 'must be a node id: lowercase kebab-case, 1-64 characters';
  if (at.endsWith('/port'))
    return 'must be a port name: an ASCII identifier starting with a lowercase letter, 1-64 characters';
  return 'has an invalid form';
}

/** The longest a diagnostic's pointer gets: a deeper place is located at its ancestor this long at most. */
const MAX_POINTER_SHOWN = 256;

/** `pointer`, or its nearest ancestor no longer than `MAX_POINTER_SHOWN` (arguments nested a million deep would echo megabytes). */
function boundedPointer(pointer: string): string {
  if (pointer.length <= MAX_POINTER_SHOWN) return pointer;
  const cut = pointer.lastIndexOf('/', MAX_POINTER_SHOWN);
  return cut <= 0 ? '' : pointer.slice(0, cut);
}

/** Reads and schema-checks `raw`: the plain-data copy, or the refusal. */
function readArguments(
  tool: ApplicationToolName,
  raw: unknown,
): { ok: true; args: Record<string, unknown> } | { ok: false; message: string; diagnostics: Diagnostic[] } {
  const plain = readApplicationJson(raw === undefined ? {} : raw);
  if (!plain.ok) {
    const at = boundedPointer(plain.pointer);
    const below = at === plain.pointer ? '' : ' (deeper inside this argument)';
    return {
      ok: false,
      message: 'the arguments are not plain JSON data',
      diagnostics: [
        diagnostic(tool, at, `the arguments are not plain JSON data${below}: ${plain.reason}`, AUTHORITY_HELP),
      ],
    };
  }
  const validate = validatorOf(tool);
  if (validate(plain.value)) return { ok: true, args: plain.value as Record<string, unknown> };
  // One diagnostic per place: an empty key breaks both `minLength` and `pattern`, say it once.
  const byPath = new Map<string, Diagnostic>();
  for (const error of validate.errors ?? []) {
    const d = schemaErrorDiagnostic(tool, error);
    if (!byPath.has(d.path)) byPath.set(d.path, d);
  }
  const diagnostics = [...byPath.values()];
  return { ok: false, message: summary(diagnostics), diagnostics };
}

function summary(diagnostics: readonly Diagnostic[]): string {
  const first = diagnostics[0];
  if (first === undefined) return 'invalid arguments';
  const more = diagnostics.length > 1 ? ` (and ${diagnostics.length - 1} more)` : '';
  return `invalid arguments: ${first.path === '' ? '' : `${first.path} `}${first.message}${more}`;
}

/**
 * Why a JSON text did not parse (`parseStrictJson`), without any of the text: the strict parser
 * names a duplicated property, and a property name may be anything the caller sent (a credential
 * pasted as a key, say), so only where it sits is kept.
 */
export function unquotedJsonReason(reason: string): string {
  if (!reason.startsWith('duplicate property name ')) return reason;
  const at = / at offset \d+$/.exec(reason);
  return `duplicate property name${at ? at[0] : ''}`;
}

const refuse = <T>(diagnostics: Diagnostic[]): ArgumentsResult<T> => ({
  ok: false,
  message: summary(diagnostics),
  diagnostics,
});

const MANIFEST_EXTENSION = /\.(?:json|ya?ml)$/;

/** Why `path` is not a contained, workspace-relative manifest path, or undefined. */
function manifestPathProblem(path: string): string | undefined {
  if (path.startsWith('/') || path.startsWith('\\') || /^[A-Za-z]:/.test(path))
    return 'must be relative to the workspace root, not absolute';
  if (path.includes('\\')) return 'must use `/` separators';
  if (path.includes(':')) return 'must be a workspace path, not a URL or a drive';
  if ([...path].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f))
    return 'must not contain control characters';
  const segments = path.split('/');
  if (segments.some((s) => s === '..')) return 'must stay inside the workspace (no `..` segment)';
  if (segments.some((s) => s === '' || s === '.')) return 'must not contain empty or `.` segments';
  if (path.startsWith('~')) return 'must be relative to the workspace root (no `~`)';
  if (!MANIFEST_EXTENSION.test(path)) return 'must name a `.json`, `.yaml` or `.yml` manifest file';
  return undefined;
}

function readManifest(
  tool: ApplicationToolName,
  args: Record<string, unknown>,
  diagnostics: Diagnostic[],
): ManifestInput | undefined {
  const path = args.manifestPath as string | undefined;
  const manifestText = args.manifestText as string | undefined;
  const format = args.manifestFormat as 'json' | 'yaml' | undefined;
  if ((path === undefined) === (manifestText === undefined)) {
    diagnostics.push(
      diagnostic(
        tool,
        path === undefined ? '' : '/manifestText',
        path === undefined
          ? 'give the manifest: exactly one of `manifestPath` and `manifestText`'
          : 'give exactly one of `manifestPath` and `manifestText`, not both',
      ),
    );
    return undefined;
  }
  if (path !== undefined) {
    if (format !== undefined)
      diagnostics.push(
        diagnostic(
          tool,
          '/manifestFormat',
          '`manifestFormat` goes with `manifestText` only: a manifest path names its format by its extension',
        ),
      );
    const problem = manifestPathProblem(path);
    if (problem !== undefined)
      diagnostics.push(
        diagnostic(
          tool,
          '/manifestPath',
          `the manifest path ${problem}`,
          'name the manifest file relative to the workspace root, for example `applications/triage/application.json`',
        ),
      );
    return problem === undefined ? { path } : undefined;
  }
  return { text: manifestText as string, format: format ?? 'json' };
}

/** The `PlanRequest` in raw `agentdef.application.plan` arguments, or why not. */
export function readPlanArguments(raw: unknown): ArgumentsResult<PlanRequest> {
  const read = readArguments(PLAN_TOOL, raw);
  if (!read.ok) return read;
  const diagnostics: Diagnostic[] = [];
  const manifest = readManifest(PLAN_TOOL, read.args, diagnostics);
  if (manifest === undefined || diagnostics.length > 0) return refuse(diagnostics);
  return { ok: true, request: { manifest, mode: read.args.mode as ExecutionMode } };
}

/** Raw `agentdef.application.catalog` arguments: none (absent or `{}`). */
export function readCatalogArguments(raw: unknown): ArgumentsResult<Record<string, never>> {
  const read = readArguments(CATALOG_TOOL, raw);
  return read.ok ? { ok: true, request: {} } : read;
}

/** The `ExecuteRequest` in raw `agentdef.application.execute` arguments, or why not. */
export function readExecuteArguments(raw: unknown): ArgumentsResult<ExecuteRequest> {
  const read = readArguments(EXECUTE_TOOL, raw);
  if (!read.ok) return read;
  const args = read.args;
  const diagnostics: Diagnostic[] = [];
  const manifest = readManifest(EXECUTE_TOOL, args, diagnostics);
  if (typeof args.idempotencyKey !== 'string' || !IDEMPOTENCY_KEY.test(args.idempotencyKey)) {
    diagnostics.push(
      diagnostic(
        EXECUTE_TOOL,
        '/idempotencyKey',
        'must be 1 to 256 visible ASCII characters (no spaces, no control characters)',
      ),
    );
  }
  const rawInputs = args.inputs as readonly { node: string; port: string; json: string }[];
  const total = rawInputs.reduce((sum, input) => sum + input.json.length, 0);
  if (total > ARGUMENT_LIMITS.inputJsonTotal) {
    diagnostics.push(
      diagnostic(
        EXECUTE_TOOL,
        '/inputs',
        `the entry point values are too large together: at most ${ARGUMENT_LIMITS.inputJsonTotal} characters of JSON text`,
      ),
    );
    return refuse(diagnostics);
  }
  const inputs: EntrypointValue[] = [];
  const seen = new Map<string, number>();
  rawInputs.forEach((input, index) => {
    const at = `/inputs/${index}`;
    const identity = JSON.stringify([input.node, input.port]);
    const first = seen.get(identity);
    if (first !== undefined) {
      diagnostics.push(
        diagnostic(
          EXECUTE_TOOL,
          at,
          `a second value for entry point \`${input.node}\`.\`${input.port}\` (the first is /inputs/${first}): give each entry point once`,
        ),
      );
      return;
    }
    seen.set(identity, index);
    const parsed = parseStrictJson(input.json, ARGUMENT_LIMITS.inputDepth);
    if (!parsed.ok) {
      diagnostics.push(
        diagnostic(
          EXECUTE_TOOL,
          `${at}/json`,
          `is not strict JSON text: ${unquotedJsonReason(parsed.reason)}`,
          'give the value as JSON text, e.g. "\\"a string\\"" or "{\\"a\\": 1}"; duplicate keys and nesting deeper than 64 are refused',
        ),
      );
      return;
    }
    const value = readApplicationJson(parsed.value);
    if (!value.ok) {
      diagnostics.push(
        diagnostic(
          EXECUTE_TOOL,
          `${at}/json`,
          `is not plain JSON data at ${value.pointer === '' ? 'its top' : value.pointer}: ${value.reason}`,
        ),
      );
      return;
    }
    inputs.push({ node: input.node, port: input.port, value: value.value });
  });
  if (manifest === undefined || diagnostics.length > 0) return refuse(diagnostics);
  return {
    ok: true,
    request: {
      manifest,
      mode: args.mode as ExecutionMode,
      expectedPlanDigest: args.expectedPlanDigest as string,
      idempotencyKey: args.idempotencyKey as string,
      inputs,
    },
  };
}
