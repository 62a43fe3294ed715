/**
 * No diagnostic quotes a secret. The `secrets` rule names the kind of a literal credential, never
 * its value; other rules may quote what they compare (an exported AgentFacts' label against
 * `identity.name`, a URL, a name), and when that text is the credential the secrets rule found,
 * the quote would print it. So, when the secrets rule reported anything, every other finding's
 * message and suggestion has each reported secret, whole and its secret parts, replaced by
 * `[redacted]` (as written, JSON-escaped or percent-encoded, in any ASCII case, and any credential
 * shape besides), a JSON Pointer through a secret name stops at the object holding it, and the
 * source line is hidden (the line may hold the secret). A definition without a secret pays one
 * scan of the findings.
 */
import { secretKinds, secretShapes, withoutSecretShapes } from '../runtime/secret-shapes';
import type { Finding } from './diagnostic';
import { SECRETS_RULE, secretFindings } from './rules/secrets';

const REDACTED = '[redacted]';
/** Shorter texts are not searched for: they would redact ordinary words. No detector or blob is this short. */
const SHORTEST_SECRET = 6;

const foldAscii = (text: string) => text.replace(/[A-Z]+/g, (run) => run.toLowerCase());

interface Redactor {
  text(text: string): string;
  leaks(text: string): boolean;
}

function redactorOf(secrets: ReadonlySet<string>): Redactor {
  const forms = new Set<string>();
  for (const secret of secrets)
    for (const form of [secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)])
      if (form.length >= SHORTEST_SECRET) forms.add(foldAscii(form));
  // Longest first: a form that holds another is replaced whole.
  const folded = [...forms].sort((a, b) => b.length - a.length);
  const spans = (text: string): [number, number][] => {
    const haystack = foldAscii(text);
    const found: [number, number][] = [];
    for (const form of folded)
      for (let at = haystack.indexOf(form); at >= 0; at = haystack.indexOf(form, at + form.length))
        found.push([at, at + form.length]);
    return found.sort((a, b) => a[0] - b[0]);
  };
  return {
    text(text) {
      let out = '';
      let done = 0;
      for (const [start, end] of spans(text)) {
        if (end <= done) continue;
        out += text.slice(done, Math.max(start, done)) + (start >= done ? REDACTED : '');
        done = end;
      }
      return withoutSecretShapes(out + text.slice(done), REDACTED);
    },
    leaks: (text) => spans(text).length > 0 || secretKinds(text).length > 0,
  };
}

/**
 * The pointer cut before its first segment that holds a secret: the finding is reported at the
 * object holding that name, as the secrets rule reports a secret name's subtree (still a pointer
 * into the document, so the diagnostic keeps a line and column).
 */
function pointerWithout(pointer: string, leaks: (text: string) => boolean): string {
  const segments = pointer.split('/');
  const first = segments.findIndex((segment) => leaks(segment.replaceAll('~1', '/').replaceAll('~0', '~')));
  return first === -1 ? pointer : segments.slice(0, first).join('/');
}

export function findingsWithoutSecrets(findings: Finding[], definition: unknown): Finding[] {
  if (!findings.some((f) => f.rule === SECRETS_RULE)) return findings;
  const secrets = new Set<string>();
  secretFindings(definition, 'a definition', (text) => {
    secrets.add(text);
    // …and its secret parts alone (a URL's password, an assignment's value), which a message may quote by themselves.
    for (const shape of secretShapes(text)) secrets.add(text.slice(shape.start, shape.end));
  });
  const redactor = redactorOf(secrets);
  return findings.map((finding) => {
    if (finding.rule === SECRETS_RULE) return finding;
    const out: Finding = {
      ...finding,
      path: pointerWithout(finding.path, redactor.leaks),
      message: redactor.text(finding.message),
      redactSource: true,
    };
    if (finding.suggestion !== undefined) out.suggestion = redactor.text(finding.suggestion);
    return out;
  });
}
