/**
 * The semver policy of an AgentDefinition as data (docs/decisions/0001-semver-policy.md): for every
 * field of plugin/schema/agent-definition.v1.schema.json, how the diff walks it and which bump an
 * addition, a removal or a change of it requires. Fields are named by schema path: a JSON Pointer
 * with `*` for an array item. A field missing from this table is unclassified, and its change
 * counts as major (fail closed); definition-change-policy.test.ts checks that every schema field
 * is here.
 */

export type Bump = 'major' | 'minor' | 'patch';

/** A classification: the bump and the one-line reason printed with the change. */
export interface Verdict {
  bump: Bump;
  reason: string;
}

/** A classification of a value change, from the old and the new value. */
export type ChangeVerdict = Verdict | ((before: unknown, after: unknown) => Verdict);

/**
 * How the diff walks a field:
 * - `leaf`: compared as a whole (one change at most);
 * - `object`: member by member, each member a field of its own;
 * - `keyed`: an array of objects matched by `key` (order does not matter); items are the field
 *   `<path>/*`;
 * - `set`: an array of scalars compared as a set (order does not matter); each added or removed
 *   item is one change.
 * `ignored` fields change with every version by design and are not changes of the contract.
 */
export type FieldRule =
  | { walk: 'leaf'; added: Verdict; removed: Verdict; changed: ChangeVerdict }
  | { walk: 'object'; added: Verdict; removed: Verdict }
  | {
      walk: 'keyed';
      key: (item: unknown) => string | undefined;
      added: Verdict;
      removed: Verdict;
      itemAdded: Verdict;
      itemRemoved: Verdict;
    }
  | { walk: 'set'; added: Verdict; removed: Verdict; itemAdded: Verdict; itemRemoved: Verdict }
  | { walk: 'ignored'; why: string };

const major = (reason: string): Verdict => ({ bump: 'major', reason });
const minor = (reason: string): Verdict => ({ bump: 'minor', reason });
const patch = (reason: string): Verdict => ({ bump: 'patch', reason });

/** A field whose every addition, removal and change has one class. */
function leaf(verdict: Verdict): FieldRule {
  return { walk: 'leaf', added: verdict, removed: verdict, changed: verdict };
}

/** A required object: walked member by member; it is never added or removed in a valid definition. */
function object(what: string): FieldRule {
  return { walk: 'object', added: major(`${what} appeared`), removed: major(`${what} removed`) };
}

/** A JSON Schema constraining what the agent accepts: adding or changing it may tighten. */
function acceptedSchema(what: string): FieldRule {
  return {
    walk: 'leaf',
    added: major(`${what} now constrained by a schema (tightening)`),
    removed: minor(`${what} no longer constrained by a schema (loosening)`),
    changed: major(`${what} schema changed (tightening cannot be ruled out)`),
  };
}

/** A JSON Schema describing what the agent produces: adding it is a new guarantee, dropping it breaks one. */
function producedSchema(what: string): FieldRule {
  return {
    walk: 'leaf',
    added: minor(`${what} now described by a schema (a new guarantee)`),
    removed: major(`${what} no longer guaranteed by a schema`),
    changed: major(`${what} schema changed (consumers may rely on the old shape)`),
  };
}

/** A resource limit: a new or lower limit tightens, a removed or higher one loosens. */
function limit(what: string): FieldRule {
  return {
    walk: 'leaf',
    added: major(`${what} limit added (tightening)`),
    removed: minor(`${what} limit removed (loosening)`),
    changed: (before, after) =>
      typeof before === 'number' && typeof after === 'number' && after > before
        ? minor(`${what} limit raised (loosening)`)
        : major(`${what} limit lowered or changed (tightening)`),
  };
}

/** The numbers of an exact semver, or undefined. */
function semverTriple(value: unknown): [number, number, number] | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:[-+].*)?$/.exec(value);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

/** A nested version (a skill's, a tool's): the agent's bump is at least the nested bump. */
function nestedVersion(what: string): FieldRule {
  return {
    walk: 'leaf',
    added: major(`${what} version appeared`),
    removed: major(`${what} version removed`),
    changed: (before, after) => {
      const a = semverTriple(before);
      const b = semverTriple(after);
      if (!a || !b) return major(`${what} version changed and is not an exact semver`);
      if (b[0] !== a[0]) return b[0] > a[0] ? major(`${what} had a major bump`) : major(`${what} version went down`);
      if (b[1] !== a[1]) return b[1] > a[1] ? minor(`${what} had a minor bump`) : major(`${what} version went down`);
      if (b[2] !== a[2]) return b[2] > a[2] ? patch(`${what} had a patch bump`) : major(`${what} version went down`);
      return patch(`${what} pre-release or build changed`);
    },
  };
}

/** Lifecycle stages in order (the seed's six). */
const STAGES = [
  'tool-prototype',
  'tool-shipped',
  'mcp-resident',
  'kym-registered',
  'composed',
  'marketplace-published',
];

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const member = (item: unknown, name: string): unknown =>
  typeof item === 'object' && item !== null && !Array.isArray(item)
    ? (item as Record<string, unknown>)[name]
    : undefined;

/** Item keys of the keyed arrays: what makes two items "the same one" across versions. */
const byMember =
  (...names: string[]) =>
  (item: unknown): string | undefined => {
    const parts = names.map((name) => text(member(item, name)));
    return parts.every((p) => p !== undefined) ? JSON.stringify(parts) : undefined;
  };

/** The policy: every schema field by schema path. */
export const CHANGE_POLICY: Readonly<Record<string, FieldRule>> = {
  '': object('the definition'),
  '/$schema': leaf(patch('editor schema hint')),
  '/schemaVersion': leaf(major('definition format version changed')),

  '/identity': object('identity'),
  '/identity/id': leaf(major("the agent's permanent identity changed")),
  '/identity/slug': leaf(major('slug changed: every pin slug@version breaks')),
  '/identity/name': leaf(patch('display name')),
  '/identity/versionSemver': { walk: 'ignored', why: 'the version itself' },
  '/identity/versionId': { walk: 'ignored', why: 'a new ULID for every version' },
  '/identity/owner': leaf(major('owner changed: the trust principal behind the agent')),
  '/identity/signingKeyRef': leaf(major('signing key changed: verifiers pinned to the old key reject new exports')),
  '/identity/kymRef': leaf(patch('registry reference (follows slug@version)')),
  '/identity/nandaFactsRef': {
    walk: 'leaf',
    added: minor('AgentFacts published'),
    removed: major('AgentFacts reference removed'),
    changed: major('AgentFacts moved: verifiers fetch the old location'),
  },

  '/capabilityContract': object('capability contract'),
  '/capabilityContract/inputs': {
    walk: 'keyed',
    key: byMember('kind', 'mediaType'),
    added: major('inputs appeared'),
    removed: major('inputs removed'),
    itemAdded: minor('accepts a new input (additive)'),
    itemRemoved: major('input removed: callers sending it break'),
  },
  '/capabilityContract/inputs/*': object('input'),
  '/capabilityContract/inputs/*/kind': leaf(major('input kind changed')),
  '/capabilityContract/inputs/*/mediaType': leaf(major('input media type changed')),
  '/capabilityContract/inputs/*/schema': acceptedSchema('input'),
  '/capabilityContract/inputs/*/description': leaf(patch('description')),
  '/capabilityContract/outputs': {
    walk: 'keyed',
    key: byMember('kind', 'mediaType'),
    added: major('outputs appeared'),
    removed: major('outputs removed'),
    itemAdded: minor('produces a new output (additive)'),
    itemRemoved: major('output removed: consumers reading it break'),
  },
  '/capabilityContract/outputs/*': object('output'),
  '/capabilityContract/outputs/*/kind': leaf(major('output kind changed')),
  '/capabilityContract/outputs/*/mediaType': leaf(major('output media type changed')),
  '/capabilityContract/outputs/*/schema': producedSchema('output'),
  '/capabilityContract/outputs/*/description': leaf(patch('description')),
  '/capabilityContract/skills': {
    walk: 'keyed',
    key: byMember('id'),
    added: major('skills appeared'),
    removed: major('skills removed'),
    itemAdded: minor('skill added (additive)'),
    itemRemoved: major('skill removed: callers of it break'),
  },
  '/capabilityContract/skills/*': object('skill'),
  '/capabilityContract/skills/*/id': leaf(major('skill id changed')),
  '/capabilityContract/skills/*/name': leaf(patch('skill display name')),
  '/capabilityContract/skills/*/description': leaf(patch('description')),
  '/capabilityContract/skills/*/version': nestedVersion('skill'),
  '/capabilityContract/skills/*/tags': {
    walk: 'set',
    added: patch('tags'),
    removed: patch('tags'),
    itemAdded: patch('tag added'),
    itemRemoved: patch('tag removed'),
  },
  '/capabilityContract/skills/*/examples': {
    walk: 'set',
    added: patch('examples'),
    removed: patch('examples'),
    itemAdded: patch('example added'),
    itemRemoved: patch('example removed'),
  },
  '/capabilityContract/skills/*/inputModes': {
    walk: 'set',
    added: major("skill input modes now listed (may narrow the agent's inputs)"),
    removed: major("skill input modes no longer listed (now the agent's inputs)"),
    itemAdded: minor('skill accepts a new input mode (additive)'),
    itemRemoved: major('skill input mode removed: callers sending it break'),
  },
  '/capabilityContract/skills/*/outputModes': {
    walk: 'set',
    added: major("skill output modes now listed (replaces the agent's outputs)"),
    removed: major("skill output modes no longer listed (now the agent's outputs)"),
    itemAdded: minor('skill produces a new output mode (additive)'),
    itemRemoved: major('skill output mode removed: consumers reading it break'),
  },
  '/capabilityContract/skills/*/inputSchema': acceptedSchema('skill input'),
  '/capabilityContract/skills/*/outputSchema': producedSchema('skill output'),
  '/capabilityContract/invariants': {
    walk: 'set',
    added: major('invariants appeared'),
    removed: major('invariants removed'),
    itemAdded: major('invariant added: the evaluation rubric changed (tightening)'),
    itemRemoved: major('invariant removed: a promised postcondition was dropped'),
  },

  '/modelSet': {
    walk: 'keyed',
    key: byMember('role', 'modelId'),
    added: major('model set appeared'),
    removed: major('model set removed'),
    itemAdded: major('model pin added: a different execution path (experiments key on the exact set)'),
    itemRemoved: major('model pin removed: a different execution path'),
  },
  '/modelSet/*': leaf(major('model pin changed: a different model behaviour (experiments key on the exact set)')),

  '/toolInventory': {
    walk: 'keyed',
    key: byMember('id'),
    added: major('tool inventory appeared'),
    removed: major('tool inventory removed'),
    itemAdded: minor('tool added (additive)'),
    itemRemoved: major('tool removed: a capability is gone'),
  },
  '/toolInventory/*': object('tool'),
  '/toolInventory/*/id': leaf(major('tool id changed')),
  '/toolInventory/*/name': leaf(major('tool name changed: the model calls it by name')),
  '/toolInventory/*/version': nestedVersion('tool'),
  '/toolInventory/*/mcpServer': leaf(major('MCP server changed')),
  '/toolInventory/*/mcpTransport': leaf(major('MCP transport changed: the hosts that can run it change')),
  '/toolInventory/*/provenance': leaf(major('tool provenance changed: the sandbox changes')),
  '/toolInventory/*/risk': leaf(major('tool risk changed: the sandbox changes')),
  '/toolInventory/*/description': leaf(patch('description')),
  '/toolInventory/*/inputSchema': acceptedSchema('tool arguments'),
  '/toolInventory/*/endpoints': {
    walk: 'set',
    added: major('tool egress now restricted to listed origins (tightening)'),
    removed: major('tool egress list removed'),
    itemAdded: minor('tool may reach a new origin (additive)'),
    itemRemoved: major('tool origin removed (tightening)'),
  },

  '/composition': object('composition'),
  '/composition/kind': leaf(major('composition kind changed')),
  '/composition/nodes': {
    walk: 'keyed',
    key: byMember('slug'),
    added: minor('composition nodes listed'),
    removed: major('composition nodes removed'),
    itemAdded: minor('child agent added (additive)'),
    itemRemoved: major('child agent removed'),
  },
  '/composition/nodes/*': object('child pin'),
  '/composition/nodes/*/slug': leaf(major('child slug changed')),
  '/composition/nodes/*/version': leaf(major('child pin changed: a different child version')),
  '/composition/edges': {
    walk: 'keyed',
    key: byMember('from', 'to'),
    added: minor('composition edges listed'),
    removed: major('composition edges removed'),
    itemAdded: minor('edge added (additive)'),
    itemRemoved: major('edge removed: a path through the composition is gone'),
  },
  '/composition/edges/*': leaf(major('edge gate or condition changed: routing changes')),
  '/composition/quarantine': leaf(major('context isolation changed')),
  // The router is shown the labels and their descriptions: any change may send a task to another pin.
  '/composition/routing': leaf(major('routing between the pins changed: a task may reach another model')),
  '/composition/evaluation': leaf(major('evaluation policy changed: what a failed answer leads to')),

  '/memoryContract': object('memory contract'),
  '/memoryContract/refs': {
    walk: 'keyed',
    key: byMember('name'),
    added: major('memory references appeared'),
    removed: major('memory references removed'),
    itemAdded: minor('memory added (additive)'),
    itemRemoved: major('memory removed'),
  },
  '/memoryContract/refs/*': object('memory reference'),
  '/memoryContract/refs/*/kind': leaf(major('memory kind changed')),
  '/memoryContract/refs/*/name': leaf(major('memory name changed')),
  '/memoryContract/refs/*/retention': leaf(major('memory retention changed')),
  '/memoryContract/refs/*/egressAllowed': {
    walk: 'leaf',
    added: major('memory egress now stated'),
    removed: major('memory egress no longer stated'),
    changed: (_before, after) =>
      after === true ? minor('memory egress allowed (loosening)') : major('memory egress forbidden (tightening)'),
  },
  '/memoryContract/workingSetTokens': limit('working set'),
  '/memoryContract/contextWindowBudget': limit('context window'),
  '/memoryContract/compactionPolicy': leaf(major('compaction policy changed: what is kept in context changes')),

  '/telemetryContract': object('telemetry contract'),
  '/telemetryContract/receiptSigner': {
    walk: 'leaf',
    added: major('receipt signer appeared'),
    removed: major('receipt signer removed'),
    changed: (before, after) =>
      before === null
        ? minor('receipts are now signed (additive)')
        : after === null
          ? major('receipts are no longer signed')
          : major('receipt signing key changed'),
  },
  '/telemetryContract/receiptSchemaVersion': leaf(major('receipt schema changed: receipt consumers break')),
  '/telemetryContract/telemetryKinds': {
    walk: 'set',
    added: major('telemetry kinds appeared'),
    removed: major('telemetry kinds removed'),
    itemAdded: minor('telemetry stream added (additive)'),
    itemRemoved: major('telemetry stream removed'),
  },
  '/telemetryContract/agenticGate': leaf(major('agentic gate flipped')),
  '/telemetryContract/kymRegistrationRequired': leaf(major('KYM registration requirement changed')),
  '/telemetryContract/collector': {
    walk: 'leaf',
    added: minor('telemetry collector named (its origin joins the egress allow-list)'),
    removed: minor('telemetry collector no longer named'),
    changed: minor('telemetry collector moved'),
  },

  '/runtimeRequirements': object('runtime requirements'),
  '/runtimeRequirements/runtimeCapabilityClass': leaf(major('runtime class changed: the hosts that can run it change')),
  '/runtimeRequirements/limits': object('limits'),
  '/runtimeRequirements/limits/cpuMs': limit('CPU time'),
  '/runtimeRequirements/limits/memoryMb': limit('memory'),
  '/runtimeRequirements/limits/wallClockMs': limit('wall-clock'),
  '/runtimeRequirements/limits/maxSubrequests': limit('subrequest'),
  '/runtimeRequirements/keyCustody': leaf(major('key custody changed')),
  '/runtimeRequirements/bindings': {
    walk: 'keyed',
    key: byMember('name'),
    added: major('bindings appeared'),
    removed: major('bindings removed'),
    itemAdded: major('binding added: every host must now provide it'),
    itemRemoved: minor('binding removed: hosts need provide less'),
  },
  '/runtimeRequirements/bindings/*': leaf(major('binding changed: hosts must provide something else')),

  '/lifecycleState': {
    walk: 'leaf',
    added: major('lifecycle state appeared'),
    removed: major('lifecycle state removed'),
    changed: (before, after) => {
      const from = STAGES.indexOf(String(before));
      const to = STAGES.indexOf(String(after));
      return from >= 0 && to > from ? minor('lifecycle promotion') : major('lifecycle demotion or unknown stage');
    },
  },

  '/metadata': object('metadata'),
  '/metadata/description': leaf(patch('description')),
  '/metadata/tags': {
    walk: 'set',
    added: patch('tags'),
    removed: patch('tags'),
    itemAdded: patch('tag added'),
    itemRemoved: patch('tag removed'),
  },
  '/metadata/provenance': leaf(patch('provenance: where the definition comes from, not what it promises')),
  '/metadata/cardExports': leaf(patch('derived views the compiler regenerates')),
  '/metadata/notes': leaf(patch('free-form notes')),
};

/** What an unclassified field's change requires: major, fail closed. */
export const UNCLASSIFIED: Verdict = major('unclassified field (fail closed)');

/** The rule of a schema path, or undefined when the policy does not classify it. */
export function fieldRule(schemaPath: string): FieldRule | undefined {
  return Object.hasOwn(CHANGE_POLICY, schemaPath) ? CHANGE_POLICY[schemaPath] : undefined;
}
