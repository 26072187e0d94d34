/**
 * Work axis, given/when/then on fake time. Scenarios step `now` forward over
 * a holder that keeps renewing and reporting, so each rule is seen to switch
 * exactly at its boundary ("older than" is strict >).
 */
import { describe, expect, it } from 'vitest';
import { project } from './project';
import { ago, facts, lease, MIN, NOW, NOW_MS, progress, SEC, T } from './test-fixtures';
import type { SchedulerFacts, SchedulerStatus } from './types';

/** A holder renewing and reporting every 2 s up to `atMs`, whose last advance was at `advanceMs`. */
function renewingHolder(
  atMs: number,
  advanceMs: number,
  over: Partial<NonNullable<SchedulerFacts['progress']>> = {},
  leaseOver: Partial<NonNullable<SchedulerFacts['lease']>> = {},
) {
  const f = facts({
    lease: lease({ renewedAt: ago(1 * SEC, atMs), expiresAt: ago(-14 * SEC, atMs), ...leaseOver }),
    progress: progress({ lastReportAt: ago(1 * SEC, atMs), lastAdvanceAt: new Date(advanceMs).toISOString(), ...over }),
  });
  return project(f, new Date(atMs).toISOString(), T);
}

const states = (s: SchedulerStatus) => ({ health: s.health, work: s.work.state, gap: s.observation.gap?.reason ?? null });

describe('work: active progressing', () => {
  it('given an advance 3 s ago and a report 1 s ago, then progressing with the work fields of the report', () => {
    const status = project(facts(), NOW, T);
    expect(states(status)).toEqual({ health: 'progressing', work: 'progressing', gap: null });
    expect(status.work).toEqual({
      state: 'progressing',
      occurrence: 'retention-planner@2026-11-30T11:58:00Z',
      cursor: 42,
      lastAdvanceAt: ago(3 * SEC),
      lastAdvanceAgeMs: 3 * SEC,
      lastReportAt: ago(1 * SEC),
      lastReportAgeMs: 1 * SEC,
    });
  });
});

describe('work: progress frozen while the holder keeps renewing', () => {
  const frozenAt = NOW_MS - 10 * MIN;
  it.each([
    { when: '30 s after the last advance', elapsed: 30 * SEC, then: 'progressing' },
    { when: 'exactly stallAfter after it', elapsed: MIN, then: 'progressing' },
    { when: 'stallAfter + 1 ms after it', elapsed: MIN + 1, then: 'stalled' },
    { when: '5 min after it', elapsed: 5 * MIN, then: 'stalled' },
  ] as const)('when $when, then $then', ({ elapsed, then }) => {
    const status = renewingHolder(frozenAt + elapsed, frozenAt);
    expect(status.authority.state).toBe('held');
    expect(states(status)).toEqual({ health: then, work: then, gap: null });
  });

  it('then the stalled reason states the age and the threshold', () => {
    const status = renewingHolder(frozenAt + 11 * MIN, frozenAt);
    expect(status.reasons).toContainEqual({
      code: 'work_stalled',
      message:
        'occurrence retention-planner@2026-11-30T11:58:00Z last advanced 11 min ago > stall threshold 1 min; reports continuous for 1 min (last report 1 s ago)',
    });
  });
});

describe('work: reports silent longer than gapAfter (3 × reportEvery = 6 s)', () => {
  it.each([
    { when: 'the last report is exactly 6 s old', reportAge: 6 * SEC, then: { health: 'progressing', work: 'progressing', gap: null } },
    { when: 'the last report is 6.001 s old', reportAge: 6 * SEC + 1, then: { health: 'unknown', work: 'unknown', gap: 'silence' } },
  ] as const)('when $when, then $then.work', ({ reportAge, then }) => {
    const status = project(facts({ progress: progress({ lastReportAt: ago(reportAge), lastAdvanceAt: ago(reportAge) }) }), NOW, T);
    expect(states(status)).toEqual(then);
  });

  it('then the gap is open from the last report to now, and the stuck advance does not make it stalled', () => {
    const status = project(facts({ progress: progress({ lastReportAt: ago(10 * SEC), lastAdvanceAt: ago(5 * MIN) }) }), NOW, T);
    expect(status.work.state).toBe('unknown');
    expect(status.observation.gap).toEqual({ from: ago(10 * SEC), to: NOW, reason: 'silence' });
    expect(status.reasons).toContainEqual({ code: 'reports_silent', message: 'no report for 10 s > gap threshold 6 s (last report at 11:59:50Z, epoch 7)' });
  });

  it('given an explicit gapAfterMs, then it replaces the default', () => {
    const f = facts({ progress: progress({ lastReportAt: ago(10 * SEC), lastAdvanceAt: ago(10 * SEC) }) });
    expect(project(f, NOW, { ...T, gapAfterMs: 20 * SEC }).work.state).toBe('progressing');
  });

  it('given gapAfter ≥ stallAfter, then a stall cannot be proven and reads unknown', () => {
    const f = facts({ progress: progress({ lastAdvanceAt: ago(5 * MIN), reportEveryMs: 30 * SEC }) });
    const status = project(f, NOW, T);
    expect(status.work.state).toBe('unknown');
    expect(status.reasons.map((r) => r.code)).toContain('stall_unprovable');
  });
});

describe('work: lost reports (a closed break) — unknown until an advance or a full continuous stall window', () => {
  const breakEnd = NOW_MS - 20 * SEC;
  const gap = { from: ago(30 * SEC), to: ago(20 * SEC), reason: 'lost_reports' as const };
  const advanceBefore = NOW_MS - 2 * MIN;
  it.each([
    { when: 'just after the break', after: 1 * SEC, advance: advanceBefore, then: { health: 'unknown', work: 'unknown', gap: 'lost_reports' } },
    { when: 'stallAfter − 1 ms after it', after: MIN - 1, advance: advanceBefore, then: { health: 'unknown', work: 'unknown', gap: 'lost_reports' } },
    { when: 'exactly stallAfter after it', after: MIN, advance: advanceBefore, then: { health: 'stalled', work: 'stalled', gap: null } },
    { when: 'an advance arrived at the break end', after: 5 * SEC, advance: breakEnd, then: { health: 'progressing', work: 'progressing', gap: null } },
    {
      when: 'an advance arrived after the break',
      after: 5 * SEC,
      advance: breakEnd + 2 * SEC,
      then: { health: 'progressing', work: 'progressing', gap: null },
    },
  ] as const)('when $when, then $then.work', ({ after, advance, then }) => {
    const status = renewingHolder(breakEnd + after, advance, { gap });
    expect(states(status)).toEqual(then);
  });

  it('given an advance before the break but within stallAfter, then progressing and the unproven break is still shown', () => {
    const status = project(facts({ progress: progress({ lastAdvanceAt: ago(40 * SEC), gap }) }), NOW, T);
    expect(status.work.state).toBe('progressing');
    expect(status.observation.gap).toEqual(gap);
  });
});

describe('work: only the current epoch counts', () => {
  it('given a new leader (epoch 8) and only epoch 7 reports, even fresh ones, then unknown with a gap since acquisition', () => {
    const f = facts({ lease: lease({ epoch: 8, acquiredAt: ago(3 * SEC), renewedAt: ago(3 * SEC) }), progress: progress({ epoch: 7, lastAdvanceAt: ago(0) }) });
    const status = project(f, NOW, T);
    expect(states(status)).toEqual({ health: 'unknown', work: 'unknown', gap: 'previous_epoch_only' });
    expect(status.observation.gap).toEqual({ from: ago(3 * SEC), to: NOW, reason: 'previous_epoch_only' });
    expect(status.work).toMatchObject({ occurrence: null, cursor: null, lastAdvanceAt: null, lastReportAt: null });
  });

  it('given a holder that has not reported at all, then unknown with reason no_report_yet', () => {
    const status = project(facts({ progress: null }), NOW, T);
    expect(states(status)).toEqual({ health: 'unknown', work: 'unknown', gap: 'no_report_yet' });
  });

  it('given reports of a newer epoch than the lease read, then unknown and the inconsistency is named', () => {
    const status = project(facts({ progress: progress({ epoch: 8 }) }), NOW, T);
    expect(status.work.state).toBe('unknown');
    expect(status.reasons.map((r) => r.code)).toEqual(['authority_held', 'no_report_yet', 'epoch_mismatch']);
  });

  it('given the new epoch first report (the store sets lastAdvanceAt to it), then progressing, and stalled only after stallAfter', () => {
    const newLease = lease({ epoch: 8, acquiredAt: ago(4 * SEC), renewedAt: ago(1 * SEC) });
    const first = progress({ epoch: 8, lastSeq: 1, lastReportAt: ago(2 * SEC), lastAdvanceAt: ago(2 * SEC), cursor: 0 });
    expect(project(facts({ lease: newLease, progress: first }), NOW, T).work.state).toBe('progressing');
    const firstAt = NOW_MS - 2 * SEC;
    const epoch8 = { epoch: 8, acquiredAt: ago(4 * SEC) };
    expect(renewingHolder(firstAt + MIN, firstAt, { epoch: 8 }, epoch8).work.state).toBe('progressing');
    expect(renewingHolder(firstAt + MIN + 1, firstAt, { epoch: 8 }, epoch8).work.state).toBe('stalled');
  });
});

describe('work: idle vs overdue (nothing in flight, last advance 5 min ago)', () => {
  const idle = (due: SchedulerFacts['due'], over: Partial<NonNullable<SchedulerFacts['progress']>> = {}) =>
    project(facts({ progress: progress({ inFlight: null, cursor: null, lastAdvanceAt: ago(5 * MIN), ...over }), due }), NOW, T);
  const due = (ms: number) => ({ occurrence: 'retention-planner@x', dueAt: ago(ms) });
  it.each([
    { given: 'nothing due', due: null, then: 'idle' },
    { given: 'an occurrence due in 30 s', due: due(-30 * SEC), then: 'idle' },
    { given: 'an occurrence due exactly overdueAfter ago', due: due(MIN), then: 'idle' },
    { given: 'an occurrence due overdueAfter + 1 ms ago', due: due(MIN + 1), then: 'stalled' },
  ] as const)('given $given, then $then', ({ due: d, then }) => {
    expect(states(idle(d))).toEqual({ health: then, work: then, gap: null });
  });

  it('given an overdue occurrence but a break in the stall window, then unknown, not stalled', () => {
    const gap = { from: ago(30 * SEC), to: ago(20 * SEC), reason: 'silence' as const };
    expect(states(idle(due(2 * MIN), { gap }))).toEqual({ health: 'unknown', work: 'unknown', gap: 'silence' });
  });

  it('given an overdue occurrence but an advance 10 s ago, then progressing (an advance is proof)', () => {
    expect(idle(due(2 * MIN), { lastAdvanceAt: ago(10 * SEC) }).work.state).toBe('progressing');
  });

  it('then the overdue reason names the occurrence and the threshold', () => {
    expect(idle(due(2 * MIN)).reasons).toContainEqual({
      code: 'work_overdue',
      message: 'occurrence retention-planner@x due 2 min ago, not started > overdue threshold 1 min; reports continuous for 1 min (last report 1 s ago)',
    });
  });
});
