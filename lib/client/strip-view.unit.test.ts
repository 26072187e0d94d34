import { describe, expect, it } from 'vitest';
import type { StripRow } from '@/lib/api/types';
import { buildStrip, stripFrame, type CellChanges } from '@/lib/status';
import { axisOf, axisTicks, momentHref, placeSegments, segmentLabel, stripSummary, WINDOW_LABEL } from './strip-view';
import { formatInstant } from './time-zone';

const BERLIN = 'Europe/Berlin'; // UTC+1 in December
const axis = axisOf({ from: '2026-12-02T09:31:00.000Z', to: '2026-12-02T10:31:00.000Z' });
const row: StripRow = {
  name: 'retention planner',
  since: '2026-12-02T10:01:00.000Z',
  registeredAt: '2026-12-02T10:01:00.000Z',
  worst: 'stalled',
  segments: [
    { from: '2026-12-02T10:01:00.000Z', to: '2026-12-02T10:16:00.000Z', health: 'progressing', notObserved: false, at: '2026-12-02T10:01:00.000Z' },
    { from: '2026-12-02T10:16:00.000Z', to: '2026-12-02T10:17:00.000Z', health: 'stalled', notObserved: true, at: '2026-12-02T10:16:20.000Z' },
  ],
};

describe('local time', () => {
  it('formats in the given zone, or in UTC when asked; never changes the instant', () => {
    expect(formatInstant('2026-12-02T10:16:20.000Z', 'local', { timeZone: BERLIN })).toBe('2026-12-02 11:16:20 GMT+1');
    expect(formatInstant('2026-12-02T10:16:20.000Z', 'utc')).toBe('2026-12-02 10:16:20Z');
    expect(formatInstant('2026-12-02T10:16:20.000Z', 'local', { timeZone: 'UTC', seconds: false })).toBe('2026-12-02 10:16 UTC');
  });
});

describe('strip view', () => {
  it('places segments on the shared axis from registration on, linking each to its moment in UTC', () => {
    const placed = placeSegments(row, axis, 'local', BERLIN);
    expect(placed.map((p) => [Math.round(p.left), Math.round(p.width)])).toEqual([
      [50, 25],
      [75, 2],
    ]);
    expect(placed[1]!.href).toBe('/schedulers/retention%20planner?at=2026-12-02T10%3A16%3A20.000Z');
    expect(momentHref('a', '2026-12-02T10:16:20.000Z')).toContain('?at=2026-12-02T10%3A16%3A20.000Z');
  });

  it('says what a segment was, in the viewer zone', () => {
    expect(segmentLabel(row.segments[1]!, 'local', BERLIN)).toBe('Stalled, 2026-12-02 11:16:00 GMT+1 – 11:17:00 GMT+1 (not fully observed)');
    expect(segmentLabel(row.segments[1]!, 'utc')).toBe('Stalled, 2026-12-02 10:16:00Z – 10:17:00Z (not fully observed)');
  });

  it('ticks fall on whole quarter hours of the viewer clock', () => {
    expect(axisTicks('1h', axis, 'local', BERLIN).map((t) => t.label)).toEqual(['10:45', '11:00', '11:15', '11:30']);
    expect(axisTicks('1h', axis, 'utc').map((t) => t.label)).toEqual(['09:45Z', '10:00Z', '10:15Z', '10:30Z']);
    const india = axisOf({ from: '2026-12-02T09:31:00.000Z', to: '2026-12-02T10:31:00.000Z' });
    expect(axisTicks('1h', india, 'local', 'Asia/Kolkata').map((t) => t.label)).toEqual(['15:15', '15:30', '15:45', '16:00']);
  });

  it('sums a row up in words, registration included', () => {
    expect(stripSummary(row, 'hour', 'utc')).toBe('Last hour: worst stalled; 1 episode not healthy. Registered at 2026-12-02 10:01:00Z.');
    expect(stripSummary({ ...row, worst: null, segments: [] }, 'hour', 'utc')).toBe('No history in the last hour.');
  });
});

describe('a week-old scheduler at 7 d', () => {
  const HOUR = 3_600_000;
  const NOW = Date.parse('2026-12-02T10:30:20.000Z');
  const frame = stripFrame('7d', NOW);
  const at = (hoursAgo: number) => NOW - hoursAgo * HOUR;
  const cellOf = (ms: number) => Math.floor((ms - frame.fromMs) / frame.cellMs);
  const everyHour = new Set(Array.from({ length: 7 * 24 * 60 + 60 }, (_, i) => Math.floor(frame.fromMs / 60_000) * 60_000 + i * 60_000));
  // A takeover gap each day at the same hour (40 s of no leader), and a stall of 3 hours two days ago.
  const changes: CellChanges[] = [
    ...Array.from({ length: 6 }, (_, d): CellChanges => ({
      cell: cellOf(at(24 * (6 - d) + 5)),
      worst: 'no_leader',
      worstAtMs: at(24 * (6 - d) + 5),
      last: 'progressing',
    })),
    { cell: cellOf(at(50)), worst: 'stalled' as const, worstAtMs: at(50), last: 'stalled' as const },
    { cell: cellOf(at(47)), worst: 'progressing' as const, worstAtMs: at(47), last: 'progressing' as const },
  ].sort((a, b) => a.cell - b.cell);
  const toRow = (bornMs: number): StripRow => {
    const strip = buildStrip({ frame, bornMs, horizonMs: 0, carried: { health: 'progressing', atMs: bornMs }, changes, observedMinutes: everyHour });
    return {
      name: 'index-compaction',
      since: strip.sinceMs === null ? null : new Date(strip.sinceMs).toISOString(),
      registeredAt: new Date(bornMs).toISOString(),
      worst: strip.worst,
      segments: strip.segments.map((s) => ({
        from: new Date(s.fromMs).toISOString(),
        to: new Date(s.toMs).toISOString(),
        health: s.health,
        notObserved: s.notObserved,
        at: new Date(s.atMs).toISOString(),
      })),
    };
  };
  const weekAxis = axisOf({ from: new Date(frame.fromMs).toISOString(), to: new Date(NOW).toISOString() });

  it('fills the whole window from its left edge (registered before it): no "registered at", each lapse and the stall readable', () => {
    const row = toRow(at(8 * 24));
    expect(Date.parse(row.since!)).toBe(frame.fromMs);
    const placed = placeSegments(row, weekAxis, 'utc');
    expect(placed[0]!.left).toBe(0);
    expect(Math.round(placed.at(-1)!.left + placed.at(-1)!.width)).toBe(100);
    // Six one-hour no-leader cells, and one stalled run: 3 hours, over the 4 cells it touched (a cell shows its worst).
    expect(row.segments.filter((s) => s.health === 'no_leader')).toHaveLength(6);
    expect(row.segments.filter((s) => s.health === 'stalled').map((s) => (Date.parse(s.to) - Date.parse(s.from)) / HOUR)).toEqual([4]);
    // An hour is 1/168 of the strip: still wide enough to see and to hit.
    expect(placed.filter((p) => p.segment.health === 'no_leader').every((p) => p.width >= 100 / 168 - 1e-9)).toBe(true);
    expect(row.segments.length).toBeLessThanOrEqual(frame.cells);
    expect(stripSummary(row, WINDOW_LABEL['7d'], 'utc')).toBe('Last 7 days: worst stalled; 7 episodes not healthy.');
    expect(axisTicks('7d', weekAxis, 'utc').map((t) => t.label)).toHaveLength(7); // one tick a day, MM-DD hh:mm
  });

  it('registered 6 days ago: nothing before registration, and the summary says when it was', () => {
    const row = toRow(at(6 * 24 + 0.5));
    expect(row.since).toBe(row.registeredAt);
    expect(row.segments.every((s) => Date.parse(s.from) >= Date.parse(row.registeredAt!))).toBe(true);
    expect(placeSegments(row, weekAxis, 'utc')[0]!.left).toBeGreaterThan(13); // the 23 hours before registration (of the window's 167⅓) are empty
    expect(stripSummary(row, WINDOW_LABEL['7d'], 'utc')).toMatch(/Registered at 2026-11-26 10:00:20Z\.$/);
  });
});
