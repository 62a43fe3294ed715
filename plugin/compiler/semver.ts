/**
 * Ordering of exact semantic versions (semver 2.0.0 §11), used only to list the versions that
 * exist in a readable order. Pins are never matched by range: resolution compares strings exactly.
 */
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

export function isExactSemver(version: string): boolean {
  return SEMVER.test(version);
}

function compareIdentifiers(a: string, b: string): number {
  const an = /^\d+$/.test(a);
  const bn = /^\d+$/.test(b);
  if (an && bn) return compareNumeric(a, b);
  if (an) return -1;
  if (bn) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareNumeric(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** Semver precedence; invalid versions sort after valid ones, by string; build metadata breaks ties by string. */
export function compareSemver(a: string, b: string): number {
  const ma = SEMVER.exec(a);
  const mb = SEMVER.exec(b);
  if (!ma || !mb) return ma ? -1 : mb ? 1 : a < b ? -1 : a > b ? 1 : 0;
  for (let i = 1; i <= 3; i++) {
    const c = compareNumeric(ma[i]!, mb[i]!);
    if (c !== 0) return c;
  }
  const pa = ma[4];
  const pb = mb[4];
  if (pa === undefined || pb === undefined) {
    if (pa !== pb) return pa === undefined ? 1 : -1;
  } else {
    const ia = pa.split('.');
    const ib = pb.split('.');
    for (let i = 0; i < Math.max(ia.length, ib.length); i++) {
      if (ia[i] === undefined) return -1;
      if (ib[i] === undefined) return 1;
      const c = compareIdentifiers(ia[i]!, ib[i]!);
      if (c !== 0) return c;
    }
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Distinct versions in ascending semver order. */
export function sortVersions(versions: Iterable<string>): string[] {
  return [...new Set(versions)].sort(compareSemver);
}
