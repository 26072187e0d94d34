/**
 * The occurrence key — one scheduled run's identity, `lease@2026-11-30T16:00:00Z`
 * (ISO-8601 UTC to the second) — in the two languages that spell it: here in
 * TypeScript for the runtime that claims occurrences, and as a SQL expression
 * for the reads that name the occurrence due next. One home, so the two can
 * never disagree (lib/lease/occurrence-key.int.test.ts runs both).
 *
 * Guarantees: both truncate to the whole second (never round); slots lie at
 * least 1 s apart (the runtime refuses a shorter cadence), so distinct slots
 * get distinct keys. Non-guarantees: the SQL form trusts its arguments — pass
 * column names or `$n` parameters, never text from a client.
 */

/** `lease@YYYY-MM-DDTHH:MM:SSZ` of the slot starting at `scheduledAt`. */
export function occurrenceKey(lease: string, scheduledAt: Date): string {
  return `${lease}@${scheduledAt.toISOString().replace(/\.\d{3}Z$/, 'Z')}`;
}

/** The same key as a SQL expression over a text expression `lease` and a timestamptz expression `slot`. */
export function occurrenceKeySql(lease: string, slot: string): string {
  return `${lease} || '@' || to_char(${slot} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;
}
