// The generator's simulated process (./sim-schedule.ts) against the library's rules, with injected time:
// acquisitions spread, renewals in step as one batch with riders, reports batched per window and
// carrying seq/occurrence/cursor, self-suspicion, faults (pause, freeze, drop, kill).
import { describe, expect, it } from 'vitest';
import { ROUND_SLACK_MS } from '../../lib/scheduler/report-rounds';
import { REPORT_BATCH_MAX, SimProcess, type SimTiming } from './sim-schedule';

const T: SimTiming = {
  ttlMs: 15_000,
  renewEveryMs: 5_000,
  renewDeadlineMs: 10_000,
  safetyMarginMs: 2_000,
  reportEveryMs: 2_000,
  jobEveryMs: 60_000,
  advanceEveryMs: 5_000,
};
/** The report rounds' period (lib/scheduler/report-rounds.ts). */
const PERIOD = T.reportEveryMs + ROUND_SLACK_MS;
const names = (n: number) => Array.from({ length: n }, (_, i) => `sim-${i}`);

/** A process of `n` leases, all acquired at epoch 1 at `at`. */
function holding(n: number, at = 0): SimProcess {
  const sim = new SimProcess(0, names(n), 'inst_aaaaaaaa', T, at, 0);
  for (const lease of sim.dueAcquisitions(at + T.reportEveryMs)) sim.acquired(lease, 1, at, at);
  return sim;
}

describe('a simulated scheduler process', () => {
  it('spreads its first acquisitions over one report interval', () => {
    const sim = new SimProcess(0, names(4), 'inst_aaaaaaaa', T, 1_000, 0);
    expect(sim.dueAcquisitions(1_000).map((l) => l.name)).toEqual(['sim-0']);
    expect(sim.dueAcquisitions(2_000).map((l) => l.name)).toEqual(['sim-1', 'sim-2']);
    expect(sim.dueAcquisitions(2_500).map((l) => l.name)).toEqual(['sim-3']);
    expect(sim.dueAcquisitions(9_000)).toEqual([]); // each asked once until answered
  });

  it('starts at most `limit` acquisitions at once; the rest stay due', () => {
    const sim = new SimProcess(0, names(3), 'inst_aaaaaaaa', T, 0, 0);
    expect(sim.dueAcquisitions(5_000, 2).map((l) => l.name)).toEqual(['sim-0', 'sim-1']);
    expect(sim.dueAcquisitions(5_000, 0)).toEqual([]);
    expect(sim.dueAcquisitions(5_000, 2).map((l) => l.name)).toEqual(['sim-2']);
  });

  it('retries a refused acquisition a renewal interval later', () => {
    const sim = new SimProcess(0, names(1), 'inst_aaaaaaaa', T, 0, 0);
    const [lease] = sim.dueAcquisitions(0);
    sim.acquired(lease!, null, 0, 100);
    expect(sim.dueAcquisitions(5_099)).toEqual([]);
    expect(sim.dueAcquisitions(5_100)).toHaveLength(1);
  });

  it('renews every lease in ONE batch once one is due, taking along those past half their interval', () => {
    const sim = new SimProcess(0, names(3), 'inst_aaaaaaaa', T, 0, 0);
    const [a, b, c] = sim.leases;
    sim.acquired(a!, 1, 0, 0);
    sim.acquired(b!, 1, 2_000, 2_000);
    sim.acquired(c!, 1, 4_000, 4_000);
    expect(sim.dueRenewal(4_999)).toEqual([]);
    // a is due at 5 s; b (half interval at 4.5 s) rides along; c (half at 6.5 s) does not.
    expect(sim.dueRenewal(5_000).map((l) => l.name)).toEqual(['sim-0', 'sim-1']);
    expect(sim.dueRenewal(5_000)).toEqual([]); // in flight: not asked twice
    sim.renewed([a!, b!], [{ kind: 'renewed' }, { kind: 'renewed' }], 5_000, 5_050);
    // c falls due at 9 s; a and b (renewed at 5.05 s, half at 7.55 s) ride with it: in step from here.
    expect(sim.dueRenewal(9_000).map((l) => l.name)).toEqual(['sim-0', 'sim-1', 'sim-2']);
  });

  it('counts a renewal answered after renewDeadline as missed (late) and one refused as missed and lost', () => {
    const sim = holding(2);
    const batch = sim.dueRenewal(5_000);
    const judged = sim.renewed(batch, [{ kind: 'renewed' }, { kind: 'lost' }], 5_000, 5_200);
    expect(judged).toEqual([
      { lease: 'sim-0', missed: null, lost: null },
      { lease: 'sim-1', missed: 'lost', lost: 'renewal_refused' },
    ]);
    expect(sim.held).toBe(1);
    const late = sim.dueRenewal(10_200);
    expect(sim.renewed(late, [{ kind: 'renewed' }], 10_200, 10_200 + T.renewDeadlineMs + 1)[0]!.missed).toBe('late');
  });

  it('dates a renewal from its request: no answer proves the lease past request + ttl − safetyMargin (self-suspicion)', () => {
    const sim = holding(1);
    sim.dueRenewal(5_000); // asked, never answered
    expect(sim.suspected(T.ttlMs - T.safetyMarginMs - 1)).toEqual([]); // granted on a request at 0: valid until 13 s
    expect(sim.suspected(13_000)).toEqual([{ lease: 'sim-0', missed: null, lost: 'self_suspected' }]);
    expect(sim.held).toBe(0);
    expect(sim.dueAcquisitions(18_000)).toHaveLength(1);
  });

  it('sends the reports due in one window as one batch, each with its own seq, at most REPORT_BATCH_MAX per statement', () => {
    const sim = holding(REPORT_BATCH_MAX + 1);
    const { batches, dropped } = sim.dueReports(0);
    expect(dropped).toBe(0);
    expect(batches.map((b) => b.length)).toEqual([REPORT_BATCH_MAX, 1]);
    expect(batches[0]![0]).toEqual({ lease: 'sim-0', epoch: 1, seq: 1, occurrence: null, cursor: null });
    expect(sim.dueReports(10_000).batches).toEqual([]); // the next only after this one is answered
    sim.reported(batches[0]!, 300);
    // The next round of the process's grid (phase 0, a period of 2 s + the slack), not 2 s after the answer.
    expect(sim.dueReports(PERIOD - 1).batches).toEqual([]);
    expect(sim.dueReports(PERIOD).batches[0]!.map((r) => r.seq)).toEqual(Array(REPORT_BATCH_MAX).fill(2));
  });

  it('reports leases answered at different times in the same next round, as the library’s report rounds do', () => {
    const sim = holding(3);
    const [first] = sim.dueReports(0).batches;
    sim.reported([first![0]!], 120);
    sim.reported([first![1]!], 1_700);
    sim.reported([first![2]!], PERIOD - 1);
    const { batches } = sim.dueReports(PERIOD);
    expect(batches.map((b) => b.map((r) => r.lease))).toEqual([['sim-0', 'sim-1', 'sim-2']]);
  });

  it('while dropping, counts the seq but sends nothing: the store sees the jump when reports resume', () => {
    const sim = holding(1);
    sim.reported(sim.dueReports(0).batches[0]!, 0);
    sim.leases[0]!.dropping = true;
    expect(sim.dueReports(PERIOD)).toEqual({ batches: [], dropped: 1 });
    expect(sim.dueReports(2 * PERIOD)).toEqual({ batches: [], dropped: 1 });
    sim.leases[0]!.dropping = false;
    expect(sim.dueReports(3 * PERIOD).batches[0]![0]!.seq).toBe(4);
  });

  it('claims the slot’s occurrence, advances its cursor every advanceEvery (not while frozen) and completes one advance before the slot ends', () => {
    const sim = holding(1, 60_000);
    const [claim] = sim.dueWork(60_000, Infinity, 'claim');
    expect(claim).toEqual({ kind: 'claim', lease: 'sim-0', epoch: 1, key: 'sim-0@1970-01-01T00:01:00Z', slotAt: 60_000 });
    expect(sim.dueWork(60_000, Infinity, 'claim')).toEqual([]); // in flight
    sim.claimed('sim-0', 1, claim!.key, 60_000, { cursor: 0 }, 60_000);
    expect(sim.dueWork(70_000, Infinity, 'complete')).toEqual([]);
    expect(sim.leases[0]!.cursor).toBe(2);
    sim.leases[0]!.frozen = true;
    sim.dueWork(100_000, Infinity, 'complete');
    expect(sim.leases[0]!.cursor).toBe(2);
    sim.leases[0]!.frozen = false;
    // The advances owed since 70 s run now; the one at 115 s (slot end 120 s − 5 s) completes.
    expect(sim.dueWork(116_000, Infinity, 'complete')).toEqual([{ kind: 'complete', lease: 'sim-0', epoch: 1, key: claim!.key }]);
    sim.completed('sim-0', 1, claim!.key, true);
    expect(sim.dueWork(119_000, Infinity, 'claim')).toEqual([]); // done for this slot
    expect(sim.dueWork(120_000, Infinity, 'claim')[0]).toMatchObject({ kind: 'claim', slotAt: 120_000 });
  });

  it('starts at most `limit` claims or completions at once; the rest stay due, their cursor where it was', () => {
    const sim = holding(3, 60_000);
    expect(sim.dueWork(60_000, 2, 'claim').map((a) => a.lease)).toEqual(['sim-0', 'sim-1']);
    expect(sim.dueWork(60_000, 2, 'claim').map((a) => a.lease)).toEqual(['sim-2']);
    for (const lease of sim.leases) sim.claimed(lease.name, 1, lease.name, 60_000, { cursor: 0 }, 60_000);
    expect(sim.dueWork(116_000, 1, 'complete').map((a) => [a.kind, a.lease])).toEqual([['complete', 'sim-0']]);
    expect(sim.leases.map((l) => l.cursor)).toEqual([11, 10, 10]); // the others stop before the advance that completes
    expect(sim.dueWork(116_000, 5, 'complete').map((a) => a.lease)).toEqual(['sim-1', 'sim-2']);
  });

  it('asked for completions, claims nothing; asked for claims, neither moves a cursor nor completes', () => {
    const sim = holding(2, 60_000);
    sim.claimed('sim-0', 1, 'sim-0@1', 60_000, { cursor: 0 }, 60_000);
    expect(sim.dueWork(116_000, Infinity, 'claim').map((a) => [a.kind, a.lease])).toEqual([['claim', 'sim-1']]);
    expect(sim.leases[0]!.cursor).toBe(0);
    expect(sim.dueWork(116_000, Infinity, 'complete').map((a) => [a.kind, a.lease])).toEqual([['complete', 'sim-0']]);
  });

  it('a frozen lease starts no new occurrence, and a slot found completed is not claimed again', () => {
    const sim = holding(2, 60_000);
    sim.leases[0]!.frozen = true;
    const claims = sim.dueWork(60_000, Infinity, 'claim');
    expect(claims.map((c) => c.lease)).toEqual(['sim-1']);
    sim.claimed('sim-1', 1, claims[0]!.key, 60_000, 'completed', 60_100);
    expect(sim.dueWork(61_000, Infinity, 'claim')).toEqual([]);
  });

  it('paused, sends nothing and suspects nothing; resumed, sends what fell due at once', () => {
    const sim = holding(1);
    sim.paused = true;
    expect([sim.dueRenewal(20_000), sim.dueReports(20_000).batches, sim.dueWork(20_000, Infinity, 'claim'), sim.suspected(20_000)]).toEqual([[], [], [], []]);
    sim.paused = false;
    expect(sim.suspected(20_000)).toHaveLength(1); // its deadline passed while it was stopped, as a SIGSTOPped holder finds
  });

  it('killed and restarted: a new holder, nothing held, every lease acquired afresh (seq from 1)', () => {
    const sim = holding(2);
    sim.reported(sim.dueReports(0).batches[0]!, 0);
    sim.restart('inst_bbbbbbbb', 30_000, 0);
    expect(sim.holder).toBe('inst_bbbbbbbb');
    expect(sim.held).toBe(0);
    const due = sim.dueAcquisitions(31_000);
    expect(due).toHaveLength(2);
    for (const lease of due) sim.acquired(lease, 2, 31_000, 31_000);
    expect(sim.dueReports(31_000).batches[0]!.map((r) => [r.epoch, r.seq])).toEqual([
      [2, 1],
      [2, 1],
    ]);
  });
});
