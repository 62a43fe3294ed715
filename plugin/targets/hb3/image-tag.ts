/**
 * The image tag of an HB3 tree: `<version>-<first 12 hex of the plan digest>` (a changed plan is
 * a new image), spelled in the characters an OCI tag allows (`[A-Za-z0-9_.-]`, at most 128,
 * not starting with `.` or `-`) and that the hb3-job schema requires. The mapping is fixed and
 * documented: semver's build-metadata separator `+` becomes `_` (semver never uses `_`, so no two
 * versions share a spelling), any other character outside the set becomes `_` too, and a version
 * too long for the tag is cut so the digest suffix always fits (the digest still tells plans apart).
 */

/** An OCI tag holds at most this many characters. */
export const MAX_TAG_LENGTH = 128;
const DIGEST_CHARACTERS = 12;

/** `1.2.0+build.7` → `1.2.0_build.7`: a version in tag characters. */
export function versionForTag(version: string): string {
  return version.replace(/[^A-Za-z0-9_.-]/g, '_');
}

/** The image tag for `version` and the plan digest (hex). */
export function imageTag(version: string, planDigest: string): string {
  const suffix = `-${planDigest.slice(0, DIGEST_CHARACTERS)}`;
  const spelled = versionForTag(version).slice(0, MAX_TAG_LENGTH - suffix.length);
  // A tag starts with a letter, digit or underscore (a semver version always starts with a digit).
  return `${/^[A-Za-z0-9_]/.test(spelled) ? spelled : `_${spelled.slice(1)}`}${suffix}`;
}
