/**
 * The little graph inference needs from a definition: its slug and id (each with where it
 * stands, for duplicate reports), version, the two fields its tags name, and the children it pins
 * (each with the line that pins it). Read with the
 * definition layer's parser (the same one `validate` uses, so both agree on what a file says),
 * but never validated here: an invalid file still yields whatever it states plainly, and a file
 * that does not parse at all yields an empty summary. The positions of a JSON file come from a
 * scan of the few paths they need (json-value-offsets.ts), not from the position-keeping parse.
 * Pure; never throws.
 */
import { definitionFormat, type DefinitionFormat } from '../definition/parse-document';
import { field, parseForSummary, word } from './summary-fields';
import { joinPointer } from '../definition/json-pointer';
import { lineIndex, type PositionAt } from '../definition/read-source';
import type { SourceDocument, SourcePosition } from '../definition/source-document';
import { jsonValueOffsets, type ValuePath } from './json-value-offsets';
import { SLUG_PATTERN } from '../definition/workspace-definitions';

export interface PinSummary {
  slug: string;
  version: string;
  /** 1-based line of the pin (`composition.nodes[i]`) in the definition file. */
  line: number;
}

export interface AgentSummary {
  /** Present when the definition states a well-formed slug. */
  slug?: string;
  /** Where `identity.slug` stands, when the slug is present. */
  slugAt?: SourcePosition;
  /** Present when the definition states a well-formed `identity.id`. */
  id?: string;
  /** Where `identity.id` stands, when the id is present. */
  idAt?: SourcePosition;
  /** Present when the definition states a version string. */
  versionSemver?: string;
  runtimeCapabilityClass?: string;
  lifecycleState?: string;
  /** Well-formed `composition.nodes` entries, in file order. */
  pins: PinSummary[];
  /** The ids of `toolInventory` (their implementations are compile inputs). */
  toolIds?: string[];
  /** False when the text could not be parsed at all. */
  parsed: boolean;
}

export function summarizeDefinition(
  text: string,
  file: string,
  format: DefinitionFormat = definitionFormat(file) ?? 'json',
): AgentSummary {
  const document = parseForSummary(text, file, format);
  if (!document) return { pins: [], parsed: false };

  const root = document.value;
  const identity = field(root, 'identity');
  const summary: AgentSummary = { pins: [], parsed: true };
  const locate = locator(document);
  const slug = word(field(identity, 'slug'), SLUG_PATTERN);
  if (slug !== undefined) {
    summary.slug = slug;
    summary.slugAt = locate('/identity/slug');
  }
  const id = word(field(identity, 'id'));
  if (id !== undefined) {
    summary.id = id;
    summary.idAt = locate('/identity/id');
  }
  const version = word(field(identity, 'versionSemver'));
  if (version !== undefined) summary.versionSemver = version;
  const runtimeClass = word(field(field(root, 'runtimeRequirements'), 'runtimeCapabilityClass'));
  if (runtimeClass !== undefined) summary.runtimeCapabilityClass = runtimeClass;
  const lifecycle = word(field(root, 'lifecycleState'));
  if (lifecycle !== undefined) summary.lifecycleState = lifecycle;

  const nodes = field(field(root, 'composition'), 'nodes');
  if (Array.isArray(nodes)) {
    nodes.forEach((node, index) => {
      const pinSlug = word(field(node, 'slug'), SLUG_PATTERN);
      const pinVersion = word(field(node, 'version'));
      if (pinSlug === undefined || pinVersion === undefined) return;
      const { line } = locate(joinPointer('/composition/nodes', index));
      summary.pins.push({ slug: pinSlug, version: pinVersion, line });
    });
  }
  const tools = field(root, 'toolInventory');
  if (Array.isArray(tools)) {
    const ids = tools.map((tool) => field(tool, 'id')).filter((id): id is string => typeof id === 'string');
    if (ids.length > 0) summary.toolIds = ids;
  }
  return summary;
}

/** The paths a summary locates. */
const LOCATED_PATHS: readonly ValuePath[] = [
  ['identity', 'slug'],
  ['identity', 'id'],
  ['composition', 'nodes', '*'],
];

/**
 * `document.locate` for the summary's paths. For JSON, one scan finds them all (the parse that
 * keeps positions runs only if the scan cannot follow the text); YAML documents come with their
 * positions already.
 */
function locator(document: SourceDocument): (pointer: string) => SourcePosition {
  const offsets = document.format === 'json' ? jsonValueOffsets(document.text, LOCATED_PATHS) : undefined;
  if (offsets === undefined) return (pointer) => document.locate(pointer);
  let positions: PositionAt | undefined;
  return (pointer) => {
    const offset = offsets.get(pointer);
    if (offset === undefined) return document.locate(pointer);
    positions ??= lineIndex(document.text);
    return positions(offset);
  };
}

const isPosition = (value: unknown): value is SourcePosition =>
  Number.isSafeInteger(field(value, 'line')) &&
  (field(value, 'line') as number) >= 1 &&
  Number.isSafeInteger(field(value, 'column')) &&
  (field(value, 'column') as number) >= 1;

/**
 * `value` as an AgentSummary when it has exactly the shape {@link summarizeDefinition} gives
 * (every field well-formed, as that function would have read it), else undefined. For summaries
 * read back from the inference cache: a cache file is data anyone can write, so nothing in it is
 * trusted until checked. Copies what it keeps (own data properties only); never throws.
 */
export function checkedAgentSummary(value: unknown): AgentSummary | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const parsed = field(value, 'parsed');
  const pins = field(value, 'pins');
  if (typeof parsed !== 'boolean' || !Array.isArray(pins)) return undefined;
  const summary: AgentSummary = { pins: [], parsed };
  for (const pin of pins) {
    const slug = word(field(pin, 'slug'), SLUG_PATTERN);
    const version = word(field(pin, 'version'));
    const line = field(pin, 'line');
    if (slug === undefined || version === undefined || !Number.isSafeInteger(line) || (line as number) < 1)
      return undefined;
    summary.pins.push({ slug, version, line: line as number });
  }
  const known = new Set([
    'parsed',
    'pins',
    'slug',
    'slugAt',
    'id',
    'idAt',
    'versionSemver',
    'runtimeCapabilityClass',
    'lifecycleState',
    'toolIds',
  ]);
  for (const key of Object.keys(value)) if (!known.has(key)) return undefined;
  // A name and where it stands come together, or not at all.
  for (const [name, at, pattern] of [
    ['slug', 'slugAt', SLUG_PATTERN],
    ['id', 'idAt', undefined],
  ] as const) {
    const stated = field(value, name);
    const position = field(value, at);
    if (stated === undefined && position === undefined) continue;
    const checked = word(stated, pattern);
    if (checked === undefined || !isPosition(position)) return undefined;
    summary[name] = checked;
    summary[at] = { line: position.line, column: position.column };
  }
  for (const name of ['versionSemver', 'runtimeCapabilityClass', 'lifecycleState'] as const) {
    const stated = field(value, name);
    if (stated === undefined) continue;
    const checked = word(stated);
    if (checked === undefined) return undefined;
    summary[name] = checked;
  }
  const toolIds = field(value, 'toolIds');
  if (toolIds !== undefined) {
    if (!Array.isArray(toolIds) || toolIds.length === 0 || !toolIds.every((id) => typeof id === 'string'))
      return undefined;
    summary.toolIds = [...(toolIds as string[])];
  }
  if (!parsed && (summary.pins.length > 0 || Object.keys(summary).length > 2)) return undefined;
  return summary;
}
