import { describe, expect, it } from 'vitest';
import { DAY_MS, groupReliability, isReliabilityWindow, leastReliableFirst, reliabilityFrame, schedulerReliability, splitWindow } from './reliability';

const HOUR = 3_600_000;
// 10:30 UTC on 2 December: the 24 h window starts 10:30 on the 1st, the 7 d one at midnight on 25 November.
const NOW = Date.parse('2026-12-02T10:30:00.000Z');
const day = (iso: string) => Date.parse(`${iso}T00:00:00.000Z`);

describe('reliability windows', () => {
  it('given a window word, then only 24h, 7d and 30d are windows', () => {
    expect(['24h', '7d', '30d'].every(isReliabilityWindow)).toBe(true);
    expect(['1h', '30D', '', '31d', null, 7].some(isReliabilityWindow)).toBe(false);
  });

  it('given now, then 24h is the last 24 h, and 7d and 30d the whole UTC days before today and today so far', () => {
    expect(reliabilityFrame('24h', NOW)).toEqual({ fromMs: NOW - DAY_MS, toMs: NOW });
    expect(reliabilityFrame('7d', NOW)).toEqual({ fromMs: day('2026-11-25'), toMs: NOW });
    expect(reliabilityFrame('30d', NOW).fromMs).toBe(day('2026-11-02'));
  });

  const DAYS = { firstMs: day('2026-11-01'), lastMs: day('2026-12-01') };
  const HOURS = { firstMs: day('2026-11-30'), lastMs: Date.parse('2026-12-02T09:00:00.000Z') };

  it('given folded days and hours, then whole days come from days, the whole hours of today from hours, and the partial hour from the changes', () => {
    const split = splitWindow(reliabilityFrame('7d', NOW), DAYS, HOURS);
    expect(split).toEqual({
      days: { fromMs: day('2026-11-25'), toMs: day('2026-12-02') },
      hours: [{ fromMs: day('2026-12-02'), toMs: Date.parse('2026-12-02T10:00:00.000Z') }],
      raw: [{ fromMs: Date.parse('2026-12-02T10:00:00.000Z'), toMs: NOW }],
    });
  });

  it('given a rolling 24 h window, then its partial hours at both ends come from the changes and the whole hours from hours', () => {
    const frame = reliabilityFrame('24h', Date.parse('2026-12-02T10:30:20.000Z'));
    const split = splitWindow(frame, DAYS, HOURS);
    expect(split.days).toBeNull(); // no whole UTC day fits in 24 h that do not start at midnight
    expect(split.hours).toEqual([{ fromMs: Date.parse('2026-12-01T11:00:00.000Z'), toMs: Date.parse('2026-12-02T10:00:00.000Z') }]);
    expect(split.raw).toEqual([
      { fromMs: frame.fromMs, toMs: Date.parse('2026-12-01T11:00:00.000Z') },
      { fromMs: Date.parse('2026-12-02T10:00:00.000Z'), toMs: frame.toMs },
    ]);
  });

  it('given yesterday and the last hours not folded yet, then the changes cover them', () => {
    const split = splitWindow(
      reliabilityFrame('7d', NOW),
      { firstMs: day('2026-11-01'), lastMs: day('2026-11-30') },
      { firstMs: day('2026-11-30'), lastMs: Date.parse('2026-12-02T07:00:00.000Z') },
    );
    expect(split.days?.toMs).toBe(day('2026-12-01'));
    expect(split.hours).toEqual([{ fromMs: day('2026-12-01'), toMs: Date.parse('2026-12-02T08:00:00.000Z') }]);
    expect(split.raw).toEqual([{ fromMs: Date.parse('2026-12-02T08:00:00.000Z'), toMs: NOW }]);
  });

  it('given nothing folded inside the window (none kept, or only older rows), then the whole window comes from the changes', () => {
    const frame = reliabilityFrame('24h', NOW);
    expect(splitWindow(frame, null, null)).toEqual({ days: null, hours: [], raw: [frame] });
    const old = { firstMs: day('2026-11-01'), lastMs: day('2026-11-20') };
    expect(splitWindow(frame, old, old)).toEqual({ days: null, hours: [], raw: [frame] });
  });

  it('given a window ending at midnight exactly, then no empty span is read', () => {
    const midnight = day('2026-12-02');
    expect(splitWindow(reliabilityFrame('7d', midnight), DAYS, HOURS)).toEqual({ days: { fromMs: day('2026-11-25'), toMs: midnight }, hours: [], raw: [] });
    expect(reliabilityFrame('7d', midnight).fromMs).toBe(day('2026-11-25'));
  });
});

describe('schedulerReliability', () => {
  const frame = reliabilityFrame('24h', NOW);

  it('given every moment judged, then each fraction is its time over the window', () => {
    const r = schedulerReliability(frame, 0, { progressing: 18 * HOUR, idle: 3 * HOUR, stalled: 2 * HOUR, no_leader: HOUR });
    expect(r.accountedMs).toBe(DAY_MS);
    expect(r.fractions).toEqual({ stalled: 2 / 24, no_leader: 1 / 24, unknown: 0, disabled: 0, idle: 3 / 24, progressing: 18 / 24 });
  });

  it('given hours nobody judged, then they count as unknown, never as up', () => {
    const r = schedulerReliability(frame, 0, { progressing: 20 * HOUR });
    expect(r.spentMs.unknown).toBe(4 * HOUR);
    expect(r.fractions.progressing).toBeCloseTo(20 / 24, 12);
    expect(r.fractions.unknown).toBeCloseTo(4 / 24, 12);
  });

  it('given a scheduler born inside the window, then only the time since its first registration is accounted', () => {
    const r = schedulerReliability(frame, NOW - 6 * HOUR, { progressing: 6 * HOUR });
    expect(r.accountedMs).toBe(6 * HOUR);
    expect(r.fractions.progressing).toBe(1);
  });

  it('given a scheduler born after now, then nothing is accounted and no fraction is claimed', () => {
    const r = schedulerReliability(frame, NOW + 1, {});
    expect(r.accountedMs).toBe(0);
    expect(Object.values(r.fractions).every((f) => f === null)).toBe(true);
  });

  it('given stored time beyond the window (overlapping rows), then the excess comes out of unknown and good healths, never out of stalled', () => {
    const r = schedulerReliability(frame, 0, { stalled: 10 * HOUR, unknown: 2 * HOUR, progressing: 14 * HOUR });
    expect(r.spentMs).toMatchObject({ stalled: 10 * HOUR, unknown: 0, progressing: 14 * HOUR });
  });
});

describe('groupReliability', () => {
  it('given members of different ages, then times are summed, so the older member weighs more', () => {
    const frame = reliabilityFrame('24h', NOW);
    const old = schedulerReliability(frame, 0, { progressing: DAY_MS });
    const young = schedulerReliability(frame, NOW - 8 * HOUR, { stalled: 8 * HOUR });
    const g = groupReliability([old, young]);
    expect(g.accountedMs).toBe(32 * HOUR);
    expect(g.fractions.progressing).toBe(24 / 32);
    expect(g.fractions.stalled).toBe(8 / 32);
  });

  it('given no member, then nothing is accounted', () => {
    expect(groupReliability([]).fractions.progressing).toBeNull();
  });
});

describe('least reliable first', () => {
  const row = (name: string, shares: Partial<Record<'stalled' | 'no_leader' | 'unknown' | 'progressing', number>> | null) => ({
    name,
    fractions: {
      stalled: shares === null ? null : (shares.stalled ?? 0),
      no_leader: shares === null ? null : (shares.no_leader ?? 0),
      unknown: shares === null ? null : (shares.unknown ?? 0),
      disabled: shares === null ? null : 0,
      idle: shares === null ? null : 0,
      progressing: shares === null ? null : (shares.progressing ?? 0),
    },
  });

  it('given shares of time not known good, then the largest share first, the more severe at a tie, then by name; nothing accounted counts as unknown', () => {
    const rows = [
      row('steady', { progressing: 1 }),
      row('b-unknown', { unknown: 0.2, progressing: 0.8 }),
      row('a-unknown', { unknown: 0.2, progressing: 0.8 }),
      row('stalled-a-little', { stalled: 0.2, progressing: 0.8 }),
      row('leaderless', { no_leader: 0.5, progressing: 0.5 }),
      row('never-judged', null),
    ];
    expect(leastReliableFirst(rows).map((r) => r.name)).toEqual(['never-judged', 'leaderless', 'stalled-a-little', 'a-unknown', 'b-unknown', 'steady']);
    expect(rows[0]!.name).toBe('steady'); // the input is left as it was
  });
});
