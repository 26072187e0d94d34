// The report-break rule's two forms agree: given pairs of consecutive reports
// (seqs that follow or jump, quiets around SILENCE_FACTOR × the earlier
// report's cadence, to the microsecond), the TypeScript rule and the SQL
// expression PostgreSQL evaluates name the same break, or none.
import { describe, expect, it } from 'vitest';
import { usePool } from '../../db/testing/pools';
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
});
