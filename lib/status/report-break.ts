/**
 * The report-break rule: when evidence of observation is missing between two
 * progress reports of one epoch, and what it is called. One rule, in the two
 * languages that apply it: TypeScript (the projection's open silence, and
 * tests) and SQL, for the statements that find breaks — the runtime's report
 * store closing a break as a report arrives (lib/scheduler/report-store.ts)
 * and the as-of rebuild finding every break in a span
 * (lib/server/asof/logs-sql.ts). The live read shows what the store closed
 * (lib/server/live/facts.ts). lib/status/report-break.int.test.ts runs the two
 * forms against each other.
 *
 * The rule, for report `next` following report `prev` of the same epoch:
 * - a seq that does not follow (`next.seq ≠ prev.seq + 1`) is `lost_reports`;
 * - otherwise a quiet longer (strict >) than SILENCE_FACTOR × the cadence
 *   `prev` announced is `silence`;
 * - otherwise there is no break.
 * The cadence is each report's own (the one it was sent with), never the
 * scheduler's registration: another instance registering a different
 * cadence changes nothing about the epoch already reporting. And it is the
 * cadence of the report BEFORE the quiet — the one that said when the next
 * would come, and the one an open silence is judged by while it lasts — so a
 * gap shown while open stays a gap once the next report arrives
 * (docs/design.md, invariant 8).
 *
 * Pure: no clock, no I/O. Non-guarantees: the SQL form trusts its arguments
 * (column names or `$n` parameters, never text from a client).
 */

import type { ReportGapReason } from './types';

/** Report silence longer than SILENCE_FACTOR × the report's cadence is an observation gap. */
export const SILENCE_FACTOR = 3;

/** How long a report's stream may stay quiet, at cadence `reportEveryMs`, before the quiet is a silence. */
export function silenceAfterMs(reportEveryMs: number): number {
  return SILENCE_FACTOR * reportEveryMs;
}

/** A report as the rule sees it: its seq, when it was stored (epoch ms), the cadence it was sent with. */
export interface ReportMark {
  seq: number;
  atMs: number;
  everyMs: number;
}

/** The break between `prev` and the report after it (same epoch), or null. */
export function reportBreak(prev: ReportMark, next: Pick<ReportMark, 'seq' | 'atMs'>): ReportGapReason | null {
  if (next.seq !== prev.seq + 1) return 'lost_reports';
  return next.atMs - prev.atMs > silenceAfterMs(prev.everyMs) ? 'silence' : null;
}

/**
 * The same rule as a SQL expression (text `'lost_reports'`, `'silence'` or NULL) over
 * int expressions `prevSeq`/`seq`, timestamptz expressions `prevAt`/`at` and the int
 * milliseconds `prevEveryMs` of the earlier report.
 */
export function reportBreakSql(e: { prevSeq: string; seq: string; prevAt: string; at: string; prevEveryMs: string }): string {
  return `(CASE WHEN ${e.seq} <> ${e.prevSeq} + 1 THEN 'lost_reports'
      WHEN ${e.at} - ${e.prevAt} > ${SILENCE_FACTOR} * (${e.prevEveryMs}) * interval '1 millisecond' THEN 'silence' END)`;
}
