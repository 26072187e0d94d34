// The report-break rule's two forms agree: given pairs of consecutive reports
// (seqs that follow or jump, quiets around SILENCE_FACTOR × the earlier
// report's cadence, to the microsecond), the TypeScript rule and the SQL
// expression PostgreSQL evaluates name the same break, or none. And the
// protocol function leaseboard_report, whose migration writes the rule out
// with its factor as a literal, closes the break the TypeScript rule names
// for the same two reports.
import { describe, expect, it } from 'vitest';
import { uniqueLease, usePool } from '../../db/testing/pools';
import { reportBreak, reportBreakSql, SILENCE_FACTOR, type ReportMark } from './report-break';

const T0 = Date.parse('2026-11-30T16:00:00.000Z');

describe('report breaks: one rule, two languages', () => {
  const pool = usePool();

  it('TypeScript and SQL name every break alike', async () => {
    const cases: { prev: ReportMark; next: { seq: number; atMs: number } }[] = [
      // the seq follows: silence only past SILENCE_FACTOR × the EARLIER report's cadence (strict)
      { prev: { seq: 7, atMs: T0, everyMs: 100 }, next: { seq: 8, atMs: T0 + 50 } },
      { prev: { seq: 7, atMs: T0, everyMs: 100 }, next: { seq: 8, atMs: T0 + SILENCE_FACTOR * 100 } },
      { prev: { seq: 7, atMs: T0, everyMs: 100 }, next: { seq: 8, atMs: T0 + SILENCE_FACTOR * 100 + 1 } },
      { prev: { seq: 1, atMs: T0, everyMs: 2_000 }, next: { seq: 2, atMs: T0 + 5_999 } },
      { prev: { seq: 1, atMs: T0, everyMs: 2_000 }, next: { seq: 2, atMs: T0 + 6_001 } },
      // a slower cadence after the quiet changes nothing: the earlier report said when the next was due
      { prev: { seq: 3, atMs: T0, everyMs: 250 }, next: { seq: 4, atMs: T0 + 900 } },
      // the seq jumps (or repeats, or goes back): lost, whatever the quiet
      { prev: { seq: 7, atMs: T0, everyMs: 100 }, next: { seq: 9, atMs: T0 + 10 } },
      { prev: { seq: 7, atMs: T0, everyMs: 100 }, next: { seq: 12, atMs: T0 + 5_000 } },
      { prev: { seq: 7, atMs: T0, everyMs: 100 }, next: { seq: 7, atMs: T0 + 10 } },
      { prev: { seq: 7, atMs: T0, everyMs: 100 }, next: { seq: 6, atMs: T0 + 10 } },
    ];
    const expr = reportBreakSql({ prevSeq: 'c.prev_seq', seq: 'c.seq', prevAt: 'c.prev_at', at: 'c.at', prevEveryMs: 'c.every' });
    const { rows } = await pool.query<{ reason: string | null }>(
      `SELECT ${expr} AS reason
       FROM unnest($1::int[], $2::timestamptz[], $3::int[], $4::int[], $5::timestamptz[]) WITH ORDINALITY c(prev_seq, prev_at, every, seq, at, i)
       ORDER BY c.i`,
      [
        cases.map((c) => c.prev.seq),
        cases.map((c) => new Date(c.prev.atMs).toISOString()),
        cases.map((c) => c.prev.everyMs),
        cases.map((c) => c.next.seq),
        cases.map((c) => new Date(c.next.atMs).toISOString()),
      ],
    );
    expect(rows.map((r) => r.reason)).toEqual(cases.map((c) => reportBreak(c.prev, c.next)));
    expect(rows.map((r) => r.reason)).toEqual([
      null,
      null,
      'silence',
      null,
      'silence',
      'silence',
      'lost_reports',
      'lost_reports',
      'lost_reports',
      'lost_reports',
    ]);
  });

  it('to the microsecond: a quiet one microsecond past the threshold is a silence in both', async () => {
    const { rows } = await pool.query<{ reason: string | null; exact: string | null }>(
      `SELECT ${reportBreakSql({ prevSeq: '1', seq: '2', prevAt: "'2026-11-30T16:00:00Z'::timestamptz", at: "'2026-11-30T16:00:00.300001Z'::timestamptz", prevEveryMs: '100' })} AS reason,
              ${reportBreakSql({ prevSeq: '1', seq: '2', prevAt: "'2026-11-30T16:00:00Z'::timestamptz", at: "'2026-11-30T16:00:00.3Z'::timestamptz", prevEveryMs: '100' })} AS exact`,
    );
    expect(rows[0]).toEqual({ reason: 'silence', exact: null });
    expect(reportBreak({ seq: 1, atMs: T0, everyMs: 100 }, { seq: 2, atMs: T0 + 300.001 })).toBe('silence');
    expect(reportBreak({ seq: 1, atMs: T0, everyMs: 100 }, { seq: 2, atMs: T0 + 300 })).toBeNull();
  });

  it('the protocol function leaseboard_report closes the break the TypeScript rule names for the same two reports', async () => {
    // Quiets as multiples of the earlier report's cadence, around SILENCE_FACTOR (a factor changed on
    // one side only disagrees at 3.5×); a cadence that changes after the quiet; seqs that jump or repeat.
    const cases = [
      ...[0.5, 2.9, SILENCE_FACTOR, 3.5, 4.5, 10].map((quiet) => ({ quiet, everyMs: 1_000, nextEveryMs: 1_000, seqStep: 1 })),
      { quiet: 3.5, everyMs: 100, nextEveryMs: 5_000, seqStep: 1 },
      { quiet: 0.5, everyMs: 1_000, nextEveryMs: 1_000, seqStep: 2 },
      { quiet: 0.5, everyMs: 1_000, nextEveryMs: 1_000, seqStep: 0 },
    ];
    const judged: { sql: string | null; ts: string | null }[] = [];
    for (const c of cases) {
      const lease = uniqueLease('break');
      const [{ epoch }] = (await pool.query(`SELECT epoch::text FROM leaseboard_acquire($1, 'holder-b', 'b', 60000)`, [lease])).rows;
      await pool.query(`SELECT * FROM leaseboard_report($1, $2, 1, NULL, NULL, $3)`, [lease, epoch, c.everyMs]);
      // The earlier report, moved back by the quiet: the function measures from it to its own clock.
      const { at } = (
        await pool.query<{ at: Date }>(
          `UPDATE progress_summaries SET last_report_at = date_trunc('milliseconds', clock_timestamp()) - $2 * interval '1 millisecond'
           WHERE lease = $1 RETURNING last_report_at AS at`,
          [lease, Math.round(c.quiet * c.everyMs)],
        )
      ).rows[0]!;
      const seq = 1 + c.seqStep;
      const { reported_at: reportedAt } = (
        await pool.query<{ reported_at: Date }>(`SELECT reported_at FROM leaseboard_report($1, $2, $3, NULL, NULL, $4)`, [lease, epoch, seq, c.nextEveryMs])
      ).rows[0]!;
      const summary = (
        await pool.query<{ gap_reason: string | null; gap_to: Date | null }>(`SELECT gap_reason, gap_to FROM progress_summaries WHERE lease = $1`, [lease])
      ).rows[0]!;
      // A break this report closed ends at it; an older one would end earlier (there is none here).
      const sql = summary.gap_to?.getTime() === reportedAt.getTime() ? summary.gap_reason : null;
      judged.push({ sql, ts: reportBreak({ seq: 1, atMs: at.getTime(), everyMs: c.everyMs }, { seq, atMs: reportedAt.getTime() }) });
    }
    expect(judged.map((j) => j.sql)).toEqual(judged.map((j) => j.ts));
    // Not vacuous: the cases reach every outcome.
    expect(new Set(judged.map((j) => j.ts))).toEqual(new Set([null, 'silence', 'lost_reports']));
  });
});
