/**
 * The `modelVersion` form each provider's pins need for `wireModelId` (rules/exact-models.ts) to
 * name one exact model, as something a person can be asked for: what it is, how it is written,
 * and an example pin of that provider. A generator that is given a model id without its version
 * asks for exactly this (with the example) instead of inventing one; a model id that carries its
 * own snapshot or tag (`gpt-4o-mini-2024-07-18`, `llama3.1:8b`) is split into the two fields the
 * way the rule's own warning suggests. Pure, no I/O; docs/models.md is the table it follows.
 */
import { isDatelessClaudeId, parseSnapshotDate } from './rules/exact-models';

export interface VersionForm {
  /** The provider as a person names it. */
  provider: string;
  /** What the version is, e.g. `the snapshot date`. */
  what: string;
  /** How it is written, e.g. `YYYY-MM-DD`. */
  format: string;
  /** A real pin of that provider, in the form asked for. */
  example: { modelId: string; modelVersion: string; wire: string };
  /** Where to find the versions of a model. */
  where: string;
}

const FORMS: Readonly<Record<string, VersionForm>> = {
  openai: {
    provider: 'OpenAI',
    what: 'the date of its snapshot',
    format: 'YYYY-MM-DD',
    example: { modelId: 'gpt-4o-mini', modelVersion: '2024-07-18', wire: 'gpt-4o-mini-2024-07-18' },
    where: "the model's page in the OpenAI API docs lists its snapshots",
  },
  anthropic: {
    provider: 'Anthropic',
    what: 'the date of its snapshot (before the Claude 4.6 generation)',
    format: 'YYYYMMDD',
    example: { modelId: 'claude-haiku-4-5', modelVersion: '20251001', wire: 'claude-haiku-4-5-20251001' },
    where:
      "Anthropic's models overview lists each model's dated id; from 4.6 on the ids are dateless (claude-sonnet-4-6) and need no date",
  },
  'local-ollama': {
    provider: 'Ollama',
    what: 'the tag it is pulled as',
    format: '<tag>',
    example: { modelId: 'llama3.1', modelVersion: '8b', wire: 'llama3.1:8b' },
    where: '`ollama list` shows the tags on this machine',
  },
};

/**
 * The version form a pin of `providerId` and `modelId` must carry, or undefined when any exact
 * version will do (it is recorded only: a dateless Claude id, a tuned pin's checkpoint, every
 * other provider and `custom:<name>`).
 */
export function requiredVersionForm(providerId: string, modelId: string, tuned = false): VersionForm | undefined {
  if (tuned) return undefined;
  if (providerId === 'anthropic' && isDatelessClaudeId(modelId)) return undefined;
  return FORMS[providerId];
}

/** A trailing snapshot date on a model id: `-2024-07-18` or `-20241022`. */
const TRAILING_DATE = /^(.+)-(\d{4}-\d{2}-\d{2}|\d{8})$/;

/**
 * The model id split into the id and the version it carries, when its provider's wire form puts
 * the version in the id (`gpt-4o-mini-2024-07-18` → `gpt-4o-mini` + `2024-07-18`;
 * `claude-3-5-haiku-20241022` → `claude-3-5-haiku` + `20241022`; `llama3.1:8b` → `llama3.1` +
 * `8b`); undefined otherwise.
 */
export function splitCarriedVersion(
  providerId: string,
  modelId: string,
): { modelId: string; modelVersion: string } | undefined {
  if (providerId === 'openai' || providerId === 'anthropic') {
    const match = TRAILING_DATE.exec(modelId);
    if (!match || parseSnapshotDate(match[2]!) === undefined) return undefined;
    return { modelId: match[1]!, modelVersion: match[2]! };
  }
  if (providerId === 'local-ollama') {
    const slash = modelId.lastIndexOf('/');
    const colon = modelId.indexOf(':', slash + 1);
    if (colon <= 0 || colon === modelId.length - 1) return undefined;
    return { modelId: modelId.slice(0, colon), modelVersion: modelId.slice(colon + 1) };
  }
  return undefined;
}
