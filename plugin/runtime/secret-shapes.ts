/**
 * The one detector of secret-shaped text, shared by the definition's secret scanner (validation
 * refuses a definition holding one), the card scrubber (the public AgentCard never carries one)
 * and every other place that asks "does this look like a credential". A leaf: it imports nothing,
 * so both the portable runtime and the definition layer may use it.
 *
 * Shapes that are credentials wherever they appear:
 * - private keys: PEM headers in any case and with or without the spaces and line breaks
 *   (`-----BEGIN RSA PRIVATE KEY-----`, `-----begin private key-----`, `-----BEGINPRIVATEKEY-----`,
 *   PGP, OpenSSH, encrypted), base64 DER bodies without a header (PKCS#1, PKCS#8, SEC1, OpenSSH,
 *   by their fixed leading bytes), PuTTY key files, age secret keys;
 * - provider and registry tokens with a fixed prefix (OpenAI, Anthropic, Stripe, AWS key ids,
 *   GitHub, GitLab, Hugging Face, npm, PyPI, Docker Hub, RubyGems, SendGrid, Google, Slack,
 *   Discord, Groq, xAI, Replicate, Perplexity, DigitalOcean, Shopify, Databricks, Vault, Doppler,
 *   Postman, Sentry, Grafana, New Relic, Linear, Notion, Atlassian, Mailgun, Brevo, PlanetScale,
 *   Supabase, Mapbox, Telegram, Square), JWTs;
 * - credentials in URLs (`scheme://user:password@host`, placeholders excepted), `Authorization:`
 *   header values (Basic, Bearer, Token), `.netrc` passwords;
 * - JWK private members (`d`, `p`, `q`, `dp`, `dq`, `qi`, `k`) with a base64url value: any length
 *   when the text names a key type (`kty`, `crv`); without one, when the value has the member's
 *   shape (`d`: 43, 64, 75, 76 or 88 characters, or 160 and more; the RSA factors and exponents:
 *   80 and more; `k`: 22 and more) and looks random;
 * - assignments to a secret-named variable in dotenv, shell, YAML, JSON, properties or header
 *   form (`AWS_SECRET_ACCESS_KEY=…`, `export X_SECRET="…"`, `X_TOKEN: …`, `"apiKey": "…"`,
 *   `x-api-key: …`): the name ends in secret, token, password, passwd, pwd, api key, access key,
 *   private key, auth key, signing key, client secret or credentials (an optional `_base`,
 *   `_value` or number after it), and the value is one token of 8 to 200 characters that is not a
 *   placeholder, a reference or another name (`${X}`, `<x>`, `%X%`, `{{x}}`, `****`, `changeme`,
 *   `secrets-store://…`, `OPENAI_API_KEY`, `process.env.X`) and holds a letter and a digit, or is
 *   16 characters or more of random-looking text;
 * - AWS secret access keys: a run of exactly 40 base64 characters with lower case, upper case and
 *   digits and high entropy, either next to AWS context (the text or its field names AWS or a
 *   secret access key, or holds an AWS key id), or on its own when it also holds a `/` or `+` (the
 *   base64 characters a random 40-character key holds 72% of the time, and that identifiers,
 *   words and hex digests never hold) and reads as random (few word-like runs).
 *
 * Pure and deterministic; every pattern is linear (no nested quantifiers over the same text).
 */

export interface SecretDetector {
  kind: string;
  pattern: RegExp;
  /** Extra check on the match, to keep ordinary words out. */
  accept?: (match: RegExpExecArray) => boolean;
  /** The detector counts only in a string this also matches. */
  requires?: RegExp;
  /** The group holding the secret itself (what a scrubber replaces); the whole match when absent. */
  secretGroup?: number;
}

const hasKeyChars = (body: string) => /[0-9A-Z]/.test(body) && /[A-Za-z]/.test(body);
/** Random tokens mix classes: at least two of lower, upper, digit. */
const mixed = (body: string) => [/[a-z]/, /[A-Z]/, /[0-9]/].filter((re) => re.test(body)).length >= 2;

export function shannonEntropy(s: string): number {
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

/** Whether `s` reads as random characters rather than words or names. */
function looksRandom(s: string, minEntropy: number): boolean {
  return shannonEntropy(s) >= minEntropy && classTransitions(s) >= 0.3 && wordCoverage(s) <= 0.7;
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

/**
 * A value assigned to a secret-named variable that is not a secret: a placeholder, a reference to
 * a store or the environment, another variable's name, an expression.
 */
function isPlaceholderOrReference(value: string): boolean {
  return (
    /^[$%<{[(@*#&!~]/.test(value) ||
    value.includes('://') ||
    value.includes('(') ||
    /^[A-Z][A-Z0-9_]*$/.test(value) ||
    /^[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)+$/.test(value) ||
    /^(?:x+|X+|\.+|…|-+|_+|0+|changeme|changeit|example\w*|redacted|placeholder|dummy\w*|your\W?\w*|replace\W?me|todo|tbd|none|null|undefined|true|false|string|secret-ref|secrets?-store\S*|env:\S*|vault:\S*)$/i.test(
      value,
    ) ||
    /^(?:your|my|the|some)[-_]/i.test(value)
  );
}

/** The value of a secret-named assignment is a credential: one token, with a letter and a digit, or long and random. */
function isAssignedSecret(value: string): boolean {
  if (isPlaceholderOrReference(value)) return false;
  if (/[A-Za-z]/.test(value) && /[0-9]/.test(value)) return true;
  return value.length >= 16 && mixed(value) && looksRandom(value, 3.5);
}

/** JWK members that hold private or symmetric key material (RFC 7517/7518, RFC 8037). */
export const JWK_PRIVATE_MEMBERS: readonly string[] = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k', 'oth'];

/** JWK members in text count only inside text naming a JWK key type. */
const NAMES_KEY_TYPE = /(?<![A-Za-z0-9_])\\?["']?(?:kty|crv)\\?["']?\s*[:=]/;

/** Whether `value` has the shape of JWK member `member`'s private material (base64url of a key's size, random). */
export function hasPrivateMemberShape(member: string, value: string): boolean {
  const body = value.replace(/=+$/, '');
  if (!/^[A-Za-z0-9_-]+$/.test(body)) return false;
  const n = body.length;
  const sized =
    member === 'd'
      ? n === 43 || n === 64 || n === 75 || n === 76 || n === 88 || n >= 160
      : member === 'k'
        ? n >= 22
        : ['p', 'q', 'dp', 'dq', 'qi'].includes(member) && n >= 80;
  // Random base64url: mixed classes that change often (word runs are not held against it; short keys have many by chance).
  return sized && mixed(body) && shannonEntropy(body) >= 3.5 && classTransitions(body) >= 0.2;
}

const SECRET_NAME =
  '(?:[A-Za-z_][A-Za-z0-9_.-]{0,60}?)?(?:secret|token|passw(?:or)?d|pwd|api[_-]?key|access[_-]?key|private[_-]?key|auth[_-]?key|signing[_-]?key|credentials?)(?:[_-]?(?:base|value|\\d+))?';

/**
 * An assignment to a secret-named variable; its value is group 1. Joined by a pure call, not a
 * template, so a bundle that uses no detector drops the detectors whole.
 */
const SECRET_ASSIGNMENT = /* @__PURE__ */ '(?<![A-Za-z0-9_$.-])(?:export\\s+|set\\s+|\\$env:)?\\\\?["\']?(?:'.concat(
  SECRET_NAME,
  ')\\\\?["\']?\\s*(?:=|:(?!//))\\s*\\\\?["\']?([^\\s"\'`,;}\\]\\\\]{8,200})',
);

/**
 * Shapes that are credentials wherever they appear. Order: most specific first. Exported for the
 * property test that holds {@link secretKinds}'s shortcuts to what running every detector finds.
 */
export const SECRET_DETECTORS: readonly SecretDetector[] = [
  // Anchored at the first dash of a run, so a long run of dashes is scanned once, not once per dash.
  {
    kind: 'a private key',
    // The header, then (for a scrubber) the base64 body (lines, not words) and the END line when they follow.
    pattern:
      /(?<!-)-{2,}\s*BEGIN[A-Z0-9 ]*?PRIVATE\s*KEY(?:\s*BLOCK)?\s*-{2,}[A-Za-z0-9+/=\r\n\\]*(?:-{2,}\s*END[A-Z0-9 ]*?PRIVATE\s*KEY(?:\s*BLOCK)?\s*-{2,})?/i,
  },
  {
    kind: 'a private key',
    // The leading bytes of a DER private key, base64: PKCS#1 RSA, PKCS#8 (RSA, EC, Ed25519, X25519), SEC1 EC, OpenSSH.
    pattern:
      /(?<![A-Za-z0-9+/])(?:MII[A-Za-z0-9+/]{3}IBAAK[BC]|MII[A-Za-z0-9+/]{3}IBADAN|MIG[A-Za-z0-9+/]AgEAMBMGByqGSM49|MC4CAQAwBQYDK2V[wu]BCIEI|MHcCAQEEI|MIGkAgEBBDA|MIHcAgEBBEI|b3BlbnNzaC1rZXktdjE)[A-Za-z0-9+/]{16,}/,
  },
  { kind: 'a private key', pattern: /PuTTY-User-Key-File-\d+:\s*\S+/ },
  { kind: 'a private key', pattern: /AGE-SECRET-KEY-1[0-9A-Z]{58}/ },
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
  {
    kind: 'a provider API token',
    pattern:
      /(?<![A-Za-z0-9_])(?:gsk_[A-Za-z0-9]{40,}|xai-[A-Za-z0-9]{40,}|r8_[A-Za-z0-9]{30,}|pplx-[A-Za-z0-9]{40,}|lin_api_[A-Za-z0-9]{32,}|ntn_[A-Za-z0-9]{40,}|sbp_[a-f0-9]{40}|sb_secret_[A-Za-z0-9_-]{20,}|pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.-]{32,}|NRAK-[A-Z0-9]{27}|PMAK-[a-f0-9]{24}-[a-f0-9]{34}|glsa_[A-Za-z0-9]{32}_[a-fA-F0-9]{8}|sntry[su]_[A-Za-z0-9+/=_-]{40,}|dapi[a-f0-9]{32}|do[por]_v1_[a-f0-9]{64}|shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}|xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}|sq0(?:atp|csp)-[A-Za-z0-9_-]{22,}|ATATT3x[A-Za-z0-9_=-]{60,})(?![A-Za-z0-9])/,
    accept: (m) => mixed(m[0].replace(/^[a-z0-9]+[_-](?:[a-z0-9]+[_-])?/i, '')) || /[0-9]/.test(m[0]),
  },
  {
    kind: 'a provider API token',
    pattern:
      /(?<![A-Za-z0-9_.])(?:hv[sbr]\.[A-Za-z0-9_-]{24,}|dp\.(?:pt|st|sa|ct)\.[A-Za-z0-9]{40,}|key-[0-9a-f]{32})(?![A-Za-z0-9])/,
    accept: (m) => mixed(m[0]),
  },
  { kind: 'a Mapbox secret token', pattern: /(?<![A-Za-z0-9])sk\.eyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,}/ },
  { kind: 'a Telegram bot token', pattern: /(?<![A-Za-z0-9])\d{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])/ },
  { kind: 'a JSON Web Token', pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/ },
  {
    kind: 'a password in a URL',
    // scheme://user:password@host — the user part may be empty (`https://:token@host`).
    pattern: /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]*:\/\/([^\s/?#@:]*):([^\s/?#@]+)@(?=[^\s/?#@]*[A-Za-z0-9\]])/,
    accept: (m) => !isPlaceholderPassword(m[2] ?? ''),
    secretGroup: 2,
  },
  {
    kind: 'an Authorization header',
    pattern:
      /(?<![A-Za-z0-9-])(?:proxy-)?authorization["']?\s*[:=]\s*["']?(?:basic|bearer|token)\s+([A-Za-z0-9._~+/=-]{16,})/i,
    accept: (m) => !isPlaceholderOrReference(m[1] ?? '') && mixed(m[1] ?? ''),
    secretGroup: 1,
  },
  {
    kind: 'a password in a .netrc entry',
    pattern: /(?<![A-Za-z0-9])machine\s+\S+\s+login\s+\S+\s+password\s+(\S{6,})/,
    accept: (m) => !isPlaceholderOrReference(m[1] ?? ''),
    secretGroup: 1,
  },
  {
    kind: 'a private key (JWK)',
    // A private or symmetric member with a base64url value, in JSON or object-literal text that names a key type.
    pattern:
      /(?<![A-Za-z0-9_$])\\?["']?(?:d|p|q|dp|dq|qi|k)\\?["']?\s*[:=]\s*\\?["']?([A-Za-z0-9_-]{8,}={0,2})(?![A-Za-z0-9_-])/,
    requires: NAMES_KEY_TYPE,
    secretGroup: 1,
  },
  {
    kind: 'a private key (JWK)',
    // The same member without a key type: the value must have the member's shape. Quoted, so prose is not read as one.
    pattern:
      /(?<![A-Za-z0-9_$])\\?["']?(d|p|q|dp|dq|qi|k)\\?["']?\s*:\s*\\?["']([A-Za-z0-9_-]{22,}={0,2})\\?["'](?![A-Za-z0-9_-])/,
    accept: (m) => hasPrivateMemberShape(m[1] ?? '', m[2] ?? ''),
    secretGroup: 2,
  },
  {
    kind: 'a secret assigned to a secret-named variable',
    pattern: /* @__PURE__ */ new RegExp(SECRET_ASSIGNMENT, 'i'),
    accept: (m) => isAssignedSecret(m[1] ?? ''),
    secretGroup: 1,
  },
];

/** An AWS secret access key: 40 base64 characters, in a string that names AWS or a secret access key, or under such a field. */
const AWS_CONTEXT = /aws|secret_?access_?key|secretaccesskey|(?<![A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}/i;
const AWS_SECRET = /(?<![A-Za-z0-9/+])([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/g;
export const AWS_SECRET_KIND = 'an AWS secret access key';
/** The length of an AWS secret access key: shorter strings need no field name for context. */
export const AWS_SECRET_LENGTH = 40;

/** The [start, end) of each AWS secret access key in `value`, with context (`inContext`) or on its own. */
function awsSecretSpans(value: string, inContext: boolean): [number, number][] {
  const spans: [number, number][] = [];
  AWS_SECRET.lastIndex = 0;
  for (let m = AWS_SECRET.exec(value); m !== null; m = AWS_SECRET.exec(value)) {
    const body = m[1] ?? '';
    if (!(/[a-z]/.test(body) && /[A-Z]/.test(body) && /[0-9]/.test(body) && shannonEntropy(body) >= 4)) continue;
    // On its own: a / or + and random-looking (99.97% of random 40-character keys that hold a / or + pass).
    const bare = /[/+]/.test(body) && looksRandom(body, 4.2);
    if (inContext || bare) spans.push([m.index, m.index + body.length]);
  }
  return spans;
}

/** Every detector's pattern, compiled once with the global flag (pure: a bundle that uses no detector drops them). */
const GLOBAL_PATTERNS: readonly RegExp[] = /* @__PURE__ */ SECRET_DETECTORS.map(
  (d) => new RegExp(d.pattern.source, `${d.pattern.flags}g`),
);
/** The same patterns without the global or sticky flag: `test` then keeps no state between strings (pure, as above). */
const PLAIN_PATTERNS: readonly RegExp[] = /* @__PURE__ */ SECRET_DETECTORS.map(
  (d) => new RegExp(d.pattern.source, d.pattern.flags.replace(/[gy]/g, '')),
);
/**
 * The shortest string any detector can match, and a cheap test most strings fail: a fragment every
 * match of some detector holds (a PEM header may put spaces or a line break between its dashes and
 * BEGIN). secrets-prefilter.property.test.ts holds both to what running every detector finds.
 */
export const SHORTEST_MATCH = 8;
const MAYBE_SECRET =
  /BEGIN|MI[IGH]|MHcC|MC4C|b3BlbnNzaC1|PuTTY|AGE-|sk-|sk_|rk_|whsec_|AKIA|ASIA|gh[pousr]_|github_pat_|gl[a-z]{1,6}-|hf_|npm_|pypi-|dckr_|rubygems_|SG\.|ya29\.|GOCSPX-|1\/\/0|hooks\.slack|xox[abprse]-|xapp-|webhooks|AIza|gsk_|xai-|r8_|pplx-|lin_api_|ntn_|sbp_|sb_secret_|pscale_|NRAK-|PMAK-|glsa_|sntry|dapi|_v1_|shp|xkeysib-|sq0|ATATT|hv[sbr]\.|dp\.|key-|sk\.eyJ|:AA|eyJ|:\/\/|authorization|machine|kty|crv|[dpqki]\\?["']?\s*:|secret|token|passw|pwd|key|credential/i;

/** One found shape: its kind and the [start, end) of the secret itself (what a scrubber replaces). */
export interface SecretShape {
  kind: string;
  start: number;
  end: number;
}

function shapesIn(value: string, field: string, firstOnly: boolean): SecretShape[] {
  const found: SecretShape[] = [];
  if (value.length < SHORTEST_MATCH) return found;
  if (MAYBE_SECRET.test(value)) {
    for (let index = 0; index < SECRET_DETECTORS.length; index++) {
      const detector = SECRET_DETECTORS[index]!;
      if (detector.requires !== undefined && !detector.requires.test(value)) continue;
      // Most strings match no detector: a plain `test` (no match object, no lastIndex) says so; the
      // global pattern, from the start, then finds exactly the matches it would find anyway.
      if (!PLAIN_PATTERNS[index]!.test(value)) continue;
      const re = GLOBAL_PATTERNS[index]!;
      re.lastIndex = 0;
      for (let m = re.exec(value); m !== null; m = re.exec(value)) {
        if (detector.accept === undefined || detector.accept(m)) {
          const group = detector.secretGroup === undefined ? m[0] : (m[detector.secretGroup] ?? m[0]);
          // The group is the match's last part that equals it (each detector's group ends its match or precedes `@`).
          const start = detector.secretGroup === undefined ? m.index : m.index + m[0].lastIndexOf(group);
          found.push({ kind: detector.kind, start, end: start + group.length });
          if (firstOnly) break;
        }
        if (m[0].length === 0) re.lastIndex++;
      }
    }
  }
  if (value.length >= AWS_SECRET_LENGTH) {
    const inContext = AWS_CONTEXT.test(field) || AWS_CONTEXT.test(value);
    for (const [start, end] of awsSecretSpans(value, inContext)) {
      found.push({ kind: AWS_SECRET_KIND, start, end });
      if (firstOnly) break;
    }
  }
  return found;
}

/**
 * The kinds of credential shapes found in `value` (empty when none), each once, in detector order.
 * `field` is where the value sits (a dotted path); it gives context to shapes that only count next
 * to a name, such as an AWS secret access key under `aws_secret_access_key`.
 */
export function secretKinds(value: string, field = ''): string[] {
  const shapes = shapesIn(value, field, true);
  return shapes.length === 0 ? [] : [...new Set(shapes.map((s) => s.kind))];
}

/** Every credential shape in `value`, with the span of its secret part. */
export function secretShapes(value: string, field = ''): SecretShape[] {
  return shapesIn(value, field, false);
}

/** `value` with the secret part of every credential shape replaced by `replacement` (overlapping spans merged). */
export function withoutSecretShapes(value: string, replacement: string): string {
  const shapes = shapesIn(value, '', false).sort((a, b) => a.start - b.start);
  if (shapes.length === 0) return value;
  let out = '';
  let done = 0;
  for (let i = 0; i < shapes.length; ) {
    const first = shapes[i++]!;
    let end = first.end;
    for (; i < shapes.length && (shapes[i]?.start ?? 0) <= end; i++) end = Math.max(end, shapes[i]?.end ?? 0);
    out += value.slice(done, first.start) + replacement;
    done = end;
  }
  return out + value.slice(done);
}

/**
 * Whether `value` is a JWK object holding private or symmetric key material: a private member
 * next to a key type (`kty` or `crv`), or, without one, a private member whose value has that
 * member's shape.
 */
export function isPrivateJwk(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  const typed = typeof record['kty'] === 'string' || typeof record['crv'] === 'string';
  return JWK_PRIVATE_MEMBERS.some((m) => {
    if (!Object.hasOwn(record, m)) return false;
    const member = record[m];
    if (typed) return member !== undefined && member !== null && member !== '';
    return typeof member === 'string' && hasPrivateMemberShape(m, member);
  });
}
