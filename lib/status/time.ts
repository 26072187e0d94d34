/**
 * Time arithmetic on database timestamps, for the pure projection.
 *
 * Guarantees: never reads a clock (`new Date` only ever gets an argument);
 * an unparseable timestamp throws `StatusInputError` naming the field instead
 * of turning into NaN and silently failing every comparison.
 * Non-guarantees: sub-millisecond precision of the database is dropped.
 */

/** A fault in the projection's input (thresholds or facts); a programming error upstream. */
export class StatusInputError extends Error {
  override readonly name = 'StatusInputError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(`status: ${message}`, options);
  }
}

/** Epoch milliseconds of an ISO-8601 timestamp; throws on anything unparseable. */
export function toMs(field: string, iso: string): number {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) throw new StatusInputError(`${field} is not an ISO-8601 time: ${JSON.stringify(iso)}`);
  return ms;
}

/** Canonical ISO-8601 UTC form (`2026-11-30T12:00:00.000Z`). */
export function toIso(ms: number): string {
  return new Date(ms).toISOString();
}
