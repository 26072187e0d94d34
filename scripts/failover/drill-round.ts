/**
 * One round of `npm run failover-drill`: the leader pauses mid-write, the
 * other scheduler takes over, the primary crashes (`immediate`), the standby
 * is promoted, and the paused leader resumes and sends the write it held.
 * In `async` mode the standby is cut off before the takeover, so the takeover
 * is lost with the primary — the worst case that mode allows.
 *
 * Measures, on this process's monotonic clock from the crash: a writable
 * node, and a renewing holder (a lease row renewed on the promoted node after
 * its promotion, on the database clock); counts the resumed leader's stale
 * writes refused (its `write_rejected` events) and accepted (plan items of its
 * epoch written on the promoted node after the promotion).
 */
import type pg from 'pg';
import type { LocalPair } from '../../db/replication/local-pair';
import type { SchedulerProcess } from '../../lib/child/scheduler-process';
import type { DashboardWatch } from './dashboard-watch';

export interface RoundResult {
  promotedMs: number;
  renewingMs: number;
  /** Epochs granted in the round, in order, `lost` when the promoted node never received them. */
  granted: { epoch: number; lost: boolean }[];
  stale: { attempted: number; refused: number; accepted: number };
  dashboard: string;
}

export interface RoundContext {
  pair: LocalPair;
  /** A writing pool on every node (finds the primary). */
  db: pg.Pool;
  lease: string;
  schedulers: readonly SchedulerProcess[];
  /** Every epoch any scheduler was granted so far (not adopted), in the order reported. */
  grants: number[];
  watch: DashboardWatch;
}

async function poll<T>(read: () => Promise<T | null>, timeoutMs: number, what: string): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await read().catch(() => null);
    if (value !== null) return value;
    if (performance.now() > deadline) throw new Error(`failover drill: no ${what} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The holder once its tenure is settled: the same holder and epoch for 2 s, renewing, and leading by its own account. */
async function settledHolder(ctx: RoundContext): Promise<SchedulerProcess> {
  let last = '';
  let since = performance.now();
  return poll(
    async () => {
      const { rows } = await ctx.db.query<{ holder: string; epoch: number; fresh: boolean }>(
        `SELECT holder, epoch::float8 AS epoch, renewed_at > clock_timestamp() - interval '1500 milliseconds' AS fresh FROM leases WHERE name = $1`,
        [ctx.lease],
      );
      const row = rows[0];
      const key = row ? `${row.holder}/${row.epoch}` : '';
      if (key !== last) [last, since] = [key, performance.now()];
      const process = ctx.schedulers.find((s) => s.token === row?.holder);
      const leading = process?.lines.findLast((l) => l.event === 'acquired' || l.event === 'lost' || l.event === 'held');
      const settled = row?.fresh && performance.now() - since >= 2_000 && leading?.event === 'acquired' && leading.epoch === row.epoch;
      return settled ? process! : null;
    },
    60_000,
    'settled holder',
  );
}

export async function runRound(ctx: RoundContext): Promise<RoundResult> {
  const { pair, db, lease, schedulers } = ctx;
  const leader = await settledHolder(ctx);
  const other = schedulers.find((s) => s !== leader)!;
  const grantsBefore = ctx.grants.length;
  let measured: Omit<RoundResult, 'granted' | 'stale'> | null = null;
  let promotedAt = '';
  let rejoined: Promise<void> = Promise.resolve();
  const linesBefore = leader.lines.length;

  const paused = await leader.pauseMidWrite('write', async (line) => {
    const pausedEpoch = Number(line.epoch);
    if (pair.mode === 'async') await pair.detachStandby();
    await other.waitFor((l) => l.event === 'acquired' && Number(l.epoch) > pausedEpoch, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 500)); // the new holder writes a batch or so
    ctx.watch.start();
    const crashed = performance.now();
    const { promotedMs } = await pair.failover();
    if (pair.mode === 'sync') rejoined = pair.rejoin(); // strict: the promoted node commits nothing until a standby streams from it
    promotedAt = await poll(async () => (await db.query<{ at: string }>('SELECT clock_timestamp()::text AS at')).rows[0]!.at, 30_000, 'promoted node');
    await poll(
      async () => {
        const { rows } = await db.query(
          `SELECT 1 FROM leases WHERE name = $1 AND renewed_at > $2::timestamptz AND renewed_at > acquired_at
             AND released_at IS NULL AND expires_at > clock_timestamp()`,
          [lease, promotedAt],
        );
        return rows.length > 0 ? true : null;
      },
      60_000,
      'renewing holder',
    );
    const renewingMs = performance.now() - crashed;
    measured = { promotedMs, renewingMs, dashboard: await ctx.watch.stop() };
  });

  // The resumed leader's write with its old fence, and anything more it sends with that epoch.
  // Its refusal is logged before it is reported: in strict mode that commit waits for the rejoining standby.
  const epoch = Number(paused.epoch);
  await rejoined;
  await leader.waitFor((l) => l.event === 'write_rejected' && l.epoch === epoch && leader.lines.indexOf(l) >= linesBefore, 15_000).catch(() => null);
  await new Promise((resolve) => setTimeout(resolve, 500));
  if (pair.mode === 'async') await pair.rejoin();
  const refused = leader.lines.filter((l, i) => i >= linesBefore && l.event === 'write_rejected' && l.epoch === epoch).length;
  const accepted = Number(
    (
      await db.query<{ n: string }>('SELECT count(*) AS n FROM leaseboard_demo.plan_items WHERE lease = $1 AND epoch = $2 AND written_at > $3::timestamptz', [
        lease,
        epoch,
        promotedAt,
      ])
    ).rows[0]!.n,
  );
  const kept = new Set(
    (await db.query<{ epoch: number }>('SELECT epoch::float8 AS epoch FROM lease_events WHERE lease = $1', [lease])).rows.map((row) => row.epoch),
  );
  const granted = ctx.grants.slice(grantsBefore).map((e) => ({ epoch: e, lost: !kept.has(e) }));
  // The held write is one attempt even when it reached no node (its outcome then unknown to the leader).
  return { ...measured!, granted, stale: { attempted: Math.max(1, refused + accepted), refused, accepted } };
}
