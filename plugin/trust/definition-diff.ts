/**
 * `agentdef diff`'s core: every change between two AgentDefinitions, each located by JSON Pointer
 * and classified by the semver policy (definition-change-policy.ts), the bump they require
 * together, and whether a version bump is enough (docs/decisions/0001-semver-policy.md).
 * Pure data in, data out: never throws, whatever the two values are. A pointer segment (a
 * property name) that looks like a credential is shown as `<hidden: …>`, never quoted: the
 * secrets rule reports such a name without printing it, and a diff must not print it either.
 */
import { joinPointer } from '../definition/json-pointer';
import { highEntropyBlob, secretKinds } from '../definition/rules/secrets';
import { type Bump, type ChangeVerdict, fieldRule, UNCLASSIFIED, type Verdict } from './definition-change-policy';

export type { Bump } from './definition-change-policy';

export interface DefinitionChange {
  /** Where: a JSON Pointer into the new definition, or into the old one for a removal. */
  pointer: string;
  /** Which definition `pointer` points into. */
  in: 'old' | 'new';
  kind: 'added' | 'removed' | 'changed';
  bump: Bump;
  reason: string;
}

/** The bump a list of changes requires: the largest class, `none` without changes. */
export type RequiredBump = Bump | 'none';

const ORDER: Record<RequiredBump, number> = { none: 0, patch: 1, minor: 2, major: 3 };

type Json = unknown;

function isRecord(value: Json): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function same(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => same(item, b[i]));
  }
  if (!isRecord(a) || !isRecord(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && same(a[key], b[key]));
}

/** A stable text of a JSON value (for set membership): keys sorted. */
function stableText(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(stableText).join(',')}]`;
  if (isRecord(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableText(value[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function decide(verdict: ChangeVerdict, before: Json, after: Json): Verdict {
  return typeof verdict === 'function' ? verdict(before, after) : verdict;
}

/** `pointer` with every segment that looks like a credential replaced by what it looks like. */
function shownPointer(pointer: string): string {
  if (pointer === '') return pointer;
  return pointer
    .split('/')
    .map((segment, i) => {
      if (i === 0) return segment;
      const name = segment.replace(/~1/g, '/').replace(/~0/g, '~');
      const kinds = secretKinds(name);
      if (kinds.length > 0) return `<hidden: ${kinds.join(' and ')}>`;
      const blob = highEntropyBlob(name);
      return blob === undefined ? segment : `<hidden: ${blob}>`;
    })
    .join('/');
}

class ChangeCollector {
  readonly changes: DefinitionChange[] = [];

  add(pointer: string, side: 'old' | 'new', kind: DefinitionChange['kind'], verdict: Verdict): void {
    this.changes.push({ pointer: shownPointer(pointer), in: side, kind, bump: verdict.bump, reason: verdict.reason });
  }

  /** Compares `before` (at `oldPointer`) and `after` (at `newPointer`), both present, under `schemaPath`. */
  compare(schemaPath: string, oldPointer: string, newPointer: string, before: Json, after: Json): void {
    if (same(before, after)) return;
    const rule = fieldRule(schemaPath);
    const unclassified = () => this.add(newPointer, 'new', 'changed', UNCLASSIFIED);
    if (rule === undefined) unclassified();
    else if (rule.walk === 'leaf') this.add(newPointer, 'new', 'changed', decide(rule.changed, before, after));
    else if (rule.walk === 'object') {
      if (isRecord(before) && isRecord(after)) this.compareMembers(schemaPath, oldPointer, newPointer, before, after);
      else unclassified();
    } else if (rule.walk === 'keyed') {
      if (Array.isArray(before) && Array.isArray(after))
        this.compareKeyed(
          schemaPath,
          oldPointer,
          newPointer,
          before,
          after,
          rule.key,
          rule.itemAdded,
          rule.itemRemoved,
        );
      else unclassified();
    } else if (rule.walk === 'set') {
      if (Array.isArray(before) && Array.isArray(after))
        this.compareSet(oldPointer, newPointer, before, after, rule.itemAdded, rule.itemRemoved);
      else unclassified();
    }
    // `ignored`: changes with every version by design.
  }

  /** A field present on one side only. */
  presence(schemaPath: string, pointer: string, side: 'old' | 'new'): void {
    const rule = fieldRule(schemaPath);
    if (rule?.walk === 'ignored') return;
    const kind = side === 'new' ? 'added' : 'removed';
    if (rule === undefined) this.add(pointer, side, kind, UNCLASSIFIED);
    else this.add(pointer, side, kind, side === 'new' ? rule.added : rule.removed);
  }

  private compareMembers(
    schemaPath: string,
    oldPointer: string,
    newPointer: string,
    before: Record<string, Json>,
    after: Record<string, Json>,
  ): void {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    for (const key of keys) {
      const childSchema = joinPointer(schemaPath, key);
      const inOld = Object.hasOwn(before, key);
      const inNew = Object.hasOwn(after, key);
      if (inOld && inNew)
        this.compare(childSchema, joinPointer(oldPointer, key), joinPointer(newPointer, key), before[key], after[key]);
      else if (inNew) this.presence(childSchema, joinPointer(newPointer, key), 'new');
      else this.presence(childSchema, joinPointer(oldPointer, key), 'old');
    }
  }

  private compareKeyed(
    schemaPath: string,
    oldPointer: string,
    newPointer: string,
    before: Json[],
    after: Json[],
    key: (item: unknown) => string | undefined,
    itemAdded: Verdict,
    itemRemoved: Verdict,
  ): void {
    // Items without a key (an invalid definition) are keyed by their whole text; repeated keys by occurrence.
    const keysOf = (items: Json[]): string[] => {
      const seen = new Map<string, number>();
      return items.map((item) => {
        const base = key(item) ?? `text:${stableText(item)}`;
        const n = seen.get(base) ?? 0;
        seen.set(base, n + 1);
        return `${base}#${n}`;
      });
    };
    const oldKeys = keysOf(before);
    const newKeys = keysOf(after);
    const oldIndex = new Map(oldKeys.map((k, i) => [k, i]));
    const newIndex = new Map(newKeys.map((k, i) => [k, i]));
    const itemSchema = `${schemaPath}/*`;
    oldKeys.forEach((k, i) => {
      if (!newIndex.has(k)) this.add(joinPointer(oldPointer, i), 'old', 'removed', itemRemoved);
    });
    newKeys.forEach((k, j) => {
      const i = oldIndex.get(k);
      if (i === undefined) this.add(joinPointer(newPointer, j), 'new', 'added', itemAdded);
      else this.compare(itemSchema, joinPointer(oldPointer, i), joinPointer(newPointer, j), before[i], after[j]);
    });
  }

  private compareSet(
    oldPointer: string,
    newPointer: string,
    before: Json[],
    after: Json[],
    itemAdded: Verdict,
    itemRemoved: Verdict,
  ): void {
    const oldTexts = new Set(before.map(stableText));
    const newTexts = new Set(after.map(stableText));
    const reported = new Set<string>();
    before.forEach((item, i) => {
      const t = stableText(item);
      if (!newTexts.has(t) && !reported.has(`-${t}`)) {
        reported.add(`-${t}`);
        this.add(joinPointer(oldPointer, i), 'old', 'removed', itemRemoved);
      }
    });
    after.forEach((item, j) => {
      const t = stableText(item);
      if (!oldTexts.has(t) && !reported.has(`+${t}`)) {
        reported.add(`+${t}`);
        this.add(joinPointer(newPointer, j), 'new', 'added', itemAdded);
      }
    });
  }
}

/** Every change from `before` to `after` (two AgentDefinitions, or any JSON), in a stable order. */
export function diffDefinitions(before: unknown, after: unknown): DefinitionChange[] {
  try {
    const collector = new ChangeCollector();
    collector.compare('', '', '', before, after);
    return collector.changes;
  } catch (error) {
    // Only a pathological value (e.g. nesting deeper than the stack) gets here: fail closed.
    return [
      {
        pointer: '',
        in: 'new',
        kind: 'changed',
        bump: 'major',
        reason: `the definitions could not be compared (${(error as Error).message})`,
      },
    ];
  }
}

/** The bump the changes require together. */
export function requiredBump(changes: readonly DefinitionChange[]): RequiredBump {
  let required: RequiredBump = 'none';
  for (const change of changes) if (ORDER[change.bump] > ORDER[required]) required = change.bump;
  return required;
}

interface ParsedVersion {
  core: [number, number, number];
  prerelease: string[];
}

const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

function parseVersion(version: unknown): ParsedVersion | undefined {
  if (typeof version !== 'string' || version.length > 128) return undefined;
  const m = SEMVER.exec(version);
  if (!m) return undefined;
  const core = [Number(m[1]), Number(m[2]), Number(m[3])] as [number, number, number];
  if (!core.every(Number.isSafeInteger)) return undefined;
  return { core, prerelease: m[4] === undefined ? [] : m[4].split('.') };
}

/** Semver §11 precedence (build metadata ignored): negative, zero or positive. */
function precedence(a: ParsedVersion, b: ParsedVersion): number {
  for (let i = 0; i < 3; i++) if (a.core[i] !== b.core[i]) return a.core[i]! - b.core[i]!;
  if (a.prerelease.length === 0 || b.prerelease.length === 0)
    return (a.prerelease.length === 0 ? 1 : 0) - (b.prerelease.length === 0 ? 1 : 0);
  for (let i = 0; i < Math.max(a.prerelease.length, b.prerelease.length); i++) {
    const x = a.prerelease[i];
    const y = b.prerelease[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (x === y) continue;
    const xn = /^\d+$/.test(x);
    const yn = /^\d+$/.test(y);
    if (xn && yn) return x.length - y.length || (x < y ? -1 : 1);
    if (xn !== yn) return xn ? -1 : 1;
    return x < y ? -1 : 1;
  }
  return 0;
}

/**
 * What moving from `from` to `to` allows. The first non-zero component is the compatibility
 * boundary (npm caret ranges): for 1.x and up major.minor.patch as written; for 0.y.z a `y` bump
 * counts as major and a `z` bump as minor; for 0.0.z every bump counts as major. Between
 * pre-releases of one release (2.0.0-rc.1 → 2.0.0-rc.2 → 2.0.0) anything may change.
 */
function versionBump(from: ParsedVersion, to: ParsedVersion): RequiredBump {
  const [a0, a1, a2] = from.core;
  const [b0, b1, b2] = to.core;
  if (a0 === b0 && a1 === b1 && a2 === b2) return from.prerelease.length > 0 ? 'major' : 'none';
  if (b0 !== a0) return 'major';
  if (a0 === 0 && a1 === 0) return 'major';
  if (b1 !== a1) return a0 === 0 ? 'major' : 'minor';
  return a0 === 0 ? 'minor' : 'patch';
}

export type BumpCheck =
  | { ok: true; required: RequiredBump; actual: RequiredBump }
  | {
      ok: false;
      required: RequiredBump;
      actual: RequiredBump;
      /** `version`: a version is not an exact semver; `lower`: the version went down; `bump`: too small a step. */
      cause: 'version' | 'lower' | 'bump';
      /** Why the bump is not enough, in one line. */
      problem: string;
      /** The changes that require more than the actual bump (empty when the versions themselves are the problem). */
      insufficient: DefinitionChange[];
    };

/** Whether `newVersion` is a big enough step from `oldVersion` for `changes`. */
export function checkBump(oldVersion: unknown, newVersion: unknown, changes: readonly DefinitionChange[]): BumpCheck {
  const required = requiredBump(changes);
  const from = parseVersion(oldVersion);
  const to = parseVersion(newVersion);
  if (!from || !to) {
    const which = !from
      ? `old version ${JSON.stringify(oldVersion) ?? 'undefined'}`
      : `new version ${JSON.stringify(newVersion) ?? 'undefined'}`;
    return {
      ok: false,
      required,
      actual: 'none',
      cause: 'version',
      problem: `the ${which} is not an exact semantic version`,
      insufficient: [],
    };
  }
  const order = precedence(from, to);
  if (order > 0)
    return {
      ok: false,
      required,
      actual: 'none',
      cause: 'lower',
      problem: `the new version ${String(newVersion)} is lower than ${String(oldVersion)}`,
      insufficient: [],
    };
  const actual = order === 0 ? 'none' : versionBump(from, to);
  if (ORDER[actual] >= ORDER[required]) return { ok: true, required, actual };
  const insufficient = changes.filter((c) => ORDER[c.bump] > ORDER[actual]);
  const step =
    actual === 'none'
      ? 'the version did not change'
      : `${String(oldVersion)} → ${String(newVersion)} is a ${actual} bump`;
  return {
    ok: false,
    required,
    actual,
    cause: 'bump',
    problem: `the changes require a ${required} bump, but ${step}`,
    insufficient,
  };
}
