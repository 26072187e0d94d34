import { describe, expect, it } from 'vitest';
import { project } from '../status';
import { MIN, NOW, SEC, T, ago, facts, progress } from '../status/test-fixtures';
import { advance, authorityChip, gapSpanText, viewStatus, workChip, type Observer } from './status-view';

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
