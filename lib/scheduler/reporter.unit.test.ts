/**
 * The batching reporter, with a scripted store and a fake clock: reports asked
 * for within one window leave as one statement, a full batch leaves at once,
 * every caller gets its own answer or the statement's error, and no window
 * is left waiting.
 */
import { describe, expect, it } from 'vitest';
import type { ProgressReport, StoredReport } from './report-store';
import { BatchReporter } from './reporter';
import { fakeClock } from './testing/fake-clock';

const report = (lease: string): ProgressReport => ({ lease, epoch: 1, seq: 1, occurrence: null, cursor: null, reportEveryMs: 2_000 });

function harness(answer: (reports: readonly ProgressReport[]) => Promise<StoredReport[]>, maxBatch = 500) {
  const { clock, advance, waiting } = fakeClock();
  const batches: string[][] = [];
  const reporter = new BatchReporter(
    (reports) => {
      batches.push(reports.map((r) => r.lease));
      return answer(reports);
    },
    clock,
    50,
    maxBatch,
  );
  return { reporter, batches, advance, waiting };
}

const stored = (advanced: boolean): StoredReport => ({ advanced, reportedAt: new Date(0) });

describe('BatchReporter', () => {
  it('sends the reports of one window as ONE statement, and answers each caller with its own row', async () => {
    const h = harness(async (reports) => reports.map((r) => stored(r.lease === 'b')));
    const a = h.reporter.report(report('a'));
    h.advance(30);
    const b = h.reporter.report(report('b'));
    expect(h.batches).toEqual([]); // the window is still open
    h.advance(20);
    expect((await Promise.all([a, b])).map((s) => s.advanced)).toEqual([false, true]);
    expect(h.batches).toEqual([['a', 'b']]);
    // The next report opens the next window.
    const c = h.reporter.report(report('c'));
    h.advance(50);
    await c;
    expect(h.batches).toEqual([['a', 'b'], ['c']]);
    expect(h.waiting()).toBe(0);
  });

  it('sends a full batch at once, and cancels its window', async () => {
    const h = harness(async (reports) => reports.map(() => stored(false)), 2);
    await Promise.all([h.reporter.report(report('a')), h.reporter.report(report('b'))]);
    expect(h.batches).toEqual([['a', 'b']]);
    expect(h.waiting()).toBe(0);
  });

  it('an error of the statement reaches every report of the batch, and the next batch is sent as usual', async () => {
    let fail = true;
    const h = harness(async (reports) => {
      if (fail) throw new Error('report: boom');
      return reports.map(() => stored(true));
    });
    const failed = Promise.allSettled([h.reporter.report(report('a')), h.reporter.report(report('b'))]);
    h.advance(50);
    expect((await failed).map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    const next = h.reporter.report(report('c'));
    h.advance(50);
    expect((await next).advanced).toBe(true);
  });
});
