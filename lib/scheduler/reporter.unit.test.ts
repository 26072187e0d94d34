/**
 * The batching reporter, with a scripted store and a fake clock: reports asked
 * for within one window leave as one statement and each caller gets its own
 * stored row (the batching's own cases: ./batcher.unit.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { ProgressReport, StoredReport } from './report-store';
import { BatchReporter, sharedReporter } from './reporter';
import { fakeClock } from './testing/fake-clock';

const report = (lease: string): ProgressReport => ({ lease, epoch: 1, seq: 1, occurrence: null, cursor: null, reportEveryMs: 2_000 });
const stored = (advanced: boolean): StoredReport => ({ advanced, reportedAt: new Date(0) });

describe('BatchReporter', () => {
  it('sends the reports of one window as ONE statement, and answers each caller with its own row', async () => {
    const { clock, advance, waiting } = fakeClock();
    const batches: string[][] = [];
    const reporter = new BatchReporter(
      async (reports) => {
        batches.push(reports.map((r) => r.lease));
        return reports.map((r) => stored(r.lease === 'b'));
      },
      clock,
      50,
      500,
    );
    const a = reporter.report(report('a'));
    advance(30);
    const b = reporter.report(report('b'));
    expect(batches).toEqual([]); // the window is still open
    advance(20);
    expect((await Promise.all([a, b])).map((s) => s.advanced)).toEqual([false, true]);
    expect(batches).toEqual([['a', 'b']]);
    expect(waiting()).toBe(0);
  });

  it('a failed statement fails each report in it', async () => {
    const { clock, advance } = fakeClock();
    const reporter = new BatchReporter(() => Promise.reject(new Error('report: boom')), clock, 50, 500);
    const failed = Promise.allSettled([reporter.report(report('a')), reporter.report(report('b'))]);
    advance(50);
    expect((await failed).map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });

  it('is shared per pool and clock', () => {
    const pool = {};
    const { clock } = fakeClock();
    const append = async () => [];
    expect(sharedReporter(pool, append, clock)).toBe(sharedReporter(pool, append, clock));
  });
});
