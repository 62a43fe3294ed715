/**
 * Secrets never appear as literals. Every string of the definition (values and property names) is
 * scanned for unmistakable credential shapes; binding fields and sampling parameters, where a
 * pasted key is most likely, are also scanned for long high-entropy base64 or hex strings.
 * Findings name the field and the kind of secret, never the value or any part of it.
 */
import type { Finding } from '../diagnostic';
import type { SemanticRule } from './rule';

const RULE = 'secrets';

export const SECRET_SUGGESTION = "Remove the literal and store the value in a secret store and reference it, e.g. {kind: 'secret-ref', name, ref: 'secrets-store://team/name'}; then rotate the exposed credential.";

interface Detector {
  kind: string;
  pattern: RegExp;
  /** Extra check on the match, to keep ordinary words out. */
  accept?: (match: RegExpExecArray) => boolean;
}

const hasKeyChars = (body: string) => /[0-9A-Z]/.test(body) && /[A-Za-z]/.test(body);

/** Shapes that are credentials wherever they appear. Order: most specific first. */
const DETECTORS: readonly Detector[] = [
  { kind: 'a private key', pattern: /-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/ },
  {
    kind: 'an Anthropic API key',
    pattern: /(?<![A-Za-z0-9])sk-ant-([A-Za-z0-9_-]{16,})/,
    accept: (m) => hasKeyChars(m[1] ?? ''),
  },
  {
    kind: 'an OpenAI API key',
    pattern: /(?<![A-Za-z0-9])sk-(?!ant-)(?:proj-)?([A-Za-z0-9_-]{16,})/,
    accept: (m) => hasKeyChars(m[1] ?? ''),
  },
  { kind: 'an AWS access key id', pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![0-9A-Za-z])/ },
  { kind: 'a GitHub token', pattern: /(?<![A-Za-z0-9])(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})/ },
  { kind: 'a Slack token', pattern: /(?<![A-Za-z0-9])xox[abprs]-[A-Za-z0-9-]{10,}/ },
  { kind: 'a Google API key', pattern: /(?<![A-Za-z0-9])AIza[0-9A-Za-z_-]{35}/ },
  { kind: 'a JSON Web Token', pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/ },
];

function shannonEntropy(s: string): number {
  const counts = new Map<string, number>();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

/** How often adjacent characters change class (lower, upper, digit, other): high for random text, low for words. */
function classTransitions(s: string): number {
  const cls = (c: string) => (/[a-z]/.test(c) ? 0 : /[A-Z]/.test(c) ? 1 : /[0-9]/.test(c) ? 2 : 3);
  let changes = 0;
  for (let i = 1; i < s.length; i++) if (cls(s[i - 1] ?? '') !== cls(s[i] ?? '')) changes++;
  return changes / Math.max(1, s.length - 1);
}

/** The share of characters inside word-like runs (Capitalised or lowercase words, ACRONYMS): high for names, lower for random text. */
function wordCoverage(s: string): number {
  let covered = 0;
  for (const m of s.match(/[A-Z]?[a-z]{3,}|[A-Z]{4,}/g) ?? []) covered += m.length;
  return covered / s.length;
}

/** Whether `value` holds a long high-entropy base64 or hex blob (32 characters or more). */
export function highEntropyBlob(value: string): 'a long hex string' | 'a long base64 string' | undefined {
  for (const token of value.match(/[A-Za-z0-9+/_=-]{32,}/g) ?? []) {
    const t = token.replace(/=+$/, '');
    if (t.length < 32) continue;
    if (/^[0-9a-fA-F]+$/.test(t)) {
      if (/[0-9]/.test(t) && /[a-fA-F]/.test(t) && shannonEntropy(t) >= 3) return 'a long hex string';
      continue;
    }
    if (/[a-z]/.test(t) && /[A-Z]/.test(t) && (/[0-9]/.test(t) || t.length >= 40) && shannonEntropy(t) >= 3.8 && classTransitions(t) >= 0.35 && wordCoverage(t) <= 0.7) {
      return 'a long base64 string';
    }
  }
  return undefined;
}

/** Every detector's pattern, compiled once with the global flag. */
const GLOBAL_PATTERNS: readonly RegExp[] = DETECTORS.map((d) => new RegExp(d.pattern.source, 'g'));
/** The shortest string any detector can match, and a cheap test most strings fail. */
const SHORTEST_MATCH = 15;
const MAYBE_SECRET = /-----BEGIN|sk-|AKIA|ASIA|gh[pousr]_|github_pat_|xox[abprs]-|AIza|eyJ/;

/** The kinds of credential shapes found in `value` (empty when none). */
export function secretKinds(value: string): string[] {
  const kinds: string[] = [];
  if (value.length < SHORTEST_MATCH || !MAYBE_SECRET.test(value)) return kinds;
  for (const [index, detector] of DETECTORS.entries()) {
    const re = GLOBAL_PATTERNS[index]!;
    re.lastIndex = 0;
    for (let m = re.exec(value); m !== null; m = re.exec(value)) {
      if (detector.accept === undefined || detector.accept(m)) {
        kinds.push(detector.kind);
        break;
      }
      if (m[0].length === 0) re.lastIndex++;
    }
  }
  return kinds;
}

function escapeSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

function toPointer(segments: readonly string[]): string {
  return segments.map((s) => `/${escapeSegment(s)}`).join('');
}

/** A readable field name: runtimeRequirements.bindings[0].ref. */
function fieldName(segments: readonly string[]): string {
  if (segments.length === 0) return 'the document';
  return segments.reduce((acc, s, i) => (/^\d+$/.test(s) ? `${acc}[${s}]` : i === 0 ? s : `${acc}.${s}`), '');
}

/** Binding and sampling-parameter fields, where pasted keys are likely and blobs are flagged too. */
function inBlobZone(segments: readonly string[]): boolean {
  const [a, b, c] = segments;
  return (a === 'runtimeRequirements' && b === 'bindings' && segments.length >= 3) || (a === 'modelSet' && c === 'samplingParams' && segments.length >= 4);
}

/** Resource ids that are long hex or UUIDs by design and are not secrets. */
function isKnownResourceId(segments: readonly string[], value: string, root: unknown): boolean {
  const [a, b, index, field] = segments;
  if (a !== 'runtimeRequirements' || b !== 'bindings' || index === undefined || segments.length !== 4) return false;
  const bindings = (root as { runtimeRequirements?: { bindings?: { kind?: string }[] } }).runtimeRequirements?.bindings;
  const kind = bindings?.[Number(index)]?.kind;
  if (kind === 'kv' && field === 'namespaceId') return /^[0-9a-f]{32}$/i.test(value);
  if (kind === 'd1' && field === 'databaseId') return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
  return false;
}

function describeKinds(kinds: readonly string[]): string {
  if (kinds.length <= 1) return kinds[0] ?? 'a secret';
  return `${kinds.slice(0, -1).join(', ')} and ${kinds[kinds.length - 1] ?? ''}`;
}

export const secretsRule: SemanticRule = {
  name: RULE,
  description: 'No string of the definition holds a literal credential (API keys, tokens, private keys, JWTs, or high-entropy blobs in bindings and sampling parameters); secrets are referenced, never inlined.',
  check(definition) {
    const findings: Finding[] = [];
    const root: unknown = definition;

    const report = (segments: readonly string[], kinds: readonly string[], what: 'value' | 'name') => {
      const field = fieldName(segments);
      findings.push({
        rule: RULE,
        path: toPointer(segments),
        redactSource: true,
        message:
          what === 'value'
            ? `${field} holds what looks like ${describeKinds(kinds)}: secrets must never appear as literals in a definition (the value is not shown).`
            : `A property name inside ${field} looks like ${describeKinds(kinds)}: secrets must never appear as literals in a definition (the name is not shown).`,
        suggestion: SECRET_SUGGESTION,
      });
    };

    const kindsOf = (segments: readonly string[], value: string): string[] => {
      const kinds = secretKinds(value);
      if (kinds.length === 0 && inBlobZone(segments) && !isKnownResourceId(segments, value, root)) {
        const blob = highEntropyBlob(value);
        if (blob !== undefined) kinds.push(`${blob} (a key or token)`);
      }
      return kinds;
    };

    // `segments` is where findings are reported. Once a property name is itself a secret, its
    // subtree is reported at the object holding it, so no path ever carries the secret.
    const walk = (value: unknown, segments: string[], redacted: boolean): void => {
      if (typeof value === 'string') {
        const kinds = kindsOf(segments, value);
        if (kinds.length > 0) report(segments, kinds, 'value');
        return;
      }
      if (Array.isArray(value)) {
        value.forEach((item, index) => walk(item, redacted ? segments : [...segments, String(index)], redacted));
        return;
      }
      if (value !== null && typeof value === 'object') {
        for (const [key, child] of Object.entries(value)) {
          const keyKinds = kindsOf([...segments, key], key);
          if (keyKinds.length > 0) {
            report(segments, keyKinds, 'name');
            walk(child, segments, true);
          } else {
            walk(child, redacted ? segments : [...segments, key], redacted);
          }
        }
      }
    };

    walk(root, [], false);
    return findings;
  },
};
