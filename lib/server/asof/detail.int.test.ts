// Detail reads on real PostgreSQL: live status with transitions and
// rejections, and the status AS OF a past instant rebuilt from the logs.
import { beforeAll, describe, expect, it } from 'vitest';
import { usePool } from '../../../db/testing/pools';
import { countingDb, serviceOn } from '../testing/seed';
import { writeScenario } from '../testing/scenario';
import { answersOf } from '../testing/answers';

const iso = (ms: number) => new Date(ms).toISOString();

describe('scheduler detail (real PostgreSQL)', () => {
  const pool = usePool();
  const service = serviceOn(pool);
  let s: Awaited<ReturnType<typeof writeScenario>>;
  beforeAll(async () => {
    s = await writeScenario(pool);
  });

  it('live: disabled now, two tenures newest first, the stale write listed', async () => {
    const result = await answersOf(service).detail(s.name);
    if (!result.ok) throw new Error(result.error.message);
    const d = result.value;
    expect(d.asOf).toBeNull();
    expect(d.status).toMatchObject({ health: 'disabled', authority: { state: 'held', epoch: s.g2.epoch, holder: s.g2.holder } });
    expect(d.transitions.map((t) => [t.epoch, t.began, t.ended])).toEqual([
      [2, 'taken_over', null],
      [1, 'acquired', 'expired'],
    ]);
    expect(d.transitions[1]!.to).not.toBeNull();
    expect(d.rejections).toHaveLength(1);
    expect(d.rejections[0]).toMatchObject({ attemptedEpoch: 1, currentEpoch: 2, resource: 'occurrences', reason: 'stale_epoch' });
    expect(s.rejected.kind).toBe('rejected');
  });

  it('?at= rebuilds the past: progressing under epoch 1, then no leader, then epoch 2 with its own reports', async () => {
    const at = async (ms: number) => {
      const r = await answersOf(service).detail(s.name, iso(ms));
      if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
      return r.value;
    };
    const past = await at(s.progressingAt);
    expect(past.asOf).toBe(iso(s.progressingAt));
    expect(past.status).toMatchObject({
      health: 'progressing',
      authority: { state: 'held', epoch: 1, holder: s.g1.holder },
      work: { state: 'progressing', cursor: 2 },
      intent: null,
    });
    expect(past.transitions.map((t) => [t.epoch, t.ended])).toEqual([[1, null]]);
    expect(past.rejections).toEqual([]);
    expect(past.estimated).toEqual(['lease.renewedAt']);

    const lapsed = await at(s.expiredAt);
    expect(lapsed.status).toMatchObject({ health: 'no_leader', authority: { state: 'expired', epoch: 1 } });
    expect(lapsed.estimated).toEqual([]);

    const later = await at(s.takenOverAt);
    expect(later.status).toMatchObject({ health: 'progressing', authority: { state: 'held', epoch: 2, holder: s.g2.holder }, work: { cursor: 5 } });
    expect(later.rejections).toHaveLength(1);

    const before = await at(s.start);
    expect(before.status).toMatchObject({ health: 'no_leader', authority: { state: 'none' } });
  });

  it('conditions, live and as of: authority and progress apart, each transition time a logged instant or null', async () => {
    const at = async (ms: number | null) => {
      const r = await answersOf(service).detail(s.name, ms === null ? undefined : iso(ms));
      if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
      return r.value;
    };
    const table = (d: Awaited<ReturnType<typeof at>>) => Object.fromEntries(d.conditions.map((c) => [c.type, [c.status, c.reason, c.lastTransitionTime]]));

    const past = await at(s.progressingAt);
    expect(table(past)).toEqual({
      LeaseHeld: ['True', 'Held', past.status.authority.acquiredAt],
      Progressing: ['True', 'Advancing', null],
      Observed: ['True', 'Reporting', null],
      Enabled: ['True', 'NoIntent', null],
    });
    const lapsed = await at(s.expiredAt);
    expect(table(lapsed)).toEqual({
      LeaseHeld: ['False', 'Expired', lapsed.status.authority.expiresAt],
      Progressing: ['False', 'NoLeader', lapsed.status.authority.expiresAt],
      Observed: ['True', 'NoReportsExpected', null],
      Enabled: ['True', 'NoIntent', null],
    });
    // Live: epoch 2 holds (since its takeover) and reports; an operator has disabled it since.
    const live = await at(null);
    const disabledAt = live.status.intent!.at;
    expect(table(live)).toMatchObject({ LeaseHeld: ['True', 'Held', live.status.authority.acquiredAt], Enabled: ['False', 'DisabledByOperator', disabledAt] });
    expect(live.status.authority.acquiredAt).toBe(live.transitions[0]!.from);
  });

  it('the as-of read uses a fixed number of statements', async () => {
    const counted = countingDb(pool);
    const r = await answersOf(serviceOn(counted)).detail(s.name, iso(s.progressingAt));
    expect(r.ok).toBe(true);
    expect(counted.count).toBe(2);
  });

  it('refuses the future, the distant past and unknown or malformed names', async () => {
    const future = await answersOf(service).detail(s.name, iso(s.end + 3_600_000));
    expect(future).toMatchObject({ ok: false, error: { status: 400, code: 'at_in_future' } });
    const old = await answersOf(service).detail(s.name, iso(s.end - 8 * 86_400_000));
    expect(old).toMatchObject({ ok: false, error: { status: 410, code: 'outside_retention', retention: { keptFor: '7 days' } } });
    expect(await answersOf(service).detail(s.name, 'yesterday')).toMatchObject({ ok: false, error: { status: 400 } });
    expect(await answersOf(service).detail('no-such-scheduler')).toMatchObject({ ok: false, error: { status: 404, code: 'unknown_scheduler' } });
    expect(await answersOf(service).detail("x'; DROP TABLE leases; --")).toMatchObject({ ok: false, error: { status: 404 } });
    expect(await answersOf(service).detail('nul\u0000byte')).toMatchObject({ ok: false, error: { status: 400, code: 'invalid_name' } });
  });
});
