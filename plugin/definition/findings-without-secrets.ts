/**
 * No diagnostic quotes a secret. The `secrets` rule names the kind of a literal credential, never
 * its value; other rules may quote what they compare (an exported AgentFacts' label against
 * `identity.name`, a URL, a name), and when that text is the credential the secrets rule found,
 * the quote would print it. So, when the secrets rule reported anything, every other finding's
 * message and suggestion has each reported secret, whole and its secret parts, replaced by
 * `[redacted]` in every form the runtime's redactor knows (escaped, encoded, any ASCII case;
 * redact.ts), and any credential shape besides; a JSON Pointer through a secret name stops at the
 * object holding it, and the source line is hidden (the line may hold the secret). A definition
 * without a secret pays one scan of the findings.
 */
import { createRedactor, REDACTED } from '../runtime/redact';
import { secretKinds, secretShapes, withoutSecretShapes } from '../runtime/secret-shapes';
import type { Finding } from './diagnostic';
import { SECRETS_RULE, secretFindings } from './rules/secrets';

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
  const redactor = createRedactor();
  secretFindings(definition, 'a definition', (text) => {
    redactor.add(text);
    // …and its secret parts alone (a URL's password, an assignment's value), which a message may quote by themselves.
    for (const shape of secretShapes(text)) redactor.add(text.slice(shape.start, shape.end));
  });
  const redacted = (text: string) => withoutSecretShapes(redactor.text(text), REDACTED);
  const leaks = (text: string) => redactor.leaks(text) || secretKinds(text).length > 0;
  return findings.map((finding) => {
    if (finding.rule === SECRETS_RULE) return finding;
    const out: Finding = {
      ...finding,
      path: pointerWithout(finding.path, leaks),
      message: redacted(finding.message),
      redactSource: true,
    };
    if (finding.suggestion !== undefined) out.suggestion = redacted(finding.suggestion);
    return out;
  });
}
