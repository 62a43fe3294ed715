/**
 * Secrets never appear as literals. Every string of the definition (values and property names, at
 * any depth, in every field) is scanned for unmistakable credential shapes: provider and registry
 * tokens, PEM private keys, JWTs, credentials in URLs (`scheme://user:password@host`), JWKs with
 * private members (as objects anywhere in the document or as JSON text inside a string), and AWS
 * secret access keys (40 base64 characters next to an AWS name). Binding fields and sampling
 * parameters, where a pasted key is most likely, are also scanned for long high-entropy base64 or
 * hex strings. Findings name the field and the kind of secret, never the value or any part of it.
 */
import type { Finding } from '../diagnostic';
import type { SemanticRule } from './rule';

const RULE = 'secrets';

export const SECRET_SUGGESTION =
  "Remove the literal and store the value in a secret store and reference it, e.g. {kind: 'secret-ref', name, ref: 'secrets-store://team/name'}; then rotate the exposed credential.";

export interface SecretDetector {
  kind: string;
  pattern: RegExp;
  /** Extra check on the match, to keep ordinary words out. */
  accept?: (match: RegExpExecArray) => boolean;
  /** The detector counts only in a string this also matches. */
  requires?: RegExp;
}

const hasKeyChars = (body: string) => /[0-9A-Z]/.test(body) && /[A-Za-z]/.test(body);
/** Random tokens mix classes: at least two of lower, upper, digit. */
const mixed = (body: string) => [/[a-z]/, /[A-Z]/, /[0-9]/].filter((re) => re.test(body)).length >= 2;

/** A password in a URL that is a placeholder, not a value: `${VAR}`, `{{var}}`, `<password>`, `%VAR%`, `****`, `xxx`. */
function isPlaceholderPassword(password: string): boolean {
  let p = password;
  try {
    p = decodeURIComponent(password);
  } catch {
    // keep it as written
  }
  return /^(?:\$\{[^}]*\}|\$[A-Za-z_][A-Za-z0-9_]*|\{\{[^}]*\}\}|<[^>]*>|%[A-Za-z_][A-Za-z0-9_]*%|\*+|x+|X+|\.\.\.|…|password|passwd|pass|secret|token|changeme)$/i.test(
    p,
  );
}

/** JWK members that hold private or symmetric key material (RFC 7517/7518, RFC 8037). */
export const JWK_PRIVATE_MEMBERS: readonly string[] = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k', 'oth'];

/** JWK members in text count only inside text naming a JWK key type. */
const NAMES_KEY_TYPE = /(?<![A-Za-z0-9_])\\?["']?(?:kty|crv)\\?["']?\s*[:=]/;

/**
 * Shapes that are credentials wherever they appear. Order: most specific first. Exported for the
 * property test that holds {@link secretKinds}'s shortcuts to what running every detector finds.
 */
export const SECRET_DETECTORS: readonly SecretDetector[] = [
  // Anchored at the first dash of a run, so a long run of dashes is scanned once, not once per dash.
  { kind: 'a private key', pattern: /(?<!-)-{2,}\s*BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?\s*-{2,}/ },
  {
    kind: 'an Anthropic API key',
    pattern: /(?<![A-Za-z0-9])sk-ant-([A-Za-z0-9_-]{16,})/,
    accept: (m) => hasKeyChars(m[1] ?? ''),
  },
  {
    kind: 'an OpenAI API key',
    pattern: /(?<![A-Za-z0-9])sk-(?!ant-)(?:proj-|svcacct-|admin-)?([A-Za-z0-9_-]{16,})/,
    accept: (m) => hasKeyChars(m[1] ?? ''),
  },
  {
    kind: 'a Stripe secret key',
    pattern: /(?<![A-Za-z0-9])(?:sk|rk)_(?:live|test)_([0-9A-Za-z]{16,})/,
    accept: (m) => mixed(m[1] ?? ''),
  },
  { kind: 'a Stripe webhook secret', pattern: /(?<![A-Za-z0-9])whsec_[0-9A-Za-z+/]{24,}/ },
  { kind: 'an AWS access key id', pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![0-9A-Za-z])/ },
  { kind: 'a GitHub token', pattern: /(?<![A-Za-z0-9])(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})/ },
  {
    kind: 'a GitLab token',
    pattern: /(?<![A-Za-z0-9])(?:glpat|gldt|glptt|glrt|glcbt|gloas|glsoat|glimt|glft|glagent)-([A-Za-z0-9_-]{20,})/,
    accept: (m) => mixed(m[1] ?? ''),
  },
  {
    kind: 'a Hugging Face token',
    pattern: /(?<![A-Za-z0-9_])hf_([A-Za-z0-9]{30,})(?![A-Za-z0-9])/,
    accept: (m) => mixed(m[1] ?? ''),
  },
  {
    kind: 'an npm token',
    pattern: /(?<![A-Za-z0-9_])npm_([A-Za-z0-9]{36})(?![A-Za-z0-9])/,
    accept: (m) => mixed(m[1] ?? ''),
  },
  { kind: 'a PyPI token', pattern: /(?<![A-Za-z0-9])pypi-AgE[A-Za-z0-9_-]{50,}/ },
  { kind: 'a Docker Hub token', pattern: /(?<![A-Za-z0-9])dckr_pat_[A-Za-z0-9_-]{24,}/ },
  { kind: 'a RubyGems API key', pattern: /(?<![A-Za-z0-9])rubygems_[0-9a-f]{48}(?![0-9a-f])/ },
  { kind: 'a SendGrid API key', pattern: /(?<![A-Za-z0-9])SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{30,64}/ },
  {
    kind: 'a Google OAuth token',
    pattern: /(?<![A-Za-z0-9])ya29\.([0-9A-Za-z_-]{20,})/,
    accept: (m) => mixed(m[1] ?? ''),
  },
  { kind: 'a Google OAuth client secret', pattern: /(?<![A-Za-z0-9])GOCSPX-[0-9A-Za-z_-]{20,}/ },
  { kind: 'a Google OAuth refresh token', pattern: /(?<![A-Za-z0-9/])1\/\/0[0-9A-Za-z_-]{40,}/ },
  {
    kind: 'a Slack webhook URL',
    pattern: /hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_-]{6,}\/[A-Za-z0-9_/-]{8,}/,
  },
  { kind: 'a Slack token', pattern: /(?<![A-Za-z0-9])(?:xox[abprse]-[A-Za-z0-9-]{10,}|xapp-\d-[A-Za-z0-9-]{10,})/ },
  { kind: 'a Discord webhook URL', pattern: /discord(?:app)?\.com\/api\/webhooks\/\d{5,}\/[A-Za-z0-9_-]{20,}/ },
  { kind: 'a Google API key', pattern: /(?<![A-Za-z0-9])AIza[0-9A-Za-z_-]{35}/ },
  { kind: 'a JSON Web Token', pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/ },
  {
    kind: 'a password in a URL',
    // scheme://user:password@host — the user part may be empty (`https://:token@host`).
    pattern: /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]*:\/\/([^\s/?#@:]*):([^\s/?#@]+)@(?=[^\s/?#@]*[A-Za-z0-9\]])/,
    accept: (m) => !isPlaceholderPassword(m[2] ?? ''),
  },
  {
    kind: 'a private key (JWK)',
    // A private or symmetric member with a base64url value, in JSON or object-literal text that names a key type.
    pattern:
      /(?<![A-Za-z0-9_$])\\?["']?(?:d|p|q|dp|dq|qi|k)\\?["']?\s*[:=]\s*\\?["']?([A-Za-z0-9_-]{8,}={0,2})(?![A-Za-z0-9_-])/,
    requires: NAMES_KEY_TYPE,
  },
];

/** An AWS secret access key: 40 base64 characters, in a string that names AWS or a secret access key, or under such a field. */
const AWS_CONTEXT = /aws|secret_?access_?key|secretaccesskey/i;
const AWS_SECRET = /(?<![A-Za-z0-9/+=])([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/g;
const AWS_SECRET_KIND = 'an AWS secret access key';
/** The length of an AWS secret access key: shorter strings need no field name for context. */
const AWS_SECRET_LENGTH = 40;

function hasAwsSecret(value: string): boolean {
  AWS_SECRET.lastIndex = 0;
  for (let m = AWS_SECRET.exec(value); m !== null; m = AWS_SECRET.exec(value)) {
    const body = m[1] ?? '';
    if (/[a-z]/.test(body) && /[A-Z]/.test(body) && /[0-9]/.test(body) && shannonEntropy(body) >= 4) return true;
  }
  return false;
}

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
    if (
      /[a-z]/.test(t) &&
      /[A-Z]/.test(t) &&
      (/[0-9]/.test(t) || t.length >= 40) &&
      shannonEntropy(t) >= 3.8 &&
      classTransitions(t) >= 0.35 &&
      wordCoverage(t) <= 0.7
    ) {
      return 'a long base64 string';
    }
  }
  return undefined;
}

/** Every detector's pattern, compiled once with the global flag. */
const GLOBAL_PATTERNS: readonly RegExp[] = SECRET_DETECTORS.map((d) => new RegExp(d.pattern.source, 'g'));
/**
 * The shortest string any detector can match, and a cheap test most strings fail: a fragment every
 * match of some detector holds (a PEM header may put spaces or a line break between its dashes and
 * BEGIN). secrets-prefilter.property.test.ts holds both to what running every detector finds.
 */
const SHORTEST_MATCH = 8;
const MAYBE_SECRET =
  /BEGIN|sk-|sk_|rk_|whsec_|AKIA|ASIA|gh[pousr]_|github_pat_|gl[a-z]{1,6}-|hf_|npm_|pypi-|dckr_|rubygems_|SG\.|ya29\.|GOCSPX-|1\/\/0|hooks\.slack|xox[abprse]-|xapp-|webhooks|AIza|eyJ|:\/\/|kty|crv/;

/**
 * The kinds of credential shapes found in `value` (empty when none). `field` is where the value
 * sits (a dotted path); it gives context to shapes that only count next to a name, such as an AWS
 * secret access key under `aws_secret_access_key`.
 */
export function secretKinds(value: string, field = ''): string[] {
  const kinds: string[] = [];
  if (value.length < SHORTEST_MATCH) return kinds;
  if (MAYBE_SECRET.test(value)) {
    for (const [index, detector] of SECRET_DETECTORS.entries()) {
      if (detector.requires !== undefined && !detector.requires.test(value)) continue;
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
  }
  if (value.length >= AWS_SECRET_LENGTH && (AWS_CONTEXT.test(field) || AWS_CONTEXT.test(value)) && hasAwsSecret(value))
    kinds.push(AWS_SECRET_KIND);
  return kinds;
}

/** Whether `value` is a JWK object holding private or symmetric key material. */
export function isPrivateJwk(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  if (typeof record['kty'] !== 'string' && typeof record['crv'] !== 'string') return false;
  return JWK_PRIVATE_MEMBERS.some(
    (m) => Object.hasOwn(record, m) && record[m] !== undefined && record[m] !== null && record[m] !== '',
  );
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
  return (
    (a === 'runtimeRequirements' && b === 'bindings' && segments.length >= 3) ||
    (a === 'modelSet' && c === 'samplingParams' && segments.length >= 4)
  );
}

/** Resource ids that are long hex or UUIDs by design and are not secrets. */
function isKnownResourceId(segments: readonly string[], value: string, root: unknown): boolean {
  const [a, b, index, field] = segments;
  if (a !== 'runtimeRequirements' || b !== 'bindings' || index === undefined || segments.length !== 4) return false;
  const bindings = (root as { runtimeRequirements?: { bindings?: { kind?: string }[] } }).runtimeRequirements?.bindings;
  const kind = bindings?.[Number(index)]?.kind;
  if (kind === 'kv' && field === 'namespaceId') return /^[0-9a-f]{32}$/i.test(value);
  if (kind === 'd1' && field === 'databaseId')
    return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
  return false;
}

function describeKinds(kinds: readonly string[]): string {
  if (kinds.length <= 1) return kinds[0] ?? 'a secret';
  return `${kinds.slice(0, -1).join(', ')} and ${kinds[kinds.length - 1] ?? ''}`;
}

/**
 * Findings for every literal credential in a JSON value: each string and property name at any
 * depth. `where` names the document in messages ("a definition", "tools.json"). Messages name the
 * kind only, never the value, and every finding hides its source line.
 */
export function secretFindings(root: unknown, where = 'a definition'): Finding[] {
  const findings: Finding[] = [];

  const report = (segments: readonly string[], kinds: readonly string[], what: 'value' | 'name') => {
    const field = fieldName(segments);
    findings.push({
      rule: RULE,
      path: toPointer(segments),
      redactSource: true,
      message:
        what === 'value'
          ? `${field} holds what looks like ${describeKinds(kinds)}: secrets must never appear as literals in ${where} (the value is not shown).`
          : `A property name inside ${field} looks like ${describeKinds(kinds)}: secrets must never appear as literals in ${where} (the name is not shown).`,
      suggestion: SECRET_SUGGESTION,
    });
  };

  const kindsOf = (segments: readonly string[], value: string): string[] => {
    // No detector, nor a blob, matches so short a string: skip naming its field.
    if (value.length < SHORTEST_MATCH) return [];
    const kinds = secretKinds(value, value.length >= AWS_SECRET_LENGTH ? fieldName(segments) : '');
    if (kinds.length === 0 && inBlobZone(segments) && !isKnownResourceId(segments, value, root)) {
      const blob = highEntropyBlob(value);
      if (blob !== undefined) kinds.push(`${blob} (a key or token)`);
    }
    return kinds;
  };

  // `segments` is where findings are reported: one stack, pushed and popped as the walk goes
  // (findings copy what they need). Once a property name is itself a secret, its subtree is
  // reported at the object holding it, so no path ever carries the secret.
  const segments: string[] = [];
  const walk = (value: unknown, redacted: boolean): void => {
    if (typeof value === 'string') {
      const kinds = kindsOf(segments, value);
      if (kinds.length > 0) report(segments, kinds, 'value');
      return;
    }
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        if (!redacted) segments.push(String(index));
        walk(value[index], redacted);
        if (!redacted) segments.pop();
      }
      return;
    }
    if (value !== null && typeof value === 'object') {
      if (isPrivateJwk(value)) {
        // Reported at the private member (or the object, inside a redacted subtree), and once.
        const member = JWK_PRIVATE_MEMBERS.find((m) => Object.hasOwn(value, m)) ?? '';
        findings.push({
          rule: RULE,
          path: toPointer(redacted ? segments : [...segments, member]),
          redactSource: true,
          message: `${fieldName(segments)} is a JSON Web Key with private key material (${JWK_PRIVATE_MEMBERS.filter((m) => Object.hasOwn(value, m)).join(', ')}): private keys must never appear in ${where} (the value is not shown).`,
          suggestion: SECRET_SUGGESTION,
        });
      }
      for (const key of Object.keys(value)) {
        const child = (value as Record<string, unknown>)[key];
        segments.push(key);
        const keyKinds = kindsOf(segments, key);
        segments.pop();
        if (keyKinds.length > 0) {
          report(segments, keyKinds, 'name');
          walk(child, true);
        } else {
          if (!redacted) segments.push(key);
          walk(child, redacted);
          if (!redacted) segments.pop();
        }
      }
    }
  };

  walk(root, false);
  return findings;
}

export const secretsRule: SemanticRule = {
  name: RULE,
  description:
    'No string of the definition holds a literal credential (API keys and tokens of providers and registries, private keys in PEM or JWK form, JWTs, passwords in URLs, or high-entropy blobs in bindings and sampling parameters); secrets are referenced, never inlined.',
  check(definition) {
    return secretFindings(definition);
  },
};
