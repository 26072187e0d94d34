// Batched renewal on real PostgreSQL: one statement for many grants, each
// judged on its own. Two identical worlds of mixed grants (valid, stale after
// a takeover, stale by holder, expired, released, never held) are renewed —
// one grant at a time in the first, all in ONE statement in the second — and
// give the same result per grant, and leave the same lease rows behind.
import { describe, expect, it } from 'vitest';
import { forceExpire, uniqueLease, usePool } from '../../db/testing/pools';
import { LeaseAuthority, RENEW_MANY_MAX, type Grant, type RenewResult } from './authority';
import { leaseTerms } from './config';
import { newInstanceToken } from './token';

const TTL = 15_000;

describe('renewMany (real PostgreSQL)', () => {
  const pool = usePool();
  const authority = new LeaseAuthority(pool);

  async function grant(name: string, ttlMs = TTL): Promise<Grant> {
    const holder = newInstanceToken();
    const result = await authority.acquire(leaseTerms({ name, ttlMs: ttlMs }), holder, 'A');
    if (result.kind !== 'acquired') throw new Error(`expected acquired, got ${result.kind}`);
    return { name, holder, epoch: result.epoch };
  }

  /** One world: the same kinds of grant, under names with their own prefix. */
  async function world(prefix: string): Promise<{ label: string; grant: Grant }[]> {
    const valid = await grant(uniqueLease(`${prefix}-valid`));
    const valid2 = await grant(uniqueLease(`${prefix}-valid`), 2_000);
    const takenOver = await grant(uniqueLease(`${prefix}-stale`));
    await forceExpire(pool, takenOver.name);
    await grant(takenOver.name); // epoch + 1 for someone else: the old grant is stale
    const expired = await grant(uniqueLease(`${prefix}-expired`));
    await forceExpire(pool, expired.name);
    const released = await grant(uniqueLease(`${prefix}-released`));
    await authority.release(released);
    const never: Grant = { name: uniqueLease(`${prefix}-never`), holder: newInstanceToken(), epoch: 1 };
    return [
      { label: 'valid', grant: valid },
      { label: 'valid, other ttl', grant: valid2 },
      { label: 'stale epoch (taken over)', grant: takenOver },
      { label: 'stale holder', grant: { ...valid, holder: newInstanceToken() } },
      { label: 'older epoch', grant: { ...valid, epoch: valid.epoch - 1 } },
      { label: 'expired', grant: expired },
      { label: 'released', grant: released },
      { label: 'never held', grant: never },
      { label: 'valid, listed twice', grant: valid },
    ];
  }

  const shape = (result: RenewResult) =>
    result.kind === 'renewed' ? { kind: result.kind, ttlMs: result.expiresAt.getTime() - result.renewedAt.getTime() } : { kind: result.kind };

  async function rowShape(name: string) {
    const { rows } = await pool.query(
      `SELECT epoch::int, holder IS NOT NULL AS held_by_someone, released_at IS NOT NULL AS released, expires_at > clock_timestamp() AS live,
              CASE WHEN expires_at > clock_timestamp() THEN (extract(epoch FROM expires_at - renewed_at) * 1000)::int END AS live_ttl_ms,
              gap_bucket_renewals AS renewals
       FROM leases WHERE name = $1`,
      [name],
    );
    return rows[0] ?? null;
  }

  it('gives, per grant, exactly the result of a single renewal, for mixed valid, stale, expired and released grants', async () => {
    const singles = await world('one');
    const batched = await world('many');
    // A grant listed twice in one batch is renewed once and answered twice: so, one at a time, ask once too.
    const asked = new Map<Grant, RenewResult>();
    const one: RenewResult[] = [];
    for (const { grant } of singles) one.push(asked.get(grant) ?? asked.set(grant, await authority.renew(grant)).get(grant)!);
    const many = await authority.renewMany(batched.map((x) => x.grant));
    expect(many).toHaveLength(batched.length);
    const labelled = (results: RenewResult[]) => results.map((r, i) => ({ grant: singles[i]!.label, ...shape(r) }));
    expect(labelled(many)).toEqual(labelled(one));
    // What was expected, spelled out: only the valid grants renew, each with its own ttl.
    expect(labelled(many).filter((r) => r.kind === 'renewed')).toEqual([
      { grant: 'valid', kind: 'renewed', ttlMs: TTL },
      { grant: 'valid, other ttl', kind: 'renewed', ttlMs: 2_000 },
      { grant: 'valid, listed twice', kind: 'renewed', ttlMs: TTL },
    ]);
    // The rows left behind agree too (renewed once, epochs untouched, the refused ones unchanged).
    for (let i = 0; i < singles.length; i++) {
      expect(await rowShape(batched[i]!.grant.name), singles[i]!.label).toEqual(await rowShape(singles[i]!.grant.name));
    }
  });

  it('is ONE statement for the whole batch, and splits above RENEW_MANY_MAX', async () => {
    const grants = await Promise.all(Array.from({ length: 5 }, () => grant(uniqueLease('count'))));
    let statements = 0;
    const counting = new LeaseAuthority({
      query: ((config: unknown) => {
        statements += 1;
        return pool.query(config as never);
      }) as typeof pool.query,
    });
    expect((await counting.renewMany(grants)).map((r) => r.kind)).toEqual(grants.map(() => 'renewed'));
    expect(statements).toBe(1);
    const many = Array.from({ length: RENEW_MANY_MAX + 1 }, (_, i) => ({ name: `absent-${i}`, holder: 'inst_00000000', epoch: 1 }));
    statements = 0;
    expect((await counting.renewMany(many)).every((r) => r.kind === 'lost')).toBe(true);
    expect(statements).toBe(2);
  });

  it('reports an unknown outcome for every grant when the statement cannot complete', async () => {
    const grants = await Promise.all([grant(uniqueLease('unknown')), grant(uniqueLease('unknown'))]);
    const dead = new LeaseAuthority({
      query: (async () => {
        throw Object.assign(new Error('Connection terminated unexpectedly'), { code: undefined });
      }) as unknown as typeof pool.query,
    });
    const results = await dead.renewMany(grants);
    expect(results.map((r) => r.kind)).toEqual(['unknown', 'unknown']);
  });
});
