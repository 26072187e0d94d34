import { describe, expect, it } from 'vitest';
import { project } from '../status';
import { MIN, NOW, NOW_MS, SEC, T, ago, facts, lease, progress } from '../status/test-fixtures';
import { advance, authorityChip, gapSpanText, sameRowFacts, viewStatus, workChip, type Observer } from './status-view';

const healthy = () => project(facts(), NOW, T);
const observer = (over: Partial<Observer> = {}): Observer => ({ observedAt: NOW, stale: false, storeOk: true, ...over });

describe('viewStatus', () => {
  it('given a fresh observation, then the server health stands', () => {
    const view = viewStatus(healthy(), observer());
    expect(view.health).toBe('progressing');
    expect(view.withdrawn).toBeNull();
  });

  it('given the browser observation is stale, then health is withdrawn to unknown', () => {
    const view = viewStatus(healthy(), observer({ stale: true }));
    expect(view.health).toBe('unknown');
    expect(view.withdrawn).toBe('browser_stale');
  });

  it('given the store was unreadable, then every row is unknown even if the status said otherwise', () => {
    expect(viewStatus(healthy(), observer({ storeOk: false })).health).toBe('unknown');
  });

  it('given a silent holder, then the gap is open, causes unknown, and its span runs to now', () => {
    const status = project(facts({ progress: progress({ lastReportAt: ago(20 * SEC), lastAdvanceAt: ago(20 * SEC) }) }), NOW, T);
    const gap = viewStatus(status, observer()).gap!;
    expect(gap.causesUnknown).toBe(true);
    expect(gap.open).toBe(true);
    expect(gap.durationMs).toBe(Date.parse(status.observation.gap!.to) - Date.parse(status.observation.gap!.from));
    expect(gapSpanText(gap, (iso) => iso.slice(11, 19))).toMatch(/^since \d\d:\d\d:\d\d \(\d+ s\)$/);
  });

  it('given a closed gap, then its span has both ends', () => {
    const status = project(facts({ progress: progress({ gap: { from: ago(2 * MIN), to: ago(90 * SEC), reason: 'lost_reports' } }) }), NOW, T);
    const gap = viewStatus(status, observer()).gap;
    if (gap) {
      expect(gap.open).toBe(false);
      expect(gap.causesUnknown).toBe(status.health === 'unknown');
      expect(gapSpanText(gap, (iso) => iso.slice(11, 19))).toMatch(/^\d\d:\d\d:\d\d–\d\d:\d\d:\d\d \(30 s\)$/);
    }
  });
});

describe('the axis chips', () => {
  it('given a fresh observation, then each axis shows what the server said', () => {
    const view = viewStatus(healthy(), observer());
    expect(authorityChip(view)).toEqual({ state: 'held', label: 'Held', tone: 'good' });
    expect(workChip(view)).toEqual({ state: 'progressing', label: 'Progressing', tone: 'good' });
  });

  it('given the browser observation is stale, then both axes are withdrawn to unknown, like the health', () => {
    const view = viewStatus(healthy(), observer({ stale: true }));
    expect(authorityChip(view)).toEqual({ state: 'unknown', label: 'Unknown', tone: 'unknown' });
    expect(workChip(view)).toEqual({ state: 'unknown', label: 'Unknown', tone: 'unknown' });
  });

  it('given a lease at risk, then the chip says so and warns', () => {
    const status = healthy();
    const view = viewStatus({ ...status, authority: { ...status.authority, atRisk: true } }, observer());
    expect(authorityChip(view)).toEqual({ state: 'held', label: 'Held · at risk', tone: 'warn' });
  });
});

describe('advance', () => {
  it('ages grow and times to expiry shrink by the local time since observation', () => {
    expect(advance(1_200, 1_500)).toBe(2_700);
    expect(advance(2_000, 1_500, -1)).toBe(500);
  });

  it('is unknown when stale or absent', () => {
    expect(advance(1_200, null)).toBeNull();
    expect(advance(null, 100)).toBeNull();
  });
});

describe('sameRowFacts', () => {
  const LATER_MS = NOW_MS + 2 * SEC;
  const LATER = new Date(LATER_MS).toISOString();
  const readAt = (nowMs: number, over: Parameters<typeof facts>[0] = {}) => project(facts(over), new Date(nowMs).toISOString(), T);

  it('given the same facts read two seconds apart, then only ages, reasons and expiry moved: the row keeps the older answer', () => {
    const first = readAt(NOW_MS);
    const second = readAt(LATER_MS);
    expect(second.authority.renewalAgeMs).not.toBe(first.authority.renewalAgeMs);
    expect(sameRowFacts(first, NOW, second, LATER)).toBe(true);
  });

  it('given only a report that said nothing new between the reads, then the row shows the same facts', () => {
    const reported = readAt(LATER_MS, { progress: progress({ lastReportAt: ago(0, LATER_MS) }) });
    const first = readAt(NOW_MS);
    expect(reported.work.lastReportAt).not.toBe(first.work.lastReportAt);
    expect(reported.health).toBe(first.health);
    expect(sameRowFacts(first, NOW, reported, LATER)).toBe(true);
  });

  it('given a renewal between the reads, then the facts differ', () => {
    const renewed = readAt(LATER_MS, { lease: lease({ renewedAt: ago(0, LATER_MS) }) });
    expect(sameRowFacts(readAt(NOW_MS), NOW, renewed, LATER)).toBe(false);
  });

  it('given a new cursor, a new health or a lease at risk, then the facts differ', () => {
    const first = readAt(NOW_MS);
    expect(sameRowFacts(first, NOW, { ...first, work: { ...first.work, cursor: (first.work.cursor ?? 0) + 1 } }, NOW)).toBe(false);
    expect(sameRowFacts(first, NOW, { ...first, health: 'stalled' }, NOW)).toBe(false);
    expect(sameRowFacts(first, NOW, { ...first, authority: { ...first.authority, atRisk: true } }, NOW)).toBe(false);
  });

  it('given a gap open at both reads, then its moving end is the same fact; once it closes, it is not', () => {
    const silent = (nowMs: number) => readAt(nowMs, { progress: progress({ lastReportAt: ago(20 * SEC), lastAdvanceAt: ago(20 * SEC) }) });
    const first = silent(NOW_MS);
    const second = silent(LATER_MS);
    expect(first.observation.gap!.to).not.toBe(second.observation.gap!.to);
    expect(sameRowFacts(first, NOW, second, LATER)).toBe(true);
    const closed = { ...second, observation: { gap: { ...second.observation.gap!, to: NOW } } };
    expect(sameRowFacts(first, NOW, closed, LATER)).toBe(false);
  });
});
