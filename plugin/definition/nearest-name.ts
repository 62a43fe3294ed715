/**
 * The one "did you mean" helper: the candidate nearest to a misspelled name, by case-insensitive
 * Damerau-Levenshtein distance (optimal string alignment: insert, delete, substitute, swap two
 * neighbours), or undefined when nothing is close enough to be a plausible typo. Pure; never throws.
 */

/** Edit distance between `a` and `b` where swapping two adjacent characters costs one edit. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/** The largest distance still read as a typo of a `length`-character name: 2, or a third of it. */
export function typoThreshold(length: number): number {
  return Math.max(2, Math.floor(length / 3));
}

/**
 * The candidate nearest to `input`, ignoring case (`OpenAI` → `openai`), when it is within
 * `maxDistance` (default: {@link typoThreshold} of the input's length). Ties go to the earlier
 * candidate, so the result depends only on the arguments.
 */
export function nearestName(
  input: string,
  candidates: Iterable<string>,
  maxDistance: number = typoThreshold(input.length),
): string | undefined {
  const wanted = input.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = editDistance(wanted, name.toLowerCase());
    if (best === undefined || distance < best.distance) best = { name, distance };
  }
  return best !== undefined && best.distance <= maxDistance ? best.name : undefined;
}
