// Leaseboard under a real Patroni cluster (etcd, two PostgreSQL 15 members, HAProxy): scheduler
// processes on one lease through the multi-host DATABASE_URL and on another through HAProxy, through a
// `patronictl switchover`, a SIGKILL of the primary's postmaster (a stale holder paused across it) and
// a member's crash. Each time: no epoch granted twice, a holder renewing on the new primary within
// ttl + 5 s, the status service showing it held and reporting, the job completing occurrences again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SchedulerProcess } from '../../lib/child/scheduler-process';
import type { JsonLine } from '../../lib/child/json-line-process';
import type pg from 'pg';
import { createPool } from '../../db/pool';
import { StatusService } from '../../lib/server/service';
import { SQUARES_MIGRATION } from '../../lib/jobs/example-squares/job';
import { statementOutcome } from '../../lib/lease/errors';
import { generationOf } from '../../lib/status';
import { FAST_FLAGS } from '../../lib/scheduler/testing/fast-flags';
import { admin, type Member, PatroniCluster, waitUntil } from './cluster';

const TTL_MS = FAST_FLAGS.ttl;
const LEASES = { multiHost: 'patroni-multi-host', haproxy: 'patroni-haproxy' } as const;
// An occurrence every 5 s, 20 batches of 50 ms: fenced writes all the time.
const FLAGS = { ...FAST_FLAGS, every: 5_000, 'batch-work': 50 };

describe('Leaseboard under Patroni', () => {
  let cluster: PatroniCluster;
  let statusPool: pg.Pool;
  let status: StatusService;
  const schedulers: SchedulerProcess[] = [];

  beforeAll(async () => {
    cluster = await PatroniCluster.start(2);
    const primary = await cluster.waitForPrimary();
    await admin(cluster.nodeUrl(primary), (c) => c.query(SQUARES_MIGRATION));
    await cluster.waitForReplicas(primary);
    const spawn = (lease: string, label: string, databaseUrl: string) => {
      const scheduler = new SchedulerProcess({ lease, label, databaseUrl, job: 'squares', flags: FLAGS });
      schedulers.push(scheduler);
      return scheduler;
    };
    spawn(LEASES.multiHost, 'M1', cluster.urlMultiHost);
    spawn(LEASES.multiHost, 'M2', cluster.urlMultiHost);
    spawn(LEASES.haproxy, 'H1', cluster.urlHaproxy);
    spawn(LEASES.haproxy, 'H2', cluster.urlHaproxy);
    await Promise.all(schedulers.map((s) => s.waitFor((line) => line.event === 'acquired' || line.event === 'held', 60_000)));
    statusPool = createPool(cluster.urlMultiHost, { applicationName: 'leaseboard-patroni-status', statementTimeoutMs: 2_000 });
    status = new StatusService({ db: statusPool, readTimeoutMs: 2_000, pollIntervalMs: 1_000 });
  }, 180_000);

  afterAll(async () => {
    await Promise.all(schedulers.map((s) => s.stop()));
    await statusPool?.end();
    await cluster?.stop();
  });

  const holdersOf = (lease: string) => schedulers.filter((s) => s.options.lease === lease);

  /**
   * After a failover started at `t0`: the primary is writable again, and for each lease a holder
   * renews there within ttl + 5 s of it and the job completes an occurrence after it. Returns what it measured.
   */
  async function recovered(t0: number, label: string): Promise<{ writableMs: number; renewedMs: Record<string, number> }> {
    const primary = await cluster.waitForPrimary(60_000);
    const writableMs = Date.now() - t0;
    const renewedMs: Record<string, number> = {};
    for (const lease of Object.values(LEASES)) {
      let renewedAt = 0;
      await waitUntil(
        `${lease} renewed on the new primary`,
        async () => {
          const { rows } = await admin(cluster.nodeUrl(primary), (c) =>
            c.query<{ ms: string; live: boolean }>(
              `SELECT (extract(epoch FROM renewed_at) * 1000)::bigint AS ms, expires_at > clock_timestamp() AS live FROM leases WHERE name = $1`,
              [lease],
            ),
          ).catch(() => ({ rows: [] as { ms: string; live: boolean }[] }));
          const row = rows[0];
          if (row?.live && Number(row.ms) > t0 + writableMs) renewedAt = Number(row.ms);
          return renewedAt > 0;
        },
        60_000,
      );
      // From the moment the database could be written again (the failover's end) to the first renewal there.
      renewedMs[lease] = renewedAt - (t0 + writableMs);
      expect(renewedMs[lease], `${label}: ${lease} renewed ${renewedMs[lease]} ms after the primary was writable`).toBeLessThanOrEqual(TTL_MS + 5_000);
      // The status service (the dashboard's), through the multi-host URL, shows it held and reporting again.
      await waitUntil(
        `the status service showing ${lease} progressing`,
        async () => {
          const page = await status.list({ names: [lease] }, { fresh: true }).catch(() => null);
          const row = page?.schedulers[0];
          return row?.authority.state === 'held' && row.work.lastReportAt !== null && Date.parse(row.work.lastReportAt) > t0 + writableMs;
        },
        30_000,
      );
      // Progress again: an occurrence completed after the renewal (lines seen before it do not count).
      await Promise.any(
        holdersOf(lease).map((s) => {
          const before = new Set(s.lines);
          return s.waitFor((line) => line.event === 'occurrence_completed' && !before.has(line), 30_000);
        }),
      );
    }
    console.log(`patroni ${label}: writable after ${writableMs} ms; renewed ${JSON.stringify(renewedMs)} ms after that`);
    return { writableMs, renewedMs };
  }

  /** Every epoch granted (from the schedulers' lines and the primary's lease_events) is granted once. */
  async function epochsGrantedOnce(): Promise<void> {
    const fromLines = schedulers.flatMap((s) =>
      s.lines.filter((l: JsonLine) => l.event === 'acquired' && l.adopted === false).map((l) => `${s.options.lease}@${String(l.epoch)}`),
    );
    expect(new Set(fromLines).size, `grants in the schedulers' lines: ${fromLines.join(' ')}`).toBe(fromLines.length);
    const primary = await cluster.waitForPrimary();
    const { rows } = await admin(cluster.nodeUrl(primary), (c) =>
      c.query<{ grant: string }>(`SELECT lease || '@' || epoch AS grant FROM lease_events WHERE kind IN ('acquired', 'taken_over') AND lease = ANY($1)`, [
        Object.values(LEASES),
      ]),
    );
    const fromEvents = rows.map((r) => r.grant);
    expect(new Set(fromEvents).size, `grants in lease_events: ${fromEvents.join(' ')}`).toBe(fromEvents.length);
    // Every grant a scheduler saw after the last failover is on the surviving node.
    expect(fromEvents.length).toBeGreaterThan(0);
  }

  it('a patronictl switchover to the replica', async () => {
    const leader = await cluster.waitForPrimary();
    const candidate = cluster.members.find((m) => m !== leader)!;
    const before = await timeline();
    const t0 = Date.now();
    await cluster.switchover(leader, candidate);
    expect(await cluster.waitForPrimary(60_000, leader)).toBe(candidate);
    await recovered(t0, 'switchover');
    // A planned switchover is a promotion too: a new timeline, a new failover generation.
    expect(await timeline()).toBe(before + 1);
    await epochsGrantedOnce();
  });

  it("a SIGKILL of the primary's postmaster, a holder paused mid-write across it: its resumed write is refused", async () => {
    const primary = await cluster.waitForPrimary();
    const holder = await currentHolder(LEASES.multiHost);
    const other = holdersOf(LEASES.multiHost).find((s) => s !== holder)!;
    const before = await timeline();
    let t0 = 0;
    const paused = await holder.pauseMidWrite('write', async (line) => {
      t0 = Date.now();
      process.kill(cluster.postmasterPid(primary), 'SIGKILL');
      // Resumed once the other holder was granted the lease after the pause (on whichever node is primary then).
      await other.waitFor((l) => l.event === 'acquired' && Number(l.epoch) > Number(line.epoch), 60_000);
    });
    const refused = await holder.waitFor((l) => l.event === 'write_rejected' && l.epoch === paused.epoch, 30_000);
    expect(refused).toMatchObject({ reason: 'stale_epoch' });
    await recovered(t0, 'postmaster SIGKILL');
    // Patroni restarts the killed primary in place, in recovery first, then promotes it: a new timeline here too.
    expect(await cluster.waitForPrimary()).toBe(primary);
    expect(await timeline()).toBeGreaterThan(before);
    await epochsGrantedOnce();
  });

  it("a member's crash (its Patroni and PostgreSQL killed): the replica takes over", async () => {
    const primary = await cluster.waitForPrimary();
    const t0 = Date.now();
    await cluster.crash(primary);
    // While no member is primary, HAProxy accepts and closes (or holds the connection until our connect
    // deadline): a statement sent there never reached a server.
    const error = await failedThrough(cluster.urlHaproxy);
    console.log(`patroni: through HAProxy with no primary: ${(error as Error).message}`);
    expect(statementOutcome(error)).toBe('not_sent');
    const next = await cluster.waitForPrimary(60_000, primary);
    expect(next).not.toBe(primary);
    await recovered(t0, 'member crash');
    const haproxyLines = holdersOf(LEASES.haproxy).flatMap((s) => s.lines);
    const count = (event: string) => haproxyLines.filter((l) => l.event === event).length;
    console.log(
      `patroni: through HAProxy so far, ${count('write_not_sent')} fenced writes never sent, ${count('write_outcome_unknown')} with an unknown outcome`,
    );
    await epochsGrantedOnce();
    // The crashed member rejoins as a replica (pg_rewind if it diverged).
    await cluster.startMember(primary);
    await waitUntil(`${primary.name} back as a replica`, () => cluster.role(primary).then((r) => r === 'replica'), 90_000);
    // Patroni names it a replica as soon as it runs in recovery; its PostgreSQL may still restart after a rewind
    // (CI once refused the next case's first connection to it): the next case starts from one that answers, caught up.
    await cluster.waitForReplicas(next, 90_000);
  });

  it('an asynchronous loss: the newest grant is not on the replica when the primary dies, and is never granted again', async () => {
    const primary = await cluster.waitForPrimary();
    const replica = cluster.members.find((m) => m !== primary)!;
    const lease = LEASES.multiHost;
    const holder = await currentHolder(lease);
    const other = holdersOf(lease).find((s) => s !== holder)!;
    const before = await leaseOn(primary, lease);
    // The replica stops receiving WAL: its walreceiver is stopped (SIGSTOP), then killed once the primary is gone,
    // so the WAL in its socket is never read. pg_wal_replay_pause() would not do: it stops replay, not receipt.
    let receiverPid = 0;
    await waitUntil(
      `${replica.name} streaming`,
      async () => {
        // A member restarting refuses connections for a moment: not streaming yet, not a failure.
        const { rows } = await admin(cluster.nodeUrl(replica), (c) =>
          c.query<{ pid: number }>("SELECT pid FROM pg_stat_wal_receiver WHERE status = 'streaming'"),
        ).catch(() => ({ rows: [] as { pid: number }[] }));
        receiverPid = rows[0]?.pid ?? 0;
        return receiverPid > 0;
      },
      60_000,
    );
    process.kill(receiverPid, 'SIGSTOP');
    // The holder stops (SIGSTOP); the other takes over — a grant on the primary alone.
    holder.signal('SIGSTOP');
    const lost = await other.waitFor((l) => l.event === 'acquired' && Number(l.epoch) > before.epoch, 30_000);
    const lostEpoch = Number(lost.epoch);
    expect((await leaseOn(primary, lease)).epoch).toBe(lostEpoch);
    const t0 = Date.now();
    await cluster.crash(primary);
    process.kill(receiverPid, 'SIGKILL');
    const next = await cluster.waitForPrimary(60_000, primary);
    expect(next).toBe(replica);
    // Proof of the loss: the promoted node has neither the grant's lease row nor its lease_event.
    const seen = await admin(cluster.nodeUrl(next), (c) =>
      c.query<{ n: number }>('SELECT count(*)::int AS n FROM lease_events WHERE lease = $1 AND epoch = $2', [lease, lostEpoch]),
    );
    expect(seen.rows[0]!.n).toBe(0);
    // The row as it was before the lost grant — or, when the other holder got to the new primary first, a grant of
    // the new generation (CI saw it once): never the lost epoch.
    const onNext = (await leaseOn(next, lease)).epoch;
    expect(onNext < lostEpoch || generationOf(onNext) > generationOf(lostEpoch), `epoch ${onNext} on the promoted node`).toBe(true);
    holder.signal('SIGCONT');
    await recovered(t0, 'asynchronous loss');
    // The next grant is of a new generation: above the lost epoch, never equal to it.
    const after = await leaseOn(next, lease);
    expect(after.epoch).toBeGreaterThan(lostEpoch);
    await epochsGrantedOnce();
    // The old primary rejoins: its timeline diverged, use_pg_rewind brings it back as a replica.
    await cluster.startMember(primary);
    await waitUntil(`${primary.name} back as a replica`, () => cluster.role(primary).then((r) => r === 'replica'), 90_000);
  });

  /** The primary's timeline (PostgreSQL advances it at every promotion; the failover generation is it − 1). */
  async function timeline(): Promise<number> {
    const primary = await cluster.waitForPrimary(60_000);
    const { rows } = await admin(cluster.nodeUrl(primary), (c) => c.query<{ wal: string }>('SELECT pg_walfile_name(pg_current_wal_lsn()) AS wal'));
    return parseInt(rows[0]!.wal.slice(0, 8), 16);
  }

  async function leaseOn(member: Member, lease: string): Promise<{ epoch: number; holder: string }> {
    const { rows } = await admin(cluster.nodeUrl(member), (c) =>
      c.query<{ epoch: number; holder: string }>('SELECT epoch::float8 AS epoch, holder FROM leases WHERE name = $1', [lease]),
    );
    if (!rows[0]) throw new Error(`${member.name}: no lease ${lease}`);
    return rows[0];
  }

  /** The first failure of a statement through `url` (a pool of ours, as the schedulers use), retried until one fails. */
  async function failedThrough(url: string): Promise<unknown> {
    const pool = createPool(url, { connectTimeoutMs: 1_000 });
    try {
      for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
        const error = await pool.query('SELECT 1').then(
          () => null,
          (e: unknown) => e,
        );
        if (error) return error;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`${url}: every statement went through for 30 s`);
    } finally {
      await pool.end();
    }
  }

  async function currentHolder(lease: string): Promise<SchedulerProcess> {
    const primary: Member = await cluster.waitForPrimary();
    const { rows } = await admin(cluster.nodeUrl(primary), (c) => c.query<{ holder: string }>('SELECT holder FROM leases WHERE name = $1', [lease]));
    const holder = holdersOf(lease).find((s) => s.token === rows[0]?.holder);
    if (!holder) throw new Error(`no scheduler of ours holds ${lease}`);
    return holder;
  }
});
