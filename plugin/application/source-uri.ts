/**
 * Source URIs of application manifests and component packs: inert, local identities, never
 * locations to fetch. Exactly three forms are accepted, each made of segments
 * SEG = `[a-z0-9]+(?:[._-][a-z0-9]+)*`:
 *
 * - `workspace:/SEG(/SEG)*`  a file of the workspace, by its path;
 * - `kgdoc:SEG(/SEG)*`        a knowledge-graph document;
 * - `urn:agentdef:SEG(:SEG)*` a name, whose first segment is not a network scheme
 *                             (`http`, `https`, `file`, `ftp`, `ws`, `wss`).
 *
 * So there is no authority (`workspace://host`), no nested scheme (`kgdoc:https://…`,
 * `urn:agentdef:http:evil`), no dot segment, no empty segment, no leading, trailing or consecutive
 * punctuation, no tilde, no uppercase, no whitespace or control character, no percent-encoding, no
 * query and no fragment. The decision is the grammar alone; the reasons name the first rule broken,
 * at a code-unit offset, quoting at most a short, escaped excerpt that ends at the offending place
 * (never the rest of the string, where a mistaken credential would sit).
 */

export type SourceUriScheme = 'workspace' | 'kgdoc' | 'urn';
export type SourceUriCheck =
  | { readonly ok: true; readonly scheme: SourceUriScheme }
  | { readonly ok: false; readonly reason: string };

/** Longest source URI accepted, in UTF-16 code units: an identity, not a document. */
export const SOURCE_URI_MAX_LENGTH = 2048;

/** First segments a `urn:agentdef:` URI may not have: they would read as a network location. */
export const NETWORK_URN_SEGMENTS: readonly string[] = ['http', 'https', 'file', 'ftp', 'ws', 'wss'];

const SEGMENT = '[a-z0-9]+(?:[._-][a-z0-9]+)*';

interface Form {
  readonly scheme: SourceUriScheme;
  /** Everything before the first segment. */
  readonly prefix: string;
  /** Between two segments. */
  readonly separator: '/' | ':';
  readonly grammar: RegExp;
}

const FORMS: readonly Form[] = [
  {
    scheme: 'workspace',
    prefix: 'workspace:/',
    separator: '/',
    grammar: new RegExp(`^workspace:/${SEGMENT}(?:/${SEGMENT})*$`),
  },
  { scheme: 'kgdoc', prefix: 'kgdoc:', separator: '/', grammar: new RegExp(`^kgdoc:${SEGMENT}(?:/${SEGMENT})*$`) },
  {
    scheme: 'urn',
    prefix: 'urn:agentdef:',
    separator: ':',
    grammar: new RegExp(`^urn:agentdef:${SEGMENT}(?::${SEGMENT})*$`),
  },
];

/** Checks `uri` against the source-URI grammar; never throws. */
export function checkSourceUri(uri: unknown): SourceUriCheck {
  if (typeof uri !== 'string') return { ok: false, reason: `a source URI must be a string, not ${kindOf(uri)}` };
  if (uri.length === 0) return { ok: false, reason: 'a source URI must not be empty' };
  if (uri.length > SOURCE_URI_MAX_LENGTH)
    return {
      ok: false,
      reason: `a source URI must be at most ${SOURCE_URI_MAX_LENGTH} characters long, this one has ${uri.length}`,
    };
  if (uri.startsWith('workspace://'))
    return refuse(uri, 'workspace://'.length - 1, 'an authority (workspace://host, where workspace:/path is meant)');
  const form = FORMS.find((candidate) => uri.startsWith(candidate.prefix));
  if (form === undefined) return { ok: false, reason: prefixReason(uri) };
  if (form.grammar.test(uri)) {
    if (form.scheme !== 'urn') return { ok: true, scheme: form.scheme };
    const first = uri.slice(form.prefix.length).split(':')[0] as string;
    if (!NETWORK_URN_SEGMENTS.includes(first)) return { ok: true, scheme: 'urn' };
    return refuse(
      uri,
      form.prefix.length + first.length - 1,
      `a network scheme (${first}) as the first segment of a urn:agentdef: URI`,
    );
  }
  return bodyReason(uri, form);
}

/** Why `uri` starts with none of the three prefixes. */
function prefixReason(uri: string): string {
  if (uri.startsWith('workspace:'))
    return refuse(uri, 'workspace:'.length - 1, 'a workspace URI without its leading slash (workspace:/path)').reason;
  if (uri.startsWith('urn:'))
    return refuse(uri, Math.min(uri.length, 'urn:agentdef:'.length) - 1, 'a URN outside the urn:agentdef: namespace')
      .reason;
  const offset = firstOffending(uri, (code) => code <= 0x20 || code === 0x7f || isUppercase(code));
  if (offset !== -1 && offset < 'workspace:/'.length)
    return refuse(uri, offset, characterProblem(uri.charCodeAt(offset), '/')).reason;
  const colon = uri.indexOf(':');
  return refuse(
    uri,
    colon === -1 ? Math.min(uri.length, 16) - 1 : colon,
    'a scheme other than workspace:/, kgdoc: or urn:agentdef:',
  ).reason;
}

/** The first rule the part after the prefix breaks. */
function bodyReason(uri: string, form: Form): SourceUriCheck {
  const start = form.prefix.length;
  for (let i = start; i < uri.length; i++) {
    const code = uri.charCodeAt(i);
    if (!isSegmentCharacter(code) && !isPunctuation(code) && String.fromCharCode(code) !== form.separator)
      return refuse(uri, i, characterProblem(code, form.separator));
  }
  // Only segment characters, punctuation and separators are left: the segments' shape is wrong.
  let offset = start;
  for (const segment of uri.slice(start).split(form.separator)) {
    if (segment === '')
      return refuse(
        uri,
        Math.min(offset, uri.length - 1),
        'an empty segment (a doubled, leading or trailing separator)',
      );
    if (segment === '.' || segment === '..') return refuse(uri, offset + segment.length - 1, 'a dot segment');
    if (isPunctuation(segment.charCodeAt(0))) return refuse(uri, offset, 'a segment that starts with punctuation');
    for (let i = 1; i < segment.length; i++) {
      if (isPunctuation(segment.charCodeAt(i)) && isPunctuation(segment.charCodeAt(i - 1)))
        return refuse(uri, offset + i, 'consecutive punctuation');
    }
    if (isPunctuation(segment.charCodeAt(segment.length - 1)))
      return refuse(uri, offset + segment.length - 1, 'trailing punctuation');
    offset += segment.length + 1;
  }
  return refuse(uri, uri.length - 1, 'a form the source-URI grammar does not allow'); // not reached: the loops above cover the grammar
}

function characterProblem(code: number, separator: '/' | ':'): string {
  if (
    code <= 0x20 ||
    code === 0x7f ||
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0xfeff
  )
    return 'whitespace or a control character';
  if (isUppercase(code)) return 'an uppercase letter (source URIs are lowercase)';
  if (code === 0x25) return 'percent-encoding';
  if (code === 0x3f || code === 0x23) return 'a query or fragment';
  if (code === 0x7e) return 'a tilde';
  if (code === 0x3a) return 'a colon (a nested scheme or port)';
  if (code === 0x2f && separator === ':') return 'a slash in a URN';
  if (code === 0x40) return 'an at sign (user information)';
  if (code === 0x5c) return 'a backslash';
  return 'a character outside [a-z0-9._-]';
}

function isSegmentCharacter(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39);
}

function isPunctuation(code: number): boolean {
  return code === 0x2e || code === 0x5f || code === 0x2d;
}

function isUppercase(code: number): boolean {
  return code >= 0x41 && code <= 0x5a;
}

function firstOffending(text: string, test: (code: number) => boolean): number {
  for (let i = 0; i < text.length; i++) if (test(text.charCodeAt(i))) return i;
  return -1;
}

/** A refusal naming `problem` at `offset`, with an excerpt that ends there. */
function refuse(uri: string, offset: number, problem: string): { ok: false; reason: string } {
  return { ok: false, reason: `source URI has ${problem} at offset ${offset}: "${excerpt(uri, offset)}"` };
}

const EXCERPT_LENGTH = 24;

/**
 * At most {@link EXCERPT_LENGTH} code units of `uri` ending at `offset` (inclusive), with every
 * character outside printable ASCII, the quote and the backslash escaped, so no control character,
 * bidirectional override or lone surrogate reaches a terminal or a log.
 */
export function excerpt(uri: string, offset: number): string {
  const end = Math.max(0, Math.min(offset + 1, uri.length));
  const start = Math.max(0, end - EXCERPT_LENGTH);
  let text = '';
  for (let i = start; i < end; i++) {
    const code = uri.charCodeAt(i);
    if (code === 0x22 || code === 0x5c) text += `\\${uri[i]}`;
    else if (code < 0x20 || code > 0x7e) text += `\\u${code.toString(16).padStart(4, '0')}`;
    else text += uri[i];
  }
  return `${start > 0 ? '…' : ''}${text}`;
}

/** The type of a non-string, from `typeof` alone (nothing of the value runs, even for a Proxy). */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  const type = typeof value;
  return type === 'undefined' ? 'undefined' : type === 'object' ? 'an object' : `a ${type}`;
}
