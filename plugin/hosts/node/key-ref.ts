/**
 * The syntax of a key ref (`keyref:<name>`, or a bare name), and how messages may quote one. Kept
 * apart from the key store (key-store.ts) so that what only checks a ref's form (the CLI's option
 * tables, which check `--key keyref:<name>` before a command runs) loads nothing else.
 */

export const KEY_REF_PREFIX = 'keyref:';
export const KEY_NAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;

export type KeyFailure = { ok: false; message: string };

/**
 * A ref as messages may quote it: itself when it is a short line of printable ASCII that cannot be
 * key material; else a placeholder. Key material given by mistake (a JWK's text, a bare `d`, a PEM
 * block) is never repeated: JSON, `BEGIN`, line breaks, anything over 80 characters, and any run
 * of 16 or more base64 characters mixing upper case, lower case and digits (a `d` is 43 of them).
 */
export function shownKeyRef(ref: string): string {
  const hidden = `the key ref given (${ref.length} characters, not shown: it may be key material)`;
  if (ref.length > 80 || !/^[\x20-\x7e]*$/.test(ref) || /[{}"]|BEGIN/.test(ref)) return hidden;
  for (const run of ref.match(/[A-Za-z0-9+/_=-]{16,}/g) ?? []) {
    if (/[A-Z]/.test(run) && /[a-z]/.test(run) && /[0-9]/.test(run)) return hidden;
  }
  return `"${ref}"`;
}

/** `keyref:<name>` (or a bare name) to the name, or a failure saying what a ref looks like. */
export function parseKeyRef(ref: string): { ok: true; name: string } | KeyFailure {
  const name = ref.startsWith(KEY_REF_PREFIX) ? ref.slice(KEY_REF_PREFIX.length) : ref;
  if (!KEY_NAME_PATTERN.test(name)) {
    return {
      ok: false,
      message: `${shownKeyRef(ref)} is not a key ref: a key ref is keyref:<name>, the name 1 to 64 of a-z 0-9 . _ - starting with a letter or digit`,
    };
  }
  return { ok: true, name };
}
