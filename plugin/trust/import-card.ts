/**
 * Legacy import (docs/decisions/0002-legacy-import.md): an AgentDefinition retrofitted from an
 * existing A2A AgentCard (v0.3 or v1.0), marked `metadata.notes.origin: "legacy"`. What the card
 * says is filled in (name, description, version, provider → owner, skills, default modes → inputs
 * and outputs; url, interfaces, provider, capabilities and security scheme names are kept under
 * `metadata.notes.legacyCard`); what a card cannot say (models, tools, runtime, keys, lifecycle) is
 * a TODO marker `{ "TODO": "<what to fill in>" }` that fails validation exactly there.
 *
 * The guarantee, checked here with the definition layer's own validator: the definition fails
 * validation only at the listed TODO fields. Before returning, every TODO is filled with a valid
 * completion and the whole validator (schema and semantic rules) runs; a card value it rejects
 * becomes a TODO too (or is dropped, for optional list items and notes), and is reported.
 *
 * Pure (the caller passes the two ULIDs), deterministic, and never throws: a card that is not an
 * object gives `ok: false` with findings; anything else gives a definition and a report.
 */
import { createHash } from 'node:crypto';
import type { Finding } from '../definition/diagnostic';
import { escapePointerSegment, getAtPointer, parsePointer } from '../definition/json-pointer';
import { schemaFindings, semanticFindings } from '../definition/validate-definition';
import type { AgentDefinition } from '../schema/generated/agent-definition.types';
import { canonicalize } from '../runtime/jcs';

/** The member a TODO marker has: `{ "TODO": "<what to fill in>" }`. */
export const TODO_MEMBER = 'TODO';

export interface TodoMarker {
  TODO: string;
}

/** A field the owner must complete: where, and what to put there. */
export interface OwnerTask {
  pointer: string;
  what: string;
}

/** Something about the card worth telling: where in the card (JSON Pointer), and what. */
export interface CardFinding {
  pointer: string;
  message: string;
}

export type CardFormat = 'a2a-v1.0' | 'a2a-v0.3' | 'unknown';

export interface ImportCardOptions {
  /** Fresh ULIDs for `identity.id` and `identity.versionId`. */
  ids: { id: string; versionId: string };
  /** The definition's workspace-relative path (`metadata.provenance.filePath`); default `agent.json`. */
  file?: string;
  /** The repository URL (`metadata.provenance.repo`); a TODO when absent. */
  repository?: string;
  /** The agent's slug, instead of the one made from the card's name (a valid slug; the caller checks it). */
  slug?: string;
}

export type CardImport =
  | { ok: true; definition: Record<string, unknown>; format: CardFormat; todo: OwnerTask[]; findings: CardFinding[] }
  | { ok: false; findings: CardFinding[] };

type Json = unknown;
type Obj = Record<string, Json>;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;
const MEDIA_TYPE = /^[a-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+-]+$/;
const OWNER_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** What the owner must fill in, per field, when the card cannot say it. */
const WHAT = {
  signingKeyRef:
    'the key that signs this agent\'s exports, e.g. "keyref:acme-agents" (create it with `agentdef keys generate keyref:<name>`)',
  ownerKind: 'who owns the agent: "user", "team", "org" or "service" (the card names no provider)',
  ownerId: "the owner's id (letters, digits, '.', '_', '-'); the card names no provider",
  slug: "the agent's kebab-case slug (the card's name gives none)",
  name: "the agent's display name (the card has no usable name)",
  version: 'an exact semantic version such as 1.0.0 (the card has no exact version)',
  skillVersion: "the skill's exact version (the card has no exact version)",
  description: 'what the agent is for (the card has no usable description)',
  inputs:
    'the A2A parts the agent accepts, e.g. [{"kind":"text","mediaType":"text/plain"}] (the card lists no usable input mode)',
  outputs:
    'the A2A parts the agent produces, e.g. [{"kind":"text","mediaType":"text/plain"}] (the card lists no usable output mode)',
  skills: 'at least one skill {id, name, description, version, tags} (the card lists no usable skill)',
  skillTags: 'at least one keyword describing the skill, e.g. ["summarise"] (the card lists no usable tag)',
  skillMember: (member: string) => `the skill's ${member} (the card's is missing or unusable)`,
  modelSet: 'the pinned models in the execution path (LlmPin[]), or [] for a tool: an A2A card does not say',
  toolInventory: 'the tools the agent calls (ToolRef[]), or []: an A2A card does not say',
  receiptSigner: 'the receipt signing key reference (usually identity.signingKeyRef), or null at tool-prototype',
  agenticGate: '"agentic" when modelSet pins a model, "tool-only" when it is empty',
  kymRegistrationRequired: 'true exactly when agenticGate is "agentic"',
  runtimeCapabilityClass:
    '"workers-only", "workers-preferred", "container-required" or "local-host-required": an A2A card does not say',
  keyCustody: '"session", "vault-ref" or "secrets-store": where the agent\'s keys are held',
  lifecycleState:
    'the lifecycle stage the agent is at (tool-prototype … marketplace-published): an A2A card does not say',
  repo: "the repository URL the definition lives in (the workspace's package.json names none)",
  rejected: (message: string) => `a value the validator accepts (the card's was rejected: ${message})`,
} as const;

const isObj = (value: Json): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A card string that is usable text: a string, no lone surrogates, within `max` characters after trimming. */
function cardText(value: Json, max: number): string | undefined {
  if (typeof value !== 'string' || LONE_SURROGATE.test(value)) return undefined;
  const trimmed = value.trim();
  return trimmed.length >= 1 && trimmed.length <= max ? trimmed : undefined;
}

const marker = (what: string): TodoMarker => ({ [TODO_MEMBER]: what }) as TodoMarker;

/** Whether a value is a TODO marker. */
export function isTodoMarker(value: Json): value is TodoMarker {
  return isObj(value) && Object.keys(value).length === 1 && typeof value[TODO_MEMBER] === 'string';
}

/** The pointers of every TODO marker in a value, in document order. */
export function findTodoMarkers(value: Json, pointer = ''): string[] {
  if (isTodoMarker(value)) return [pointer];
  if (Array.isArray(value)) return value.flatMap((item, i) => findTodoMarkers(item, `${pointer}/${i}`));
  if (isObj(value))
    return Object.keys(value).flatMap((key) => findTodoMarkers(value[key], `${pointer}/${escapePointerSegment(key)}`));
  return [];
}

function detectFormat(card: Obj): CardFormat {
  const protocol = typeof card.protocolVersion === 'string' ? card.protocolVersion : undefined;
  if (Array.isArray(card.supportedInterfaces) || protocol?.startsWith('1.')) return 'a2a-v1.0';
  if (
    typeof card.url === 'string' ||
    card.preferredTransport !== undefined ||
    card.additionalInterfaces !== undefined ||
    protocol?.startsWith('0.')
  )
    return 'a2a-v0.3';
  return 'unknown';
}

const REQUIRED: Record<Exclude<CardFormat, 'unknown'>, readonly string[]> = {
  'a2a-v1.0': [
    'name',
    'description',
    'supportedInterfaces',
    'version',
    'capabilities',
    'defaultInputModes',
    'defaultOutputModes',
    'skills',
  ],
  'a2a-v0.3': [
    'name',
    'description',
    'url',
    'version',
    'capabilities',
    'defaultInputModes',
    'defaultOutputModes',
    'skills',
    'protocolVersion',
  ],
};

function slugOf(name: string): string | undefined {
  const slug = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, 64)
    .replace(/-+$/, '');
  return slug === '' ? undefined : slug;
}

function ownerIdOf(organization: string): string | undefined {
  const id = organization
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 128);
  return OWNER_ID.test(id) ? id : undefined;
}

/** A2A media type → A2A part kind. */
function partKind(mediaType: string): 'text' | 'data' | 'file' {
  if (mediaType.startsWith('text/')) return 'text';
  if (mediaType === 'application/json' || mediaType.endsWith('+json')) return 'data';
  return 'file';
}

/** Builds the draft and its report; the validator check runs afterwards. */
class DraftBuilder {
  readonly findings: CardFinding[] = [];
  readonly todo: OwnerTask[] = [];

  constructor(readonly card: Obj) {}

  note(pointer: string, message: string): void {
    this.findings.push({ pointer, message });
  }

  /** A TODO marker for the field at `pointer`, listed. */
  todoAt(pointer: string, what: string): TodoMarker {
    this.todo.push({ pointer, what });
    return marker(what);
  }

  /** The strings of a card list that are usable text within `max`, each rejected one reported. */
  textList(value: Json, pointer: string, max: number, what: string): string[] | undefined {
    if (value === undefined) return undefined;
    if (!Array.isArray(value)) {
      this.note(pointer, `${what} is not a list; ignored`);
      return undefined;
    }
    const kept: string[] = [];
    value.forEach((item, i) => {
      const text = cardText(item, max);
      if (text === undefined) this.note(`${pointer}/${i}`, `${what} entry is not text of 1-${max} characters; dropped`);
      else if (!kept.includes(text)) kept.push(text);
    });
    return kept;
  }

  /** The A2A parts of a card's default mode list. */
  parts(member: 'defaultInputModes' | 'defaultOutputModes', target: string, what: string): Json {
    const modes = this.textList(this.card[member], `/${member}`, 128, member) ?? [];
    const parts: Obj[] = [];
    for (const mode of modes) {
      const mediaType = (mode.split(';')[0] ?? '').trim();
      if (!MEDIA_TYPE.test(mediaType)) {
        this.note(`/${member}`, `"${mediaType}" is not a media type (type/subtype); dropped`);
        continue;
      }
      if (!parts.some((p) => p.mediaType === mediaType)) parts.push({ kind: partKind(mediaType), mediaType });
    }
    return parts.length > 0 ? parts : this.todoAt(target, what);
  }

  /** One card skill (`cardIndex` in the card) as the definition's skill number `index`. */
  skill(raw: Json, cardIndex: number, index: number, version: string | undefined): Json {
    const at = `/skills/${cardIndex}`;
    const target = `/capabilityContract/skills/${index}`;
    if (!isObj(raw)) {
      this.note(at, 'skill is not an object; dropped');
      return undefined;
    }
    const member = (name: string, max: number): Json => {
      const text = cardText(raw[name], max);
      if (text !== undefined) return text;
      this.note(`${at}/${name}`, `skill ${name} is missing or not text of 1-${max} characters`);
      return this.todoAt(`${target}/${name}`, WHAT.skillMember(name));
    };
    const skill: Obj = {
      id: member('id', 128),
      name: member('name', 200),
      description: member('description', 4000),
      version: version ?? this.todoAt(`${target}/version`, WHAT.skillVersion),
      tags: [],
    };
    // A2A's AgentSkill holds at least one tag, and so does a definition's skill (it serialises to one).
    const tags = this.textList(raw.tags, `${at}/tags`, 64, 'skill tag');
    if (raw.tags === undefined) this.note(`${at}/tags`, 'skill has no tags (A2A requires at least one)');
    skill.tags = tags !== undefined && tags.length > 0 ? tags : this.todoAt(`${target}/tags`, WHAT.skillTags);
    const examples = this.textList(raw.examples, `${at}/examples`, 256, 'skill example');
    if (examples && examples.length > 0) skill.examples = examples;
    for (const modes of ['inputModes', 'outputModes'] as const) {
      const list = this.textList(raw[modes], `${at}/${modes}`, 128, `skill ${modes}`);
      if (list && list.length > 0) skill[modes] = list;
    }
    return skill;
  }

  skills(version: string | undefined): Json {
    const raw = this.card.skills;
    if (!Array.isArray(raw)) return this.todoAt('/capabilityContract/skills', WHAT.skills);
    const skills: Json[] = [];
    raw.forEach((item, i) => {
      const skill = this.skill(item, i, skills.length, version);
      if (skill !== undefined) skills.push(skill);
    });
    return skills.length > 0 ? skills : this.todoAt('/capabilityContract/skills', WHAT.skills);
  }

  /** What the card says that the definition has no field for, kept for the owner and for tracing. */
  legacyCard(format: CardFormat): Obj {
    const card = this.card;
    const legacy: Obj = { format };
    const protocol = cardText(card.protocolVersion, 64);
    if (protocol) legacy.protocolVersion = protocol;
    const interfaces: Obj[] = [];
    const addInterface = (value: Json, bindingMember: string) => {
      if (!isObj(value)) return;
      const url = cardText(value.url, 2048);
      if (url === undefined) return;
      const entry: Obj = { url };
      const binding = cardText(value[bindingMember], 64);
      if (binding) entry.protocolBinding = binding;
      const version = cardText(value.protocolVersion, 64);
      if (version) entry.protocolVersion = version;
      if (!interfaces.some((i) => i.url === url && i.protocolBinding === entry.protocolBinding)) interfaces.push(entry);
    };
    if (Array.isArray(card.supportedInterfaces))
      for (const item of card.supportedInterfaces) addInterface(item, 'protocolBinding');
    if (typeof card.url === 'string')
      addInterface({ url: card.url, transport: card.preferredTransport ?? 'JSONRPC' }, 'transport');
    if (Array.isArray(card.additionalInterfaces))
      for (const item of card.additionalInterfaces) addInterface(item, 'transport');
    if (interfaces.length > 0) legacy.interfaces = interfaces;
    if (isObj(card.provider)) {
      const provider: Obj = {};
      const organization = cardText(card.provider.organization, 200);
      const url = cardText(card.provider.url, 2048);
      if (organization) provider.organization = organization;
      if (url) provider.url = url;
      if (Object.keys(provider).length > 0) legacy.provider = provider;
    }
    for (const name of ['iconUrl', 'documentationUrl'] as const) {
      const url = cardText(card[name], 2048);
      if (url) legacy[name] = url;
    }
    if (isObj(card.capabilities)) {
      const capabilities: Obj = {};
      for (const name of ['streaming', 'pushNotifications', 'extendedAgentCard', 'stateTransitionHistory']) {
        if (typeof card.capabilities[name] === 'boolean') capabilities[name] = card.capabilities[name];
      }
      if (card.supportsAuthenticatedExtendedCard === true) capabilities.extendedAgentCard = true;
      legacy.capabilities = capabilities;
    }
    if (isObj(card.securitySchemes)) {
      const names = Object.keys(card.securitySchemes)
        .map((n) => cardText(n, 128))
        .filter((n): n is string => n !== undefined)
        .sort();
      if (names.length > 0) legacy.securitySchemes = names;
    }
    if (Array.isArray(card.signatures) && card.signatures.length > 0) {
      legacy.signatures = card.signatures.length;
      this.note(
        '/signatures',
        "the card's signatures do not carry over: the definition's exports are signed again at publish",
      );
    }
    try {
      legacy.sha256 = createHash('sha256').update(canonicalize(card), 'utf8').digest('hex');
    } catch {
      this.note('', 'the card has no RFC 8785 form (e.g. a lone surrogate), so no digest of it is kept');
    }
    return legacy;
  }

  build(options: ImportCardOptions): { definition: Obj; format: CardFormat } {
    const card = this.card;
    const format = detectFormat(card);
    if (format === 'unknown')
      this.note('', 'neither an A2A v1.0 card (supportedInterfaces) nor a v0.3 card (url, protocolVersion 0.x)');
    else {
      for (const name of REQUIRED[format])
        if (card[name] === undefined)
          this.note(`/${name}`, `${name} is required in ${format} but missing (not conformant)`);
      if (format === 'a2a-v1.0' && card.protocolVersion !== undefined)
        this.note(
          '/protocolVersion',
          'a v1.0 card states protocolVersion per interface, not at the top (not conformant)',
        );
      if (format === 'a2a-v1.0' && Array.isArray(card.supportedInterfaces)) {
        card.supportedInterfaces.forEach((item, i) => {
          for (const name of ['url', 'protocolBinding', 'protocolVersion'])
            if (!isObj(item) || item[name] === undefined)
              this.note(
                `/supportedInterfaces/${i}/${name}`,
                `${name} is required in a v1.0 interface but missing (not conformant)`,
              );
        });
      }
    }

    const name = cardText(card.name, 200);
    if (name === undefined) this.note('/name', 'name is missing or not text of 1-200 characters');
    const slug = options.slug ?? (name === undefined ? undefined : slugOf(name));
    const rawVersion = cardText(card.version, 128);
    const version = rawVersion !== undefined && SEMVER.test(rawVersion) ? rawVersion : undefined;
    if (version === undefined) this.note('/version', 'version is missing or not an exact semantic version');
    const description = cardText(card.description, 4000);
    if (description === undefined) this.note('/description', 'description is missing or not text of 1-4000 characters');
    const organization = isObj(card.provider) ? cardText(card.provider.organization, 200) : undefined;
    const ownerId = organization === undefined ? undefined : ownerIdOf(organization);

    const identity: Obj = {
      id: options.ids.id,
      slug: slug ?? this.todoAt('/identity/slug', WHAT.slug),
      name: name ?? this.todoAt('/identity/name', WHAT.name),
      versionSemver: version ?? this.todoAt('/identity/versionSemver', WHAT.version),
      versionId: options.ids.versionId,
      owner:
        ownerId !== undefined
          ? { kind: 'org', id: ownerId }
          : {
              kind: this.todoAt('/identity/owner/kind', WHAT.ownerKind),
              id: this.todoAt('/identity/owner/id', WHAT.ownerId),
            },
      signingKeyRef: this.todoAt('/identity/signingKeyRef', WHAT.signingKeyRef),
    };
    const capabilityContract: Obj = {
      inputs: this.parts('defaultInputModes', '/capabilityContract/inputs', WHAT.inputs),
      outputs: this.parts('defaultOutputModes', '/capabilityContract/outputs', WHAT.outputs),
      skills: this.skills(version),
      invariants: [],
    };
    const repository = options.repository === undefined ? undefined : cardText(options.repository, 1024);
    const definition: Obj = {
      schemaVersion: 'agent-definition/v1',
      identity,
      capabilityContract,
      modelSet: this.todoAt('/modelSet', WHAT.modelSet),
      toolInventory: this.todoAt('/toolInventory', WHAT.toolInventory),
      composition: { kind: 'leaf' },
      memoryContract: { refs: [] },
      telemetryContract: {
        receiptSigner: this.todoAt('/telemetryContract/receiptSigner', WHAT.receiptSigner),
        receiptSchemaVersion: 'receipt/v1',
        telemetryKinds: ['events'],
        agenticGate: this.todoAt('/telemetryContract/agenticGate', WHAT.agenticGate),
        kymRegistrationRequired: this.todoAt(
          '/telemetryContract/kymRegistrationRequired',
          WHAT.kymRegistrationRequired,
        ),
      },
      runtimeRequirements: {
        runtimeCapabilityClass: this.todoAt('/runtimeRequirements/runtimeCapabilityClass', WHAT.runtimeCapabilityClass),
        limits: {},
        keyCustody: this.todoAt('/runtimeRequirements/keyCustody', WHAT.keyCustody),
        bindings: [],
      },
      lifecycleState: this.todoAt('/lifecycleState', WHAT.lifecycleState),
      metadata: {
        description: description ?? this.todoAt('/metadata/description', WHAT.description),
        tags: ['legacy'],
        provenance: {
          repo: repository ?? this.todoAt('/metadata/provenance/repo', WHAT.repo),
          filePath: options.file ?? 'agent.json',
        },
        notes: { origin: 'legacy', legacyCard: this.legacyCard(format) },
      },
    };
    return { definition, format };
  }
}

/** A valid value for each TODO field, used only to run the whole validator over the rest. */
function completion(pointer: string): Json {
  const last = parsePointer(pointer).at(-1) ?? '';
  const skillIndex = /^\/capabilityContract\/skills\/(\d+)\//.exec(pointer)?.[1];
  const inPart = /^\/capabilityContract\/(?:inputs|outputs)\/\d+\//.test(pointer);
  const byField: Record<string, Json> = {
    signingKeyRef: 'keyref:import-check',
    kind: inPart ? 'text' : 'org',
    mediaType: 'text/plain',
    filePath: 'agent.json',
    tags: ['import-check'],
    id: skillIndex !== undefined ? `import-check-${skillIndex}` : 'import-check',
    slug: 'import-check',
    name: 'Import check',
    versionSemver: '0.0.0',
    version: '0.0.0',
    description: 'Import check.',
    inputs: [{ kind: 'text', mediaType: 'text/plain' }],
    outputs: [{ kind: 'text', mediaType: 'text/plain' }],
    skills: [
      {
        id: 'import-check',
        name: 'Import check',
        description: 'Import check.',
        version: '0.0.0',
        tags: ['import-check'],
      },
    ],
    modelSet: [],
    toolInventory: [],
    receiptSigner: null,
    agenticGate: 'tool-only',
    kymRegistrationRequired: false,
    runtimeCapabilityClass: 'workers-preferred',
    keyCustody: 'session',
    lifecycleState: 'tool-prototype',
    repo: 'https://example.invalid/import-check',
  };
  return Object.hasOwn(byField, last) ? byField[last] : null;
}

/** Sets the value at `pointer` (its parent exists); `undefined` deletes a member or splices an item. */
function setAt(root: Obj, pointer: string, value: Json): boolean {
  const segments = parsePointer(pointer);
  const last = segments.pop();
  if (last === undefined) return false;
  const parent = getAtPointer(root, segments.length === 0 ? '' : `/${segments.map(escapePointerSegment).join('/')}`);
  if (Array.isArray(parent)) {
    const index = Number(last);
    if (!Number.isInteger(index) || index < 0 || index >= parent.length) return false;
    if (value === undefined) parent.splice(index, 1);
    else parent[index] = value;
    return true;
  }
  if (!isObj(parent)) return false;
  if (value === undefined) delete parent[last];
  else parent[last] = value;
  return true;
}

const isUnder = (pointer: string, base: string): boolean => pointer === base || pointer.startsWith(`${base}/`);

/** Optional list items a rejected value may simply be dropped from. */
const DROPPABLE_ITEM =
  /^(?:\/capabilityContract\/skills\/\d+\/(?:tags|examples|inputModes|outputModes)|\/metadata\/tags)\/\d+/;
const LEGACY_NOTE = /^\/metadata\/notes\/legacyCard\/[^/]+/;

/**
 * Runs the whole validator over the draft with every TODO completed, and turns each value it
 * rejects into a TODO (or drops it) until nothing outside the TODO fields is rejected.
 */
function settle(builder: DraftBuilder, definition: Obj): boolean {
  // Each round removes or replaces at least one card value, so the rounds are bounded by the card.
  for (let round = 0; round < 10_000; round++) {
    const completed = structuredClone(definition);
    for (const task of builder.todo) setAt(completed, task.pointer, completion(task.pointer));
    const schema = schemaFindings(completed);
    const findings: Finding[] = schema.length > 0 ? schema : semanticFindings(completed as unknown as AgentDefinition);
    const outside = findings.find((f) => !builder.todo.some((t) => isUnder(f.path, t.pointer)));
    // Done when the completed draft passes everything: the schema (so the rules ran) and every rule.
    if (outside === undefined) return findings.length === 0;
    if (!repair(builder, definition, outside)) return false;
  }
  return false;
}

function repair(builder: DraftBuilder, definition: Obj, finding: Finding): boolean {
  const note = LEGACY_NOTE.exec(finding.path)?.[0];
  if (note !== undefined) {
    builder.note('', `${note.slice('/metadata/notes/legacyCard/'.length)} not kept in the notes: ${finding.message}`);
    return setAt(definition, note, undefined);
  }
  const item = DROPPABLE_ITEM.exec(finding.path)?.[0];
  if (item !== undefined) {
    builder.note('', `${item} dropped: ${finding.message}`);
    return setAt(definition, item, undefined);
  }
  // Replace the rejected value (or, when it does not exist, the nearest existing container) by a TODO.
  let pointer = finding.path;
  while (pointer !== '' && getAtPointer(definition, pointer) === undefined)
    pointer = pointer.slice(0, pointer.lastIndexOf('/'));
  if (pointer === '' || isTodoMarker(getAtPointer(definition, pointer))) return false;
  builder.todo.push({ pointer, what: WHAT.rejected(finding.message) });
  builder.todo.splice(
    0,
    builder.todo.length,
    ...builder.todo.filter((t) => t.pointer === pointer || !isUnder(t.pointer, pointer)),
  );
  return setAt(definition, pointer, marker(WHAT.rejected(finding.message)));
}

/** Imports one A2A card (any JSON value); never throws. */
export function importCard(card: unknown, options: ImportCardOptions): CardImport {
  try {
    if (!isObj(card)) {
      const found = card === null ? 'null' : Array.isArray(card) ? 'an array' : `a ${typeof card}`;
      return {
        ok: false,
        findings: [{ pointer: '', message: `an A2A AgentCard is a JSON object, but this is ${found}` }],
      };
    }
    const builder = new DraftBuilder(card);
    const { definition, format } = builder.build(options);
    if (!settle(builder, definition)) {
      return {
        ok: false,
        findings: [
          ...builder.findings,
          { pointer: '', message: 'the card could not be turned into a definition that fails only at its TODO fields' },
        ],
      };
    }
    const order = findTodoMarkers(definition);
    const todo = [...builder.todo].sort((a, b) => order.indexOf(a.pointer) - order.indexOf(b.pointer));
    return { ok: true, definition, format, todo, findings: builder.findings };
  } catch (error) {
    return {
      ok: false,
      findings: [{ pointer: '', message: `the card could not be imported (${(error as Error).message})` }],
    };
  }
}

/** The report a person reads: the fields to complete, then what was noticed about the card. */
export function formatImportReport(result: CardImport, cardName: string): string {
  const lines: string[] = [];
  if (result.ok) {
    lines.push(
      `imported ${cardName} (${result.format}); ${result.todo.length} field${result.todo.length === 1 ? '' : 's'} to complete (each holds {"TODO": …} and fails validation until filled in):`,
    );
    for (const task of result.todo) lines.push(`  ${task.pointer}: ${task.what}`);
  } else {
    lines.push(`could not import ${cardName}:`);
  }
  if (result.findings.length > 0) {
    lines.push(`about the card (${result.findings.length}):`);
    for (const finding of result.findings) lines.push(`  ${finding.pointer || '/'}: ${finding.message}`);
  }
  return `${lines.join('\n')}\n`;
}
