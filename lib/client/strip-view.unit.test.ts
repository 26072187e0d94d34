import { describe, expect, it } from 'vitest';
import type { StripRow } from '@/lib/api/types';
import { axisOf, axisTicks, momentHref, placeSegments, segmentLabel, stripSummary } from './strip-view';
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
