/**
 * "Did you mean …?": the nearest name by edit distance, when it is near
 * enough to be a typo (a third of the name's length, at least 2 edits).
 */

/** Levenshtein distance (insert, delete, substitute: 1 each). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** The candidate nearest to `name` (case-insensitive), or null when none is within typo distance. */
export function nearest(name: string, candidates: readonly string[]): string | null {
  const strip = (s: string) => s.toUpperCase().replace(/^LEASEBOARD_/, '');
  const own = strip(name);
  const limit = Math.max(2, Math.floor(own.length / 3));
  let best: { candidate: string; distance: number } | null = null;
  for (const candidate of candidates) {
    const distance = editDistance(own, strip(candidate));
    if (distance <= limit && (best === null || distance < best.distance)) best = { candidate, distance };
  }
  return best?.candidate ?? null;
}
