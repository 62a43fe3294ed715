/**
 * How an AgentDefinition's skills and tags become OASF skills and domains
 * (docs/decisions/0011-oasf-mapping.md):
 *
 * 1. An explicit choice wins: a skill tag `oasf:skill/<name path or id>` (the OASF skill's name,
 *    e.g. `oasf:skill/language_processing/language_generation/summarization`, or its id,
 *    `oasf:skill/10302`, for paths longer than a tag may be) names that skill; a tag
 *    `oasf:domain/<name path or id>` in `metadata.tags` or a skill's tags names a domain. A named
 *    entry that the copied taxonomy does not have is an error naming the nearest entries.
 * 2. Otherwise each skill's tags, then the words of its id, go through SKILL_BY_TAG (a fixed table:
 *    a word → one OASF skill name); every hit counts, in order, without repeats.
 * 3. A skill with neither is unmappable: an error at the skill naming the taxonomy entries nearest
 *    to its id, name and tags (shared words first, then spelling).
 * Domains come from explicit tags and DOMAIN_BY_TAG over every tag; none is allowed (domains are
 * `recommended`, not required).
 */
import { editDistance } from '../nearest-name';
import type { Finding } from '../diagnostic';
import type { AgentDefinition } from '../../schema/generated/agent-definition.types';
import type { OasfDefinitions, OasfTaxonomy, OasfTaxonomyEntry } from './oasf-definitions';

export const OASF_SKILL_TAG = 'oasf:skill/';
export const OASF_DOMAIN_TAG = 'oasf:domain/';
const RULE = 'oasf-export';

/** A word (a tag, or a segment of a skill id) → the OASF skill it means. Lower-case keys. */
export const SKILL_BY_TAG: Readonly<Record<string, string>> = {
  summarization: 'language_processing/language_generation/summarization',
  summarize: 'language_processing/language_generation/summarization',
  summary: 'language_processing/language_generation/summarization',
  digest: 'language_processing/language_generation/summarization',
  classification: 'language_processing/text_classification',
  classify: 'language_processing/text_classification',
  sentiment: 'language_processing/text_classification/sentiment_analysis',
  keywords: 'language_processing/language_understanding/text_feature_extraction',
  keyword: 'language_processing/language_understanding/text_feature_extraction',
  entities: 'language_processing/language_understanding/named_entity_recognition',
  translation: 'language_processing/language_translation/translation',
  translate: 'language_processing/language_translation/translation',
  disambiguation: 'language_processing/language_understanding/contextual_comprehension',
  routing: 'language_processing/text_classification/intent_classification',
  write: 'language_processing/language_generation/paraphrasing',
  rewrite: 'language_processing/language_generation/paraphrasing',
  writing: 'content_writing_marketing/content_writing',
  edit: 'content_writing_marketing/content_editing',
  editing: 'content_writing_marketing/content_editing',
  code: 'software_engineering/code_quality/code_comprehension',
  refactoring: 'software_engineering/code_quality/code_refactoring',
  review: 'software_engineering/code_quality/code_review',
  planning: 'reasoning_planning/strategic_planning',
  search: 'research_knowledge_productivity/knowledge_management',
  web: 'research_knowledge_productivity/web_search',
  research: 'research_knowledge_productivity/research',
  notes: 'research_knowledge_productivity/knowledge_management',
  pdf: 'research_knowledge_productivity/document_processing',
  extraction: 'research_knowledge_productivity/document_processing',
  documents: 'research_knowledge_productivity/document_processing',
  statistics: 'data_engineering_analytics/data_analytics/statistical_analysis',
  support: 'business_professional/customer_support',
  // The kind tags `nx g agentdef:agent` gives its placeholder skill: broad classes, so a new agent
  // exports and publishes before its skill is described; a specific tag maps more precisely.
  agent: 'language_processing/language_generation',
  tool: 'tool_use_automation/script_integration',
  rag: 'ai_ml_engineering/retrieval_augmented_generation',
  orchestration: 'ai_ml_engineering/agent_orchestration',
};

/** A tag → the OASF domain it places the agent in. Lower-case keys. */
export const DOMAIN_BY_TAG: Readonly<Record<string, string>> = {
  code: 'technology/software_engineering',
  edit: 'technology/software_engineering',
  notes: 'technology/productivity_collaboration',
  pdf: 'technology/productivity_collaboration',
  write: 'technology/productivity_collaboration',
  support: 'technology/productivity_collaboration',
  web: 'technology/information_technology',
  text: 'technology/artificial_intelligence',
  summarization: 'technology/artificial_intelligence',
};

export interface OasfClassRef {
  id: number;
  name: string;
}

export interface OasfMapping {
  skills: OasfClassRef[];
  domains: OasfClassRef[];
  /** Unmappable skills and unknown explicit names: errors located in the definition. */
  findings: Finding[];
}

const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);

/** How alike two words are (0..1): by spelling, or as a prefix of the longer one (`sumarize` ~ `summarization`). */
function likeness(word: string, other: string): number {
  const whole = 1 - editDistance(word, other) / Math.max(word.length, other.length);
  const prefix = other.length > word.length ? 1 - editDistance(word, other.slice(0, word.length)) / word.length : 0;
  return Math.max(whole, prefix);
}

/**
 * The `count` taxonomy entries nearest to `query` (ids, names, tags): each query word counts for
 * the entry word it is most like (at least 0.7 alike), weighted by how rare that entry word is in
 * the taxonomy (a shared `text` says less than a shared `summarization`); ties by id.
 */
export function nearestEntries(taxonomy: OasfTaxonomy, query: readonly string[], count = 3): OasfTaxonomyEntry[] {
  const wanted = [...new Set(query.flatMap(words))].filter((w) => w.length >= 3);
  const entryWords = taxonomy.entries.map((entry) => words(entry.key));
  const frequency = new Map<string, number>();
  for (const list of entryWords) for (const w of new Set(list)) frequency.set(w, (frequency.get(w) ?? 0) + 1);
  const rarity = (w: string) => Math.log((taxonomy.entries.length + 1) / (frequency.get(w) ?? 1));
  const scored = taxonomy.entries.map((entry, i) => {
    let score = 0;
    for (const w of wanted) {
      let best = 0;
      for (const o of entryWords[i]!) {
        const alike = likeness(w, o);
        if (alike >= 0.7) best = Math.max(best, alike * rarity(o));
      }
      score += best;
    }
    return { entry, score };
  });
  scored.sort((a, b) => b.score - a.score || a.entry.id - b.entry.id);
  return scored.slice(0, count).map((s) => s.entry);
}

const describe = (entries: readonly OasfTaxonomyEntry[]) => entries.map((e) => `${e.name} (${e.id})`).join(', ');

/** The OASF skills and domains of a (schema-valid) definition, or findings saying why not. */
export function mapOasfTaxonomy(definition: AgentDefinition, defs: OasfDefinitions): OasfMapping {
  const findings: Finding[] = [];
  const skills: OasfClassRef[] = [];
  const domains: OasfClassRef[] = [];
  const add = (list: OasfClassRef[], entry: OasfTaxonomyEntry) => {
    if (!list.some((e) => e.id === entry.id)) list.push({ id: entry.id, name: entry.name });
  };
  const explicit = (
    taxonomy: OasfTaxonomy,
    tag: string,
    prefix: string,
    path: string,
  ): OasfTaxonomyEntry | undefined => {
    const name = tag.slice(prefix.length);
    const entry = /^[0-9]{1,9}$/.test(name) ? taxonomy.byId.get(Number(name)) : taxonomy.byName.get(name);
    if (entry === undefined)
      findings.push({
        rule: RULE,
        path,
        message: `"${tag}" names no OASF ${taxonomy.family} in the copied taxonomy (OASF ${defs.schemaVersion}).`,
        suggestion: `Nearest: ${describe(nearestEntries(taxonomy, name.split('/').slice(-1)))}; write ${prefix}<name path or id>.`,
      });
    return entry;
  };

  definition.capabilityContract.skills.forEach((skill, i) => {
    const at = `/capabilityContract/skills/${i}`;
    const found: OasfTaxonomyEntry[] = [];
    let named = false;
    skill.tags.forEach((tag, t) => {
      if (tag.startsWith(OASF_SKILL_TAG)) {
        named = true;
        const entry = explicit(defs.skills, tag, OASF_SKILL_TAG, `${at}/tags/${t}`);
        if (entry !== undefined) found.push(entry);
      }
    });
    if (!named) {
      for (const word of [...skill.tags.map((t) => t.toLowerCase()), ...words(skill.id)]) {
        const name = SKILL_BY_TAG[word];
        const entry = name !== undefined ? defs.skills.byName.get(name) : undefined;
        if (entry !== undefined && !found.includes(entry)) found.push(entry);
      }
      if (found.length === 0)
        findings.push({
          rule: RULE,
          path: at,
          message: `The skill "${skill.id}" maps to no OASF skill: none of its tags (${skill.tags.join(', ') || 'none'}) or id words is in the mapping table.`,
          suggestion: `Add a tag ${OASF_SKILL_TAG}<name path or id>; nearest: ${describe(nearestEntries(defs.skills, [skill.id, skill.name, ...skill.tags]))}.`,
        });
    }
    for (const entry of found) add(skills, entry);
  });

  const tagSources: { tag: string; path: string }[] = [
    ...definition.metadata.tags.map((tag, t) => ({ tag, path: `/metadata/tags/${t}` })),
    ...definition.capabilityContract.skills.flatMap((skill, i) =>
      skill.tags.map((tag, t) => ({ tag, path: `/capabilityContract/skills/${i}/tags/${t}` })),
    ),
  ];
  const namedDomains = tagSources.filter(({ tag }) => tag.startsWith(OASF_DOMAIN_TAG));
  for (const { tag, path } of namedDomains) {
    const entry = explicit(defs.domains, tag, OASF_DOMAIN_TAG, path);
    if (entry !== undefined) add(domains, entry);
  }
  if (namedDomains.length === 0) {
    for (const { tag } of tagSources) {
      const name = DOMAIN_BY_TAG[tag.toLowerCase()];
      const entry = name !== undefined ? defs.domains.byName.get(name) : undefined;
      if (entry !== undefined) add(domains, entry);
    }
  }
  return { skills, domains, findings };
}
