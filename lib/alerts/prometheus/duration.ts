/**
 * Prometheus duration strings (`2m`, `90s`, `1500ms`) from milliseconds.
 *
 * Guarantees: pure; the largest unit that divides exactly, so the value is
 * never rounded; throws on negative or fractional input.
 */
export function promDuration(ms: number): string {
  if (!Number.isInteger(ms) || ms < 0) throw new RangeError(`promDuration: ${ms} is not a whole, non-negative number of ms`);
  if (ms === 0) return '0s';
  for (const [unit, size] of [
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1_000],
  ] as const) {
    if (ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}
