import { describe, expect, it } from 'vitest';
import type { SchedulerHistoryResponse } from '../api/types';
import { MIN_VIEW_MS, timelineModel } from './timeline';

const T0 = Date.parse('2026-11-30T12:00:00Z');
const iso = (ms: number) => new Date(T0 + ms).toISOString();
const BUCKET = 10_000;

function history(over: Partial<SchedulerHistoryResponse> = {}): SchedulerHistoryResponse {
  const buckets = Array.from({ length: 12 }, (_, i) => ({
    t: iso(50 * 60_000 + i * BUCKET),
    renewalAgeMaxMs: 1_000,
    cursor: 100 * i,
    advances: 2,
    reports: 4,
    epoch: 3,
  }));
  return {
    name: 'retention-planner',
    from: iso(0),
    to: iso(60 * 60_000),
    bucketMs: BUCKET,
    registeredAt: null,
    ttlMs: 3_000,
    segments: [],
    gaps: [],
    tenures: [{ epoch: 3, holder: 'inst_a', label: 'A', from: iso(50 * 60_000), to: null, began: 'acquired', ended: null }],
    buckets,
    alerts: [],
    ...over,
  };
}

describe('timelineModel', () => {
  it('never interpolates across an unknown span: its buckets are null points', () => {
    const gap = { from: iso(50 * 60_000 + 30_000), to: iso(50 * 60_000 + 60_000), reason: 'silence' as const };
    const model = timelineModel(history({ gaps: [gap], segments: [{ from: gap.from, to: gap.to, health: 'unknown', gap }] }));
    const inside = model.points.filter((p) => p.t >= Date.parse(gap.from) && p.t < Date.parse(gap.to));
    expect(inside.length).toBeGreaterThan(0);
    expect(inside.every((p) => p.cursor === null && p.advances === null)).toBe(true);
    // Report gaps say nothing about authority: renewal age stays.
    expect(inside.every((p) => p.renewalAgeS === 1)).toBe(true);
    // Segment and gap over the same span are one shaded area with the gap's reason.
    expect(model.unknownSpans).toHaveLength(1);
    expect(model.unknownSpans[0]!.label).toBe('unknown: reports went silent');
  });

  it('a store that could not be read makes the authority axis unknown too', () => {
    const gap = { from: iso(52 * 60_000), to: iso(53 * 60_000), reason: 'store_unreadable' as const };
    const model = timelineModel(history({ gaps: [gap] }));
    const inside = model.points.filter((p) => p.t >= Date.parse(gap.from) && p.t < Date.parse(gap.to));
    expect(inside.every((p) => p.renewalAgeS === null && p.cursor === null)).toBe(true);
  });

  it('a failover: its span hides both axes, and the first epoch of the new generation is marked as a failover', () => {
    const gap = { from: iso(51 * 60_000), to: iso(52 * 60_000), reason: 'failover' as const };
    const tenures = [
      { epoch: 3, holder: 'inst_a', label: 'A', from: iso(50 * 60_000), to: iso(51 * 60_000 + 15_000), began: 'acquired' as const, ended: 'expired' as const },
      { epoch: 1_000_000_001, holder: 'inst_b', label: 'B', from: iso(52 * 60_000), to: null, began: 'taken_over' as const, ended: null },
    ];
    const model = timelineModel(history({ gaps: [gap], segments: [{ from: gap.from, to: gap.to, health: 'unknown', gap }], tenures }));
    const inside = model.points.filter((p) => p.t >= Date.parse(gap.from) && p.t < Date.parse(gap.to));
    expect(inside.length).toBeGreaterThan(0);
    expect(inside.every((p) => p.renewalAgeS === null && p.cursor === null && p.advances === null)).toBe(true);
    expect(model.unknownSpans.map((s) => s.label)).toEqual(['unknown: database failover: grants on the old primary may be lost']);
    expect(model.epochMarks.map((m) => [m.label, m.failover])).toEqual([
      ['3', false],
      ['gen 1 · 1', true],
    ]);
  });

  it('starts the view just before the first evidence, showing at least MIN_VIEW_MS', () => {
    const model = timelineModel(history());
    expect(model.viewFrom).toBe(Date.parse(iso(50 * 60_000 - 30_000)));
    const young = timelineModel(history({ tenures: [], buckets: [{ ...history().buckets[0]!, t: iso(58 * 60_000) }] }));
    expect(young.viewFrom).toBe(Date.parse(iso(60 * 60_000)) - MIN_VIEW_MS);
    expect(model.epochMarks).toEqual([{ t: Date.parse(iso(50 * 60_000)), epoch: 3, holder: 'inst_a', label: '3', failover: false }]);
    expect(model.renewalAxisMaxS).toBeGreaterThan(3);
  });
});

describe('timelineModel downsampling', () => {
  it('keeps at most MAX_POINTS points and nulls every merged bucket that touches an unknown span', () => {
    const buckets = Array.from({ length: 360 }, (_, i) => ({ t: iso(i * BUCKET), renewalAgeMaxMs: 900, cursor: i, advances: 1, reports: 2, epoch: 1 }));
    const gap = { from: iso(100 * BUCKET + 1_000), to: iso(101 * BUCKET), reason: 'lost_reports' as const };
    const model = timelineModel(history({ buckets, gaps: [gap], tenures: [{ ...history().tenures[0]!, from: iso(0) }] }));
    expect(model.points.length).toBeLessThanOrEqual(120);
    const touching = model.points.filter((p) => p.t <= Date.parse(gap.from) && p.t + 3 * BUCKET > Date.parse(gap.from));
    expect(touching).toHaveLength(1);
    expect(touching[0]!.cursor).toBeNull();
    expect(model.points.filter((p) => p.cursor === null)).toHaveLength(1);
    expect(model.points[1]!.advances).toBe(3);
    expect(model.points[1]!.cursor).toBe(5);
  });

  it('shows a lapse: the renewal age climbs past the TTL up to the takeover, the leaderless span is shaded, the axis stays readable', () => {
    const lapse = history({
      ttlMs: 3_000,
      buckets: history().buckets.map((b, i) => ({ ...b, renewalAgeMaxMs: i < 4 ? 1_000 : 1_000 + (i - 3) * 10_000, epoch: i < 4 ? 3 : null })),
      segments: [{ from: iso(50 * 60_000 + 50_000), to: iso(50 * 60_000 + 120_000), health: 'no_leader', gap: null }],
    });
    const model = timelineModel(lapse);
    expect(model.points.map((p) => p.renewalAgeS)).toContain(81);
    expect(model.noLeaderSpans).toEqual([{ from: Date.parse(iso(50 * 60_000 + 50_000)), to: Date.parse(iso(50 * 60_000 + 120_000)) }]);
    expect(model.renewalAxisMaxS).toBe(12); // 4 × TTL: the climb runs off the top, normal renewals stay visible
    expect(timelineModel(history()).noLeaderSpans).toEqual([]);
  });
});
