/**
 * Secrets never appear as literals. Every string of the definition (values and property names, at
 * any depth, in every field) is scanned for credential shapes with the one detector the runtime's
 * card scrubber also uses (plugin/runtime/secret-shapes.ts: provider and registry tokens, private
 * keys in PEM, DER or JWK form, JWTs, credentials in URLs and headers, assignments to secret-named
 * variables, AWS secret access keys), and JWK objects with private members are found anywhere in
 * the document. Binding fields and sampling parameters, where a pasted key is most likely, are
 * also scanned for long high-entropy base64 or hex strings. Findings name the field and the kind of
 * secret, never the value or any part of it.
 */
import {
  AWS_SECRET_LENGTH,
  JWK_PRIVATE_MEMBERS,
  SHORTEST_MATCH,
  highEntropyBlob,
  isPrivateJwk,
  secretKinds,
} from '../../runtime/secret-shapes';
import { AGENT_DEFINITION_WORDS } from '../../schema/generated/agent-definition.words';
import type { Finding } from '../diagnostic';
import type { SemanticRule } from './rule';

export {
  type SecretDetector,
  SECRET_DETECTORS,
  highEntropyBlob,
  isPrivateJwk,
  JWK_PRIVATE_MEMBERS,
  secretKinds,
} from '../../runtime/secret-shapes';

export const SECRETS_RULE = 'secrets';
const RULE = SECRETS_RULE;

export const SECRET_SUGGESTION =
  "Remove the literal and store the value in a secret store and reference it, e.g. {kind: 'secret-ref', name, ref: 'secrets-store://team/name'}; then rotate the exposed credential.";

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

const NONE: readonly string[] = [];

/** The shortest token {@link highEntropyBlob} considers: a shorter string is never a blob. */
const SHORTEST_BLOB = 32;

let cleanSchemaWords: ReadonlySet<string> | undefined;

/**
 * The schema's own words (property names, enum and const strings: most strings of a valid
 * definition) that the scan would find nothing in, wherever they sit: no detector matches them,
 * and they are too short to be a blob or an AWS secret access key, the only checks that depend on
 * the field. Skipping them changes no finding; it is what keeps the scan near the schema's speed.
 * Computed on first use, by the detector itself.
 */
export function secretFreeSchemaWords(): ReadonlySet<string> {
  cleanSchemaWords ??= new Set(
    AGENT_DEFINITION_WORDS.filter((word) => word.length < SHORTEST_BLOB && secretKinds(word).length === 0),
  );
  return cleanSchemaWords;
}

const PRIVATE_MEMBER_NAMES: ReadonlySet<string> = new Set(JWK_PRIVATE_MEMBERS);
const LONGEST_PRIVATE_MEMBER = Math.max(...JWK_PRIVATE_MEMBERS.map((m) => m.length));

/**
 * Whether an object's own names include a JWK private member: {@link isPrivateJwk} is false
 * without one. The names are already in hand for the walk, and a parsed document's properties are
 * all enumerable own ones, so this spares most objects its member-by-member lookups.
 */
function namesPrivateJwkMember(keys: readonly string[]): boolean {
  for (const key of keys) if (key.length <= LONGEST_PRIVATE_MEMBER && PRIVATE_MEMBER_NAMES.has(key)) return true;
  return false;
}

function describeKinds(kinds: readonly string[]): string {
  if (kinds.length <= 1) return kinds[0] ?? 'a secret';
  return `${kinds.slice(0, -1).join(', ')} and ${kinds[kinds.length - 1] ?? ''}`;
}

/**
 * Findings for every literal credential in a JSON value: each string and property name at any
 * depth. `where` names the document in messages ("a definition", "tools.json"). Messages name the
 * kind only, never the value, and every finding hides its source line. `found` is told each
 * string, property name and private JWK member that was reported (findings-without-secrets.ts
 * keeps them out of other rules' messages).
 */
export function secretFindings(
  root: unknown,
  where = 'a definition',
  found: (secret: string) => void = () => {},
): Finding[] {
  const findings: Finding[] = [];
  const clean = secretFreeSchemaWords();

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

  // No detector, nor a blob, matches so short a string or a clean schema word: skip it unscanned.
  const unscanned = (value: string): boolean => value.length < SHORTEST_MATCH || clean.has(value);
  const kindsOf = (segments: readonly string[], value: string): string[] => {
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
      if (unscanned(value)) return;
      const kinds = kindsOf(segments, value);
      if (kinds.length > 0) {
        report(segments, kinds, 'value');
        found(value);
      }
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
      const keys = Object.keys(value);
      if (namesPrivateJwkMember(keys) && isPrivateJwk(value)) {
        // Reported at the private member (or the object, inside a redacted subtree), and once.
        const member = JWK_PRIVATE_MEMBERS.find((m) => Object.hasOwn(value, m)) ?? '';
        for (const m of JWK_PRIVATE_MEMBERS) {
          const material = (value as Record<string, unknown>)[m];
          if (Object.hasOwn(value, m) && typeof material === 'string') found(material);
        }
        findings.push({
          rule: RULE,
          path: toPointer(redacted ? segments : [...segments, member]),
          redactSource: true,
          message: `${fieldName(segments)} is a JSON Web Key with private key material (${JWK_PRIVATE_MEMBERS.filter((m) => Object.hasOwn(value, m)).join(', ')}): private keys must never appear in ${where} (the value is not shown).`,
          suggestion: SECRET_SUGGESTION,
        });
      }
      for (const key of keys) {
        const child = (value as Record<string, unknown>)[key];
        let keyKinds = NONE;
        if (!unscanned(key)) {
          segments.push(key);
          keyKinds = kindsOf(segments, key);
          segments.pop();
        }
        if (keyKinds.length > 0) {
          report(segments, keyKinds, 'name');
          found(key);
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
