// The fleet's load generator (./simulator.ts) against real PostgreSQL: 200 simulated schedulers in 10
// simulated processes hold their leases, renew them within the deadline in ONE statement per process
// round, report, and a paused simulated process loses its leases, which the status list then shows as
// `no_leader` (the projection's rule for an expired lease) while every other scheduler reads healthy;
// a killed one, restarted, takes its leases again under a new holder.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseUrl, uniqueLease, usePool } from '../../db/testing/pools';
import { StatusService } from '../../lib/server/service';
import { SimulatedFleet } from './simulated';
import type { SimTiming } from './sim-schedule';

const PROCESSES = 10;
const PER_PROCESS = 20;
// Short lease timing so a pause is seen within seconds (the same relations as the defaults: ttl > deadline > every).
// One generator process renews all 200 leases: beside the gate's other lanes (load 16 on two cores) its event
// loop stalled past a 2 s deadline and leases outside the paused process were lost, so the deadline is 4 s.
const TIMING: SimTiming = {
  ttlMs: 6_000,
  renewEveryMs: 1_000,
  renewDeadlineMs: 4_000,
  safetyMarginMs: 1_000,
  reportEveryMs: 1_000,
  jobEveryMs: 60_000,
  advanceEveryMs: 1_000,
};
const HEALTHY = new Set(['progressing', 'idle']);

/** Awaits `check` returning a value (polling), or fails with the last one seen. */
async function until<T>(what: string, check: () => Promise<T | null>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(100);
  }
}

describe('the fleet load generator', () => {
  const pool = usePool();
  const prefix = uniqueLease('sim');
  const processes = Array.from({ length: PROCESSES }, (_, p) =>
    Array.from({ length: PER_PROCESS }, (_, j) => `${prefix}-${String(p * PER_PROCESS + j).padStart(3, '0')}`),
  );
  let fleet: SimulatedFleet | null = null;
  afterAll(async () => fleet?.stop());

  it('holds 200 leases, renews each process in one statement a round within the deadline, and a paused process shows as no_leader, a killed one comes back under a new holder', async () => {
    const exits: string[] = [];
    fleet = new SimulatedFleet({ processes, label: 's', timing: TIMING, stallAfterMs: 10_000, poolMax: 4 }, databaseUrl(), (code, last) =>
      exits.push(`${code}: ${last.join(' | ')}`),
    );
    await fleet.ready(60_000);
    await fleet.stats(5_000); // a fresh window from here
    await sleep(3 * TIMING.renewEveryMs);

    const stats = (await fleet.stats(5_000))!;
    expect(stats.held).toBe(PROCESSES * PER_PROCESS);
    expect(stats.perProcess.map((p) => p.missed)).toEqual(Array(PROCESSES).fill(0));
    expect(stats.renew.count).toBeGreaterThanOrEqual(2 * PROCESSES * PER_PROCESS);
    expect(stats.renew.max).toBeLessThan(TIMING.renewDeadlineMs);
    // Batched as the library batches: after the first round, a process's leases renew in step, one statement each.
    expect(stats.renewStatement.count).toBeLessThanOrEqual(stats.renew.count / (PER_PROCESS / 2));
    expect(stats.report.count).toBeGreaterThanOrEqual(2 * PROCESSES * PER_PROCESS);
    const { rows } = await pool.query<{ live: number; holders: number; stale: number; reported: number }>(
      `SELECT count(*) FILTER (WHERE l.released_at IS NULL AND l.expires_at > clock_timestamp())::int AS live,
              count(DISTINCT l.holder)::int AS holders,
              count(*) FILTER (WHERE l.renewed_at < clock_timestamp() - $2 * interval '1 millisecond')::int AS stale,
              count(s.lease)::int AS reported
       FROM leases l LEFT JOIN progress_summaries s ON s.lease = l.name WHERE l.name LIKE $1 || '-%'`,
      [prefix, TIMING.renewEveryMs + TIMING.renewDeadlineMs],
    );
    expect(rows[0]).toEqual({ live: 200, holders: PROCESSES, stale: 0, reported: 200 });

    const service = new StatusService({ db: pool, readTimeoutMs: 5_000, pollIntervalMs: 500, log: () => {} });
    const read = async () => {
      const list = await service.list({ q: prefix, limit: 500 }, { fresh: true });
      return new Map(list.schedulers.map((s) => [s.name, s.health as string]));
    };
    expect([...(await read()).values()].filter((health) => !HEALTHY.has(health))).toEqual([]);

    const paused = 3;
    fleet.pause(paused, true);
    // Expired at most ttl after the pause: then the list says no_leader for all 20, and for no one else.
    const seen = await until(
      'the paused process’s leases shown as no_leader',
      async () => {
        const healths = await read();
        return processes[paused]!.every((name) => healths.get(name) === 'no_leader') ? healths : null;
      },
      TIMING.ttlMs + 5_000,
    );
    const others = [...seen].filter(([name, health]) => !processes[paused]!.includes(name) && !HEALTHY.has(health));
    expect(others).toEqual([]);
    expect((await fleet.stats(5_000))!.perProcess.filter((p, i) => i !== paused && p.missed > 0)).toEqual([]);

    // Resumed, it finds its leases gone (refused or self-suspected) and takes them again.
    fleet.pause(paused, false);
    await until(
      'the paused process’s leases held again',
      async () => {
        const healths = await read();
        return processes[paused]!.every((name) => HEALTHY.has(healths.get(name) ?? '')) ? true : null;
      },
      3 * TIMING.renewEveryMs + 10_000,
    );
    expect(fleet.incidents.filter((i) => i.line.event === 'lost').every((i) => i.process === paused)).toBe(true);

    // Killed (no release) and restarted, twice: each time a new holder takes every lease again once the old grant expired.
    const killed = 5;
    for (let round = 1; round <= 2; round++) {
      fleet.kill(killed);
      await fleet.restart(killed, 4 * TIMING.ttlMs);
    }
    const { rows: after } = await pool.query<{ epoch: number; holders: number }>(
      `SELECT min(epoch)::int AS epoch, count(DISTINCT holder)::int AS holders FROM leases WHERE name = ANY($1) AND expires_at > clock_timestamp()`,
      [processes[killed]],
    );
    expect(after[0]!.holders).toBe(1);
    expect(after[0]!.epoch).toBeGreaterThanOrEqual(3);
    expect(fleet.incidents.filter((i) => i.line.event === 'error')).toEqual([]);
    expect(exits).toEqual([]);
  }, 120_000);
});
