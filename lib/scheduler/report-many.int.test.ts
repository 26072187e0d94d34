// Reports batched (migration 0033_report_many): a batch of many leases' reports
// stores exactly what the same reports sent one by one store, answers each entry
// in the order given, reports a lease named twice in the order sent, and an
// entry that fails fails the batch, storing nothing of it.
import { describe, expect, it } from 'vitest';
import { uniqueLease, usePool } from '../../db/testing/pools';
import { appendReport, appendReports, type ProgressReport } from './report-store';

describe('leaseboard_report_many', () => {
  const pool = usePool();
  const stored = async (lease: string) => ({
    summary: (
      await pool.query(
        `SELECT epoch::int, last_seq, in_flight, cursor::int, report_every_ms, gap_reason,
                last_advance_at = last_report_at AS advanced_last, gap_from IS NULL AS no_gap FROM progress_summaries WHERE lease = $1`,
        [lease],
      )
    ).rows,
    reports: (
      await pool.query(
        // A row per run, and every report it holds as the store reads it back (migration 0028's packing:
        // seq, occurrence, cursor, advance and cadence; the times differ between the two streams).
        `SELECT r.epoch::int, r.seq, r.last_seq,
                (SELECT json_agg(json_build_array(x.seq, x.occurrence, x.cursor::int, x.advanced, x.report_every_ms))
                   FROM leaseboard_run_reports(r.lease, r.reported_at, r.seq, r.occurrence, r.cursor, r.advanced, r.report_every_ms, r.packed) x) AS held
         FROM progress_reports r WHERE r.lease = $1 ORDER BY r.id`,
        [lease],
      )
    ).rows,
  });

  it('stores what single reports store, and answers each entry with its own row, in the order given', async () => {
    const single = uniqueLease('one');
    const batched = uniqueLease('many');
    const other = uniqueLease('aaa'); // sorts before the others: the batch runs in name order, answers in given order
    // A stream with advances, a stuck cursor, a lost seq, a new epoch and an older epoch's late report.
    const stream: Omit<ProgressReport, 'lease'>[] = [
      { epoch: 1, seq: 1, occurrence: 'o@1', cursor: 0, reportEveryMs: 2_000 },
      { epoch: 1, seq: 2, occurrence: 'o@1', cursor: 0, reportEveryMs: 2_000 },
      { epoch: 1, seq: 3, occurrence: 'o@1', cursor: 7, reportEveryMs: 2_000 },
      { epoch: 1, seq: 6, occurrence: 'o@1', cursor: 7, reportEveryMs: 2_000 },
      { epoch: 1, seq: 7, occurrence: null, cursor: null, reportEveryMs: 2_000 },
      { epoch: 2, seq: 1, occurrence: null, cursor: null, reportEveryMs: 2_000 },
      { epoch: 1, seq: 8, occurrence: null, cursor: null, reportEveryMs: 2_000 },
      { epoch: 2, seq: 2, occurrence: 'o@2', cursor: 1, reportEveryMs: 2_000 },
    ];
    for (const [k, r] of stream.entries()) {
      const alone = await appendReport(pool, { ...r, lease: single });
      const answers = await appendReports(pool, [
        { ...r, lease: batched },
        { lease: other, epoch: 1, seq: k + 1, occurrence: 'x', cursor: k === 0 ? 0 : 1, reportEveryMs: 2_000 },
      ]);
      expect(answers.map((a) => a.advanced)).toEqual([alone.advanced, k <= 1]);
    }
    expect(await stored(batched)).toEqual(await stored(single));
    expect((await stored(single)).summary[0]).toMatchObject({ epoch: 2, last_seq: 2, cursor: 1 });
  });

  it('reports a lease named twice in one batch in the order sent: no break between them', async () => {
    const lease = uniqueLease('twice');
    const r = { lease, epoch: 1, occurrence: 'o@1', cursor: 3, reportEveryMs: 2_000 };
    const answers = await appendReports(pool, [
      { ...r, seq: 1 },
      { ...r, seq: 2 },
    ]);
    expect(answers.map((a) => a.advanced)).toEqual([true, false]);
    expect(answers[1]!.reportedAt.getTime()).toBeGreaterThanOrEqual(answers[0]!.reportedAt.getTime());
    expect((await stored(lease)).summary[0]).toMatchObject({ last_seq: 2, gap_reason: null });
    // Both stored, in the order sent (as runs, or as single reports where no partition holds runs yet).
    expect((await stored(lease)).reports.flatMap((row) => row.held)).toEqual([
      [1, 'o@1', 3, true, 2_000],
      [2, 'o@1', 3, false, 2_000],
    ]);
  });

  it('fails the whole batch when one entry fails, storing none of it', async () => {
    const lease = uniqueLease('fails');
    const good = { lease, epoch: 1, seq: 1, occurrence: null, cursor: null, reportEveryMs: 2_000 };
    await expect(appendReports(pool, [good, { ...good, lease: null as unknown as string }])).rejects.toThrow();
    expect(await stored(lease)).toEqual({ summary: [], reports: [] });
  });
});
