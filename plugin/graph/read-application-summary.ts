/**
 * The little graph inference needs from an application manifest: its `id` (the project name), its
 * `revision`, and the agents it composes, i.e. the `{ slug, version }` configuration of every node
 * whose component is `agentdef.registered-agent` (each with the line of its node). Read with the
 * definition layer's parser (the one the manifest validator uses, so both agree on what a file
 * says), never validated here: an invalid manifest still yields whatever it states plainly, and a
 * text that does not parse yields an empty summary. The graph layer never imports the application
 * layer, so the component id is spelled here. Pure; never throws.
 */
import { joinPointer } from '../definition/json-pointer';
import { definitionFormat, type DefinitionFormat } from '../definition/parse-document';
import { field, parseForSummary, word } from './summary-fields';
import type { SourcePosition } from '../definition/source-document';
import { SLUG_PATTERN } from '../definition/workspace-definitions';

/** The built-in component that plans one registered agent (plugin/application/builtin-components.ts). */
export const REGISTERED_AGENT_COMPONENT = 'agentdef.registered-agent';

export interface ComposedAgentSummary {
  slug: string;
  version: string;
  /** 1-based line of the node (`nodes[i]`) in the manifest. */
  line: number;
}

export interface ApplicationSummary {
  /** Present when the manifest states a well-formed id (a slug). */
  id?: string;
  /** Where `id` stands, when the id is present. */
  idAt?: SourcePosition;
  /** Present when the manifest states a revision string. */
  revision?: string;
  /** The registered-agent nodes with a well-formed slug and version, in file order. */
  agents: ComposedAgentSummary[];
  /** False when the text could not be parsed at all. */
  parsed: boolean;
}

export function summarizeApplication(
  text: string,
  file: string,
  format: DefinitionFormat = definitionFormat(file) ?? 'json',
): ApplicationSummary {
  const document = parseForSummary(text, file, format);
  if (!document) return { agents: [], parsed: false };

  const root = document.value;
  const summary: ApplicationSummary = { agents: [], parsed: true };
  const id = word(field(root, 'id'), SLUG_PATTERN);
  if (id !== undefined && id.length <= 64) {
    summary.id = id;
    summary.idAt = document.locate('/id');
  }
  const revision = word(field(root, 'revision'));
  if (revision !== undefined) summary.revision = revision;

  const nodes = field(root, 'nodes');
  if (Array.isArray(nodes)) {
    nodes.forEach((node, index) => {
      if (field(field(node, 'component'), 'id') !== REGISTERED_AGENT_COMPONENT) return;
      const config = field(node, 'config');
      const slug = word(field(config, 'slug'), SLUG_PATTERN);
      const version = word(field(config, 'version'));
      if (slug === undefined || version === undefined) return;
      const { line } = document.locate(joinPointer('/nodes', index));
      summary.agents.push({ slug, version, line });
    });
  }
  return summary;
}
