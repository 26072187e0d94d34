import { describe, expect, it } from 'vitest';
import type { SchedulerHistoryResponse } from '../api/types';
import { LABEL_GAP_SHARE, MIN_VIEW_MS, registrationInWindow, timelineModel } from './timeline';

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
    expect(model.epochMarks).toEqual([{ t: Date.parse(iso(50 * 60_000)), epoch: 3, holder: 'inst_a', label: '3', failover: false, labelled: true }]);
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
    expect(model.noLeaderSpans).toEqual([{ from: Date.parse(iso(50 * 60_000 + 50_000)), to: Date.parse(iso(50 * 60_000 + 120_000)), labelled: true }]);
    expect(model.renewalAxisMaxS).toBe(12); // 4 × TTL: the climb runs off the top, normal renewals stay visible
    expect(timelineModel(history()).noLeaderSpans).toEqual([]);
  });
});

describe('timelineModel for a short-lived scheduler (younger than the window)', () => {
  // Registered at 12:57:00 in the window 12:00–13:00: the API's history starts there (segments, tenures, buckets).
  const born = 57 * 60_000;
  const young = history({
    registeredAt: iso(born),
    segments: [
      { from: iso(born), to: iso(born + 20_000), health: 'unknown', gap: null },
      { from: iso(born + 20_000), to: iso(60 * 60_000), health: 'progressing', gap: null },
    ],
    tenures: [{ epoch: 1, holder: 'inst_a', label: 'A', from: iso(born + 20_000), to: null, began: 'acquired', ended: null }],
    buckets: Array.from({ length: 360 }, (_, i) => {
      const t = i * BUCKET;
      const active = t >= born + 20_000;
      return {
        t: iso(t),
        renewalAgeMaxMs: active ? 800 : null,
        cursor: active ? i : null,
        advances: active ? 1 : 0,
        reports: active ? 1 : 0,
        epoch: active ? 1 : null,
      };
    }),
  });

  it('zooms to its activity: the view is MIN_VIEW_MS wide, not the whole hour', () => {
    const model = timelineModel(young);
    expect(model.to - model.viewFrom).toBe(MIN_VIEW_MS);
    expect(model.points.every((p) => p.t + BUCKET > model.viewFrom)).toBe(true);
    expect(model.points.length).toBe(MIN_VIEW_MS / BUCKET);
  });

  it('draws nothing before registration: no value, no unknown and no no-leader shade earlier', () => {
    const model = timelineModel(young);
    const before = model.points.filter((p) => p.t < Date.parse(iso(born)));
    expect(before.length).toBeGreaterThan(0); // the view starts two minutes before, as empty chart
    expect(before.every((p) => p.renewalAgeS === null && p.cursor === null && p.advances === null)).toBe(true);
    expect(model.unknownSpans.map((s) => s.from)).toEqual([Date.parse(iso(born))]);
    expect(model.noLeaderSpans).toEqual([]);
    expect(model.epochMarks.map((m) => m.t)).toEqual([Date.parse(iso(born + 20_000))]);
  });

  it('labels its registration when it falls inside the window, and not for an older scheduler', () => {
    expect(registrationInWindow(young)).toBe(iso(born));
    expect(registrationInWindow(history({ registeredAt: iso(-8 * 24 * 3_600_000) }))).toBeNull();
    expect(registrationInWindow(history({ registeredAt: null }))).toBeNull();
  });
});

describe('timelineModel with takeovers every few seconds', () => {
  // From 12:50 on, a new epoch every 4 s (150 takeovers in 10 minutes), each after a 1 s leaderless lapse.
  const EVERY = 4_000;
  const start = 50 * 60_000;
  const tenures = Array.from({ length: 150 }, (_, i) => ({
    epoch: 10 + i,
    holder: `inst_${i % 2 ? 'b' : 'a'}`,
    label: i % 2 ? 'B' : 'A',
    from: iso(start + i * EVERY),
    to: i === 149 ? null : iso(start + (i + 1) * EVERY - 1_000),
    began: i === 0 ? ('acquired' as const) : ('taken_over' as const),
    ended: i === 149 ? null : ('expired' as const),
  }));
  const segments = tenures.slice(1).map((t) => ({ from: iso(Date.parse(t.from) - T0 - 1_000), to: t.from, health: 'no_leader' as const, gap: null }));
  const model = timelineModel(history({ tenures, segments }));

  it('keeps every epoch change as a mark and every lapse as a shade, in order', () => {
    expect(model.epochMarks).toHaveLength(150);
    expect(model.epochMarks.map((m) => m.epoch)).toEqual(tenures.map((t) => t.epoch));
    expect(model.noLeaderSpans).toHaveLength(149);
    expect(model.noLeaderSpans.every((s) => s.to - s.from === 1_000)).toBe(true);
  });

  it('labels only marks far enough apart to be read: at most one text per LABEL_GAP_SHARE of the view', () => {
    const gap = (model.to - model.viewFrom) * LABEL_GAP_SHARE;
    const labelled = model.epochMarks.filter((m) => m.labelled);
    expect(labelled[0]!.epoch).toBe(10);
    expect(labelled.length).toBeGreaterThan(1);
    expect(labelled.length).toBeLessThanOrEqual(1 / LABEL_GAP_SHARE + 1);
    for (let i = 1; i < labelled.length; i++) expect(labelled[i]!.t - labelled[i - 1]!.t).toBeGreaterThanOrEqual(gap);
    const shaded = model.noLeaderSpans.filter((s) => s.labelled);
    for (let i = 1; i < shaded.length; i++) expect(shaded[i]!.from - shaded[i - 1]!.from).toBeGreaterThanOrEqual(gap);
  });

  it('always labels a failover, however close to the mark before it', () => {
    const failover = [...tenures.slice(0, 3), { ...tenures[3]!, epoch: 1_000_000_001 }];
    const marks = timelineModel(history({ tenures: failover })).epochMarks;
    expect(marks.map((m) => [m.labelled, m.failover])).toEqual([
      [true, false],
      [false, false],
      [false, false],
      [true, true],
    ]);
  });
});
