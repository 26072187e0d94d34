// History on real PostgreSQL: segments from projecting the as-of facts at
// each bucket end, explicit gaps, tenures and bounded buckets.
import { beforeAll, describe, expect, it } from 'vitest';
import { usePool } from '../../../db/testing/pools';
import { countingDb, serviceOn } from '../testing/seed';
import { dbNow, writeScenario } from '../testing/scenario';
import { answersOf } from '../testing/answers';

const iso = (ms: number) => new Date(ms).toISOString();

describe('scheduler history (real PostgreSQL)', () => {
  const pool = usePool();
  const service = serviceOn(pool);
  let s: Awaited<ReturnType<typeof writeScenario>>;
  beforeAll(async () => {
    s = await writeScenario(pool);
  });

  it('rebuilds health segments, gaps, tenures and buckets over a span', async () => {
    const counted = countingDb(pool);
    const result = await answersOf(serviceOn(counted)).history(s.name, iso(s.start), iso(s.end));
    if (!result.ok) throw new Error(result.error.message);
    expect(counted.count).toBe(2);
    const h = result.value;
    expect(h.buckets.length).toBeLessThanOrEqual(360);
    expect(h.buckets.length).toBeGreaterThan(10);
    expect(h.segments[0]!.from).toBe(iso(s.start));
    expect(h.segments.at(-1)!.to).toBe(iso(s.end));
    // never held → acquired, no report yet (unknown) → progressing → lapsed →
    // taken over, only epoch 1 reported (unknown) → progressing → disabled
    expect(h.segments.map((x) => [x.health, x.gap?.reason ?? null])).toEqual([
      ['no_leader', null],
      ['unknown', 'no_report_yet'],
      ['progressing', null],
      ['no_leader', null],
      ['unknown', 'previous_epoch_only'],
      ['progressing', null],
      ['disabled', null],
    ]);
    for (let i = 1; i < h.segments.length; i++) expect(h.segments[i]!.from).toBe(h.segments[i - 1]!.to);
    expect(h.tenures.map((t) => [t.epoch, t.began, t.ended])).toEqual([
      [1, 'acquired', 'expired'],
      [2, 'taken_over', null],
    ]);
    expect(h.gaps.map((g) => g.reason)).toContain('lost_reports');
    expect(h.buckets.reduce((n, b) => n + b.reports, 0)).toBe(4);
    expect(h.buckets.reduce((n, b) => n + b.advances, 0)).toBe(4);
    expect(h.buckets.at(-1)!.epoch).toBe(2);
    expect(h.ttlMs).toBe(15_000);
  });

  it('defaults to the last hour (from registration when younger) with nice buckets, clamps `to` to now, and refuses bad spans', async () => {
    const r = await answersOf(service).history(s.name);
    if (!r.ok) throw new Error(r.error.message);
    // The scenario's scheduler registered seconds ago: the default span zooms to its registration.
    expect(r.value.from).toBe(r.value.registeredAt);
    expect(Date.parse(r.value.to) - Date.parse(r.value.from)).toBeLessThan(3_600_000);
    expect(r.value.buckets.length).toBeLessThanOrEqual(360);
    const now = await dbNow(pool);
    // An hour asked explicitly: 360 buckets of 10 s.
    const hour = await answersOf(service).history(s.name, iso(now - 3_600_000), iso(now));
    if (!hour.ok) throw new Error(hour.error.message);
    expect(hour.value.bucketMs).toBe(10_000);
    expect(hour.value.buckets).toHaveLength(360);
    const clamped = await answersOf(service).history(s.name, iso(now - 60_000), iso(now + 3_600_000));
    expect(clamped.ok && Date.parse(clamped.value.to) <= now + 1_000).toBe(true);
    const bad = async (from?: string, to?: string) => {
      const x = await answersOf(service).history(s.name, from, to);
      return x.ok ? null : x.error;
    };
    expect(await bad(iso(now), iso(now - 1_000))).toMatchObject({ status: 400, code: 'invalid_span' });
    expect(await bad(iso(now - 25 * 3_600_000), iso(now))).toMatchObject({ status: 400, code: 'invalid_span' });
    expect(await bad(iso(now + 60_000))).toMatchObject({ status: 400, code: 'invalid_span' });
    expect(await bad('not-a-date')).toMatchObject({ status: 400, code: 'invalid_parameter' });
    expect(await bad(iso(now - 8 * 86_400_000), iso(now - 8 * 86_400_000 + 1_000))).toMatchObject({ status: 410, code: 'outside_retention' });
    expect(await answersOf(service).history('nobody-here')).toMatchObject({ ok: false, error: { status: 404 } });
  });
});
