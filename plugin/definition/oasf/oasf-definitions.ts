/**
 * The OASF definitions agentdef validates records against, read from the unedited copy in
 * ./definitions (SOURCES.md there names the upstream commit): the schema version a record states,
 * the dictionary (attribute types), the object definitions the record uses, and the skill, domain
 * and module taxonomies with their numeric ids and name paths.
 *
 * Ids and names are derived as the OASF server derives them (server/lib/schema/cache.ex and
 * utils.ex at the copied commit): a class's id is its parent's id times 100 plus its own `uid`,
 * where a parent without a `uid` (the base classes) is skipped; its name is the chain of the
 * classes it extends, base classes left out, joined with `/` (`language_processing/
 * language_generation/summarization` is 10302). Read once per process, synchronously.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type OasfFamily = 'skill' | 'domain' | 'module';

/** One attribute of an object or class definition (requirement, and what the dictionary names). */
export interface OasfAttributeDefinition {
  requirement?: 'required' | 'recommended' | 'optional';
  reference?: string;
  enum?: Record<string, unknown>;
}

export interface OasfObjectDefinition {
  name: string;
  extends?: string;
  attributes: Record<string, OasfAttributeDefinition>;
  constraints?: { at_least_one?: string[]; just_one?: string[] };
}

export interface OasfDictionaryAttribute {
  type: string;
  is_array?: boolean;
  class_type?: string;
  family?: string;
}

export interface OasfDataType {
  type?: string;
  regex?: string;
  max_len?: number;
  range?: [number, number];
  values?: unknown[];
}

/** One taxonomy entry: a class of the skill, domain or module family. */
export interface OasfTaxonomyEntry {
  id: number;
  name: string;
  caption: string;
  /** The class's own name (the last segment of `name`). */
  key: string;
  category: boolean;
  /** The class definition as read (modules: its `data` attribute names the data object). */
  definition: OasfObjectDefinition;
}

export interface OasfTaxonomy {
  family: OasfFamily;
  entries: readonly OasfTaxonomyEntry[];
  byId: ReadonlyMap<number, OasfTaxonomyEntry>;
  byName: ReadonlyMap<string, OasfTaxonomyEntry>;
  /** Every class definition of the family by its own name, the base class (base_skill, ...) included. */
  classes: ReadonlyMap<string, OasfObjectDefinition>;
}

export interface OasfDefinitions {
  /** `schema/version.json`: what a record states as `schema_version`. */
  schemaVersion: string;
  dictionary: ReadonlyMap<string, OasfDictionaryAttribute>;
  types: ReadonlyMap<string, OasfDataType>;
  objects: ReadonlyMap<string, OasfObjectDefinition>;
  skills: OasfTaxonomy;
  domains: OasfTaxonomy;
  modules: OasfTaxonomy;
}

/** Where the unedited copy lives (shipped with the package: the build copies every .json under plugin/). */
export const OASF_DEFINITIONS_DIR = join(__dirname, 'definitions', 'schema');

const FAMILY_FOLDERS: Record<OasfFamily, { folder: string; base: string }> = {
  skill: { folder: 'skills', base: 'base_skill' },
  domain: { folder: 'domains', base: 'base_domain' },
  module: { folder: 'modules', base: 'base_module' },
};

/** The objects a record reaches (record → locators, modules → descriptor, A2A and MCP data). */
const RECORD_OBJECTS = [
  'object',
  'record',
  'locator',
  'descriptor',
  'a2a_data',
  'mcp_data',
  'mcp_server_connection',
  'mcp_server_tool',
  'env_var',
] as const;

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8'));
}

function jsonFilesUnder(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...jsonFilesUnder(path));
    else if (entry.name.endsWith('.json')) found.push(path);
  }
  return found;
}

interface RawClass extends OasfObjectDefinition {
  uid?: number;
  caption?: string;
  category?: boolean;
}

function readTaxonomy(root: string, family: OasfFamily): OasfTaxonomy {
  const { folder, base } = FAMILY_FOLDERS[family];
  const classes = new Map<string, RawClass>();
  for (const file of jsonFilesUnder(join(root, folder))) {
    const raw = readJson(file) as RawClass;
    classes.set(raw.name, raw);
  }
  const idOf = (name: string): number => {
    const own = classes.get(name);
    if (own === undefined) return 0;
    let parent = own.extends;
    while (parent !== undefined && classes.get(parent) !== undefined && classes.get(parent)?.uid === undefined)
      parent = classes.get(parent)?.extends;
    const parentId = parent !== undefined && classes.has(parent) ? idOf(parent) : 0;
    return parentId * 100 + (own.uid ?? 0);
  };
  const pathOf = (name: string): string => {
    const parts = [name];
    let current = classes.get(name);
    while (current?.extends !== undefined && current.extends !== base && classes.has(current.extends)) {
      parts.unshift(current.extends);
      current = classes.get(current.extends);
    }
    return parts.join('/');
  };
  const entries: OasfTaxonomyEntry[] = [];
  for (const [name, raw] of classes) {
    if (name === base || raw.uid === undefined) continue;
    entries.push({
      id: idOf(name),
      name: pathOf(name),
      caption: raw.caption ?? name,
      key: name,
      category: raw.category === true,
      definition: raw,
    });
  }
  entries.sort((a, b) => a.id - b.id);
  return {
    family,
    entries,
    byId: new Map(entries.map((e) => [e.id, e])),
    byName: new Map(entries.map((e) => [e.name, e])),
    classes,
  };
}

/** Reads the definitions under `root` (default: the shipped copy). */
export function readOasfDefinitions(root: string = OASF_DEFINITIONS_DIR): OasfDefinitions {
  const dictionary = readJson(join(root, 'dictionary.json')) as {
    attributes: Record<string, OasfDictionaryAttribute>;
    types: { attributes: Record<string, OasfDataType> };
  };
  const objects = new Map<string, OasfObjectDefinition>();
  for (const name of RECORD_OBJECTS)
    objects.set(name, readJson(join(root, 'objects', `${name}.json`)) as OasfObjectDefinition);
  return {
    schemaVersion: (readJson(join(root, 'version.json')) as { version: string }).version,
    dictionary: new Map(Object.entries(dictionary.attributes)),
    types: new Map(Object.entries(dictionary.types.attributes)),
    objects,
    skills: readTaxonomy(root, 'skill'),
    domains: readTaxonomy(root, 'domain'),
    modules: readTaxonomy(root, 'module'),
  };
}

let shipped: OasfDefinitions | undefined;

/** The shipped definitions, read on first use. */
export function oasfDefinitions(): OasfDefinitions {
  shipped ??= readOasfDefinitions();
  return shipped;
}
