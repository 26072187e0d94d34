import { describe, expect, it } from 'vitest';
import { project } from '../status';
import { MIN, NOW, SEC, T, ago, facts, progress } from '../status/test-fixtures';
import { advance, gapSpanText, viewStatus, type Observer } from './status-view';

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
