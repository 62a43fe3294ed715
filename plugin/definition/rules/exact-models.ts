/**
 * The `exact-models` rule and the mapping it checks: the model id a pin sends on the wire, a pure
 * function of (providerId, modelId, modelVersion) (and the checkpoint of a tuned pin), with the
 * reason when the pin does not name one exact provider model. The compiler emits `wireModelId(pin).id`
 * as the runtime config's `model`; the rule reports its `problem`. Per provider (docs/models.md):
 *
 * - `openai`: `<modelId>-<YYYY-MM-DD>`, the dated snapshot (`gpt-4o-mini` + `2024-07-18` →
 *   `gpt-4o-mini-2024-07-18`); a legacy four-digit `MMDD` version is appended as it is
 *   (`gpt-4` + `0613` → `gpt-4-0613`).
 * - `anthropic`: before the Claude 4.6 generation, `<modelId>-<YYYYMMDD>` (`claude-3-5-haiku` +
 *   `20241022` → `claude-3-5-haiku-20241022`); from 4.6 on, ids are dateless and each one is
 *   itself a pinned snapshot (`claude-sonnet-4-6`), so the id is sent as written and the version
 *   is recorded only. Source: https://platform.claude.com/docs/en/about-claude/models/model-ids-and-versions
 * - `local-ollama`: `<modelId>:<tag>`, the version is the tag (`llama3.1` + `8b` → `llama3.1:8b`).
 * - a tuned pin with a checkpoint: the checkpoint, as written (it is the exact model).
 * - every other provider (`custom:…`, `mistral`, `groq`, `azure-openai`, …): the modelId as
 *   written; the version is recorded only.
 *
 * Dates are accepted as `YYYY-MM-DD` or `YYYYMMDD` and sent in the provider's own form. A modelId
 * that already ends with its own version is sent once, in the provider's form (a warning asks to
 * split it); one that ends with a different date or tag is an error.
 */
import type { LlmPin } from '../../schema/generated/agent-definition.types';
import type { Finding } from '../diagnostic';
import type { SemanticRule } from './rule';

export interface PinProblem {
  severity: 'error' | 'warning';
  /** The pin field to point at. */
  field: 'modelId' | 'modelVersion';
  message: string;
  suggestion: string;
}

export interface WireModelId {
  /** The `model` sent in the request body. */
  id: string;
  /** Why the pin does not name one exact model as the provider names it, when it does not. */
  problem?: PinProblem;
}

type PinFields = Pick<LlmPin, 'providerId' | 'modelId' | 'modelVersion' | 'tier' | 'checkpointId'>;

interface CalendarDate {
  year: string;
  month: string;
  day: string;
}

const DASHED_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const COMPACT_DATE = /^(\d{4})(\d{2})(\d{2})$/;
/** A trailing snapshot date on a model id: `-2024-07-18` or `-20241022`. */
const TRAILING_DATE = /-(\d{4}-\d{2}-\d{2}|\d{8})$/;
/** An OpenAI legacy snapshot suffix: `0613` in `gpt-4-0613`. */
const LEGACY_MMDD = /^(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])$/;
/** An Ollama tag: what follows `:` in `llama3.1:8b`. */
const OLLAMA_TAG = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
/** A dateless Claude id (`claude-<name>-<major>[-<minor>]`); from 4.6 on each one is a pinned snapshot. */
const DATELESS_CLAUDE = /^claude-[a-z]+-(\d+)(?:-(\d+))?$/;

/** The calendar date a version names, in either accepted form, or undefined. */
export function parseSnapshotDate(version: string): CalendarDate | undefined {
  const match = DASHED_DATE.exec(version) ?? COMPACT_DATE.exec(version);
  if (!match) return undefined;
  const [, year, month, day] = match as unknown as [string, string, string, string];
  const m = Number(month);
  const d = Number(day);
  if (m < 1 || m > 12 || d < 1 || d > new Date(Date.UTC(Number(year), m, 0)).getUTCDate()) return undefined;
  return { year, month, day };
}

/** Whether a Claude id is of the dateless 4.6+ generation (`claude-sonnet-4-6`, `claude-opus-5`). */
export function isDatelessClaudeId(modelId: string): boolean {
  const match = DATELESS_CLAUDE.exec(modelId);
  if (!match) return false;
  const major = Number(match[1]);
  const minor = match[2] === undefined ? 0 : Number(match[2]);
  return major > 4 || (major === 4 && minor >= 6);
}

const dashed = (d: CalendarDate): string => `${d.year}-${d.month}-${d.day}`;
const compact = (d: CalendarDate): string => `${d.year}${d.month}${d.day}`;

/** `<modelId>-<suffix>`, unless the id already ends with a snapshot (the same one: a warning; another: an error). */
function withSnapshotSuffix(pin: PinFields, suffix: string): WireModelId {
  const carried = TRAILING_DATE.exec(pin.modelId)?.[1] ?? (pin.modelId.endsWith(`-${suffix}`) ? suffix : undefined);
  if (carried === undefined) return { id: `${pin.modelId}-${suffix}` };
  const bare = pin.modelId.slice(0, -carried.length - 1);
  const carriedDate = parseSnapshotDate(carried);
  const versionDate = parseSnapshotDate(suffix);
  const same =
    carried === suffix ||
    (carriedDate !== undefined && versionDate !== undefined && compact(carriedDate) === compact(versionDate));
  if (same) {
    return {
      id: `${bare}-${suffix}`,
      problem: {
        severity: 'warning',
        field: 'modelId',
        message: `modelId "${pin.modelId}" already carries its snapshot ${carried}: the snapshot belongs in modelVersion alone.`,
        suggestion: `Write "modelId": "${bare}" with "modelVersion": "${pin.modelVersion}"; agentdef sends "${bare}-${suffix}".`,
      },
    };
  }
  return {
    id: pin.modelId,
    problem: {
      severity: 'error',
      field: 'modelId',
      message: `modelId "${pin.modelId}" ends with the snapshot ${carried} but modelVersion is "${pin.modelVersion}": the pin names two different models.`,
      suggestion: `Write "modelId": "${bare}" and put the one snapshot you mean in modelVersion (for example "${carried}").`,
    },
  };
}

function openAiId(pin: PinFields): WireModelId {
  const date = parseSnapshotDate(pin.modelVersion);
  if (date) return withSnapshotSuffix(pin, dashed(date));
  if (LEGACY_MMDD.test(pin.modelVersion)) return withSnapshotSuffix(pin, pin.modelVersion);
  return {
    id: pin.modelId,
    problem: {
      severity: 'error',
      field: 'modelVersion',
      message: `modelVersion "${pin.modelVersion}" is not an OpenAI snapshot: OpenAI pins a model by the date of its snapshot (gpt-4o-mini-2024-07-18), and a bare "${pin.modelId}" follows whatever the alias points to.`,
      suggestion: `Write the snapshot date as YYYY-MM-DD, for example "modelVersion": "2024-07-18" for gpt-4o-mini (sent as "gpt-4o-mini-2024-07-18"); the model's page lists its snapshots.`,
    },
  };
}

function anthropicId(pin: PinFields): WireModelId {
  if (isDatelessClaudeId(pin.modelId)) return { id: pin.modelId };
  const date = parseSnapshotDate(pin.modelVersion);
  if (date) return withSnapshotSuffix(pin, compact(date));
  return {
    id: pin.modelId,
    problem: {
      severity: 'error',
      field: 'modelVersion',
      message: `modelVersion "${pin.modelVersion}" is not a Claude snapshot date: before the 4.6 generation a Claude model is pinned by its dated id (claude-3-5-haiku-20241022), and a bare "${pin.modelId}" is an alias that moves.`,
      suggestion: `Write the snapshot date as YYYYMMDD, for example "modelVersion": "20251001" for claude-haiku-4-5 (sent as "claude-haiku-4-5-20251001"); dateless ids from 4.6 on (claude-sonnet-4-6) are sent as written.`,
    },
  };
}

function ollamaId(pin: PinFields): WireModelId {
  const slash = pin.modelId.lastIndexOf('/');
  const colon = pin.modelId.indexOf(':', slash + 1);
  if (colon >= 0) {
    const name = pin.modelId.slice(0, colon);
    const tag = pin.modelId.slice(colon + 1);
    const same = tag === pin.modelVersion;
    return {
      id: pin.modelId,
      problem: {
        severity: same ? 'warning' : 'error',
        field: 'modelId',
        message: same
          ? `modelId "${pin.modelId}" already carries its Ollama tag: the tag belongs in modelVersion alone.`
          : `modelId "${pin.modelId}" carries the Ollama tag "${tag}" but modelVersion is "${pin.modelVersion}": for Ollama the version is the tag.`,
        suggestion: `Write "modelId": "${name}" with "modelVersion": "${tag}"; agentdef sends "${name}:${tag}".`,
      },
    };
  }
  if (!OLLAMA_TAG.test(pin.modelVersion)) {
    return {
      id: pin.modelId,
      problem: {
        severity: 'error',
        field: 'modelVersion',
        message: `modelVersion "${pin.modelVersion}" is not an Ollama tag: for Ollama the version is the tag the model is pulled as (llama3.1:8b).`,
        suggestion: `Write the tag alone: letters, digits, "_", "." and "-", for example "modelVersion": "8b" (sent as "${pin.modelId}:8b").`,
      },
    };
  }
  return { id: `${pin.modelId}:${pin.modelVersion}` };
}

/** The exact model id the pin sends on the wire, and why the pin is not exact when it is not. */
export function wireModelId(pin: PinFields): WireModelId {
  if (pin.tier === 'tuned' && pin.checkpointId) return { id: pin.checkpointId };
  switch (pin.providerId) {
    case 'openai':
      return openAiId(pin);
    case 'anthropic':
      return anthropicId(pin);
    case 'local-ollama':
      return ollamaId(pin);
    default:
      return { id: pin.modelId };
  }
}

const RULE = 'exact-models';

export const exactModelsRule: SemanticRule = {
  name: RULE,
  description:
    'Each model pin maps to one exact provider model id: OpenAI and pre-4.6 Claude pins carry a snapshot date, Ollama pins a tag, and modelId does not repeat modelVersion.',
  check(definition) {
    const findings: Finding[] = [];
    definition.modelSet.forEach((pin, index) => {
      const { id, problem } = wireModelId(pin);
      if (!problem) return;
      findings.push({
        rule: RULE,
        severity: problem.severity,
        path: `/modelSet/${index}/${problem.field}`,
        message: `modelSet[${index}] ("${pin.modelId}", ${pin.providerId}): ${problem.message}${problem.severity === 'warning' ? ` It is sent as "${id}".` : ''}`,
        suggestion: problem.suggestion,
      });
    });
    return findings;
  },
};
