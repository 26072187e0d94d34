/**
 * Durations as people write them: `250ms`, `15s`, `2m`, `1h`, `7d` — the one
 * parser of the repository, for flags, environment variables and the
 * configuration file alike.
 *
 * Guarantees: pure; a whole number and exactly one unit; a bare number is
 * refused with a message saying to add a unit (a `15000` that meant
 * milliseconds, or seconds, is the mistake this exists to stop);
 * `formatDuration` writes the largest unit that divides exactly, so
 * `parseDuration(formatDuration(ms)) === ms`.
 */

const SEC = 1_000;
const MIN = 60 * SEC;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

const UNIT_MS = { ms: 1, s: SEC, m: MIN, h: HOUR, d: DAY } as const;

export class DurationError extends Error {
  override readonly name = 'DurationError';
}

/** `250ms`, `90s`, `45m`, `36h`, `7d` → milliseconds; anything else throws DurationError saying what is wrong. */
export function parseDuration(raw: string): number {
  const text = raw.trim();
  const match = /^(\d{1,9})(ms|s|m|h|d)$/.exec(text);
  if (match) return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  if (/^\d+(\.\d+)?$/.test(text)) {
    // Suggest what the number most likely meant: milliseconds (the old *_MS settings), or seconds.
    const n = Number(text);
    const seconds = n >= 1_000 && n % 1_000 === 0 ? `${n / 1_000}s` : `${text}s`;
    throw new DurationError(`${JSON.stringify(text)} has no unit: add one, e.g. ${text}ms or ${seconds}`);
  }
  throw new DurationError(`expected a duration such as 250ms, 15s, 2m, 1h or 7d, got ${JSON.stringify(text.slice(0, 40))}`);
}

/** A duration the way parseDuration reads it back: the largest unit that divides exactly (`0s` for zero). */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  for (const [unit, size] of [
    ['d', DAY],
    ['h', HOUR],
    ['m', MIN],
    ['s', SEC],
  ] as const) {
    if (ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}
