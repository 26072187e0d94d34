import { describe, expect, it } from 'vitest';
import { uniqueLease, usePool } from '../../db/testing/pools';
import { appendReport, type ProgressReport } from './report-store';

// Given a stream of reports, the summary row says what the status service needs.
describe('progress report storage', () => {
  const pool = usePool();
  const summary = async (lease: string) =>
    (
      await pool.query(
        'SELECT epoch::int, last_seq, in_flight, cursor::int, gap_reason, last_advance_at, last_report_at, first_report_at FROM progress_summaries WHERE lease = $1',
        [lease],
      )
    ).rows[0];
  const report = (lease: string, over: Partial<ProgressReport>): ProgressReport => ({
    lease,
    epoch: 1,
    seq: 1,
    occurrence: 'o@1',
    cursor: 0,
    reportEveryMs: 1_000,
    ...over,
  });

  it("counts an epoch's first report, a moved cursor and a started or completed occurrence as advances — nothing else", async () => {
    const lease = uniqueLease('rep');
    expect((await appendReport(pool, report(lease, { seq: 1, cursor: 0 }))).advanced).toBe(true); // first of the epoch
    expect((await appendReport(pool, report(lease, { seq: 2, cursor: 0 }))).advanced).toBe(false); // stuck
    expect((await appendReport(pool, report(lease, { seq: 3, cursor: 10 }))).advanced).toBe(true); // moved
    expect((await appendReport(pool, report(lease, { seq: 4, occurrence: null, cursor: null }))).advanced).toBe(true); // completed
    expect((await appendReport(pool, report(lease, { seq: 5, occurrence: null, cursor: null }))).advanced).toBe(false); // idle
    expect((await appendReport(pool, report(lease, { seq: 1, epoch: 2, occurrence: null, cursor: null }))).advanced).toBe(true); // new epoch
    const row = await summary(lease);
    expect(row).toMatchObject({ epoch: 2, last_seq: 1, in_flight: null, gap_reason: null });
    expect(row.first_report_at).toEqual(row.last_report_at);
  });

  it('records a seq jump as lost_reports, from the last report before to the first after', async () => {
    const lease = uniqueLease('rep');
    await appendReport(pool, report(lease, { seq: 1 }));
    const before = (await summary(lease)).last_report_at;
    await appendReport(pool, report(lease, { seq: 4 }));
    const row = await summary(lease);
    expect(row.gap_reason).toBe('lost_reports');
    const gap = (await pool.query('SELECT gap_from, gap_to FROM progress_summaries WHERE lease = $1', [lease])).rows[0];
    expect(gap.gap_from).toEqual(before);
    expect(gap.gap_to).toEqual(row.last_report_at);
    // The break stays recorded while reports flow again; a new epoch starts clean.
    await appendReport(pool, report(lease, { seq: 5 }));
    expect((await summary(lease)).gap_reason).toBe('lost_reports');
    await appendReport(pool, report(lease, { epoch: 2, seq: 1 }));
    expect((await summary(lease)).gap_reason).toBeNull();
  });

  it('records silence longer than 3 × reportEvery as a closed break', async () => {
    const lease = uniqueLease('rep');
    await appendReport(pool, report(lease, { seq: 1, reportEveryMs: 10 }));
    await new Promise((resolve) => setTimeout(resolve, 60));
    await appendReport(pool, report(lease, { seq: 2, reportEveryMs: 10 }));
    expect((await summary(lease)).gap_reason).toBe('silence');
  });

  it("never lets an older epoch's late report touch the summary, but keeps it as a fact", async () => {
    const lease = uniqueLease('rep');
    await appendReport(pool, report(lease, { epoch: 2, seq: 1, cursor: 5 }));
    await appendReport(pool, report(lease, { epoch: 1, seq: 99, cursor: 500 }));
    expect(await summary(lease)).toMatchObject({ epoch: 2, last_seq: 1, cursor: 5 });
    const { rows } = await pool.query('SELECT epoch::int, seq FROM progress_reports WHERE lease = $1 ORDER BY id', [lease]);
    expect(rows).toEqual([
      { epoch: 2, seq: 1 },
      { epoch: 1, seq: 99 },
    ]);
  });
});
