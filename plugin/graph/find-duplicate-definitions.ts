/**
 * Duplicates among a workspace's agent definitions: two files stating the same `identity.slug`
 * (Nx names each agent project by its slug, and the compiler resolves pins by it) or the same
 * `identity.id` under different slugs (an id names one agent; one slug and one id is one agent
 * twice, which the slug report covers). Pure; never throws; the first file (in the caller's
 * order) keeps the value and every later one is reported against it, with both locations, the
 * field and what to change. Graph inference reports these itself; `agentdef validate <dir>` can
 * use the same function.
 */
import type { SourcePosition } from '../definition/source-document';

/** What the check needs from one definition (read-agent-summary.ts `AgentSummary` fits). */
export interface DefinitionIdentity {
  /** Workspace-relative, posix. */
  file: string;
  slug?: string;
  slugAt?: SourcePosition;
  id?: string;
  idAt?: SourcePosition;
}

export type DuplicateField = 'identity.slug' | 'identity.id';

export interface DuplicateDefinition {
  field: DuplicateField;
  /** JSON Pointer of the field in both files. */
  pointer: '/identity/slug' | '/identity/id';
  value: string;
  /** The file that keeps the value. */
  first: { file: string; at?: SourcePosition };
  /** The later file stating it again (the one Nx would lose). */
  duplicate: { file: string; at?: SourcePosition };
  /** One line: `file:line:column: what, where else, what to do`. */
  message: string;
}

const located = (file: string, at?: SourcePosition) => (at === undefined ? file : `${file}:${at.line}:${at.column}`);

const ADVICE: Record<DuplicateField, string> = {
  'identity.slug':
    'each agent is one Nx project named by its slug and pins resolve by it, so change /identity/slug in one of the two files (and the pins that mean it)',
  'identity.id': 'an id names exactly one agent, so give one of the two files a new ULID in /identity/id',
};

function duplicatesOf(definitions: readonly DefinitionIdentity[], field: DuplicateField): DuplicateDefinition[] {
  const key = field === 'identity.slug' ? 'slug' : 'id';
  const pointer = field === 'identity.slug' ? '/identity/slug' : '/identity/id';
  const firstByValue = new Map<string, DefinitionIdentity>();
  const found: DuplicateDefinition[] = [];
  for (const definition of definitions) {
    const value = definition[key];
    if (value === undefined) continue;
    const first = firstByValue.get(value);
    if (first === undefined) {
      firstByValue.set(value, definition);
      continue;
    }
    // One slug with one id is one agent at two versions: the slug report says all there is.
    if (field === 'identity.id' && definition.slug !== undefined && definition.slug === first.slug) continue;
    const firstAt = field === 'identity.slug' ? first.slugAt : first.idAt;
    const at = field === 'identity.slug' ? definition.slugAt : definition.idAt;
    found.push({
      field,
      pointer,
      value,
      first: { file: first.file, ...(firstAt ? { at: firstAt } : {}) },
      duplicate: { file: definition.file, ...(at ? { at } : {}) },
      message: `${located(definition.file, at)}: ${field} "${value}" is already stated by ${located(first.file, firstAt)}; ${ADVICE[field]}`,
    });
  }
  return found;
}

/** Every duplicated slug, then every duplicated id, each later file against the first. */
export function findDuplicateDefinitions(definitions: readonly DefinitionIdentity[]): DuplicateDefinition[] {
  return [...duplicatesOf(definitions, 'identity.slug'), ...duplicatesOf(definitions, 'identity.id')];
}
