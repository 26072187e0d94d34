/**
 * `npm run bench:prune`: what pruning costs the holders beside it. Seeds a
 * backlog past retention (a million stale-write rejections, renewal gaps,
 * more rejections, lease events) in a fresh database (DATABASE_URL's server, or an
 * embedded one), then measures batched renewals of 100 leases (one
 * `renewMany` statement, as a process holding them sends) and progress
 * reports of one of them, first alone and then while the real pruner job
 * (`leaseboard-retention`, default batch of 5,000 rows) works through the
 * backlog, in the same run. Prints rows deleted per second and renewal /
 * report latency with the ratio against the baseline. Asserts nothing.
 * Env: BENCH_PRUNE_ITEMS (default 1,000,000 rejections of one lease), BENCH_PRUNE_SECONDS (baseline length, 10).
 */
import pg from 'pg';
import { createPool, createReadOnlyPool } from '../db/pool';
import { createTestDatabase } from '../db/testing/test-database';
import { retentionPrunerJob } from '../lib/jobs/retention-pruner';
import { type Grant, LeaseAuthority, leaseTerms, newInstanceToken } from '../lib/lease';
import { DEFAULT_RETENTION } from '../lib/retention';
import { schedulerConfig, SchedulerRuntime, type RuntimeEvent } from '../lib/scheduler';
import { appendReport } from '../lib/scheduler/report-store';
import { envInt, fmt, stats } from './bench-stats';

const ITEMS = envInt('BENCH_PRUNE_ITEMS', 1_000_000);
const SECONDS = envInt('BENCH_PRUNE_SECONDS', 10);
const LEASES = 100;

async function seedBacklog(db: pg.Pool, grants: Grant[]): Promise<void> {
  const [bulk] = grants;
  // The bulk of the backlog: stale-write rejections of one lease, 8 days old (the one big log pruned row by row).
  await db.query(
    `INSERT INTO stale_write_rejections (lease, attempted_epoch, resource, reason, at)
     SELECT $1, 1, 'invoices', 'stale_epoch', clock_timestamp() - interval '8 days' - d * interval '1 millisecond' FROM generate_series(1, $2::int) d`,
    [bulk!.name, ITEMS],
  );
  await db.query(
    `INSERT INTO renewal_gap_hours (lease, epoch, hour, max_gap_ms, renewals)
     SELECT l.name, 1, leaseboard_gap_hour(clock_timestamp() - interval '8 days') - h * interval '1 hour', array_fill(100, ARRAY[60]), 720
     FROM leases l, generate_series(1, 24) h`,
  );
  await db.query(
    `INSERT INTO stale_write_rejections (lease, attempted_epoch, resource, reason, at)
     SELECT l.name, 1, 'plan_items', 'stale_epoch', clock_timestamp() - interval '8 days' - r * interval '1 second' FROM leases l, generate_series(1, 100) r`,
  );
  await db.query(
    `INSERT INTO lease_events (lease, kind, epoch, holder, at)
     SELECT l.name, 'acquired', 1, 'h', clock_timestamp() - interval '40 days' - e * interval '1 minute' FROM leases l, generate_series(1, 100) e`,
  );
  await db.query('ANALYZE');
}

/** Renewals of every grant (one statement) and a report of the first, back to back, until `done()`. */
async function holders(url: string, grants: Grant[], done: () => boolean): Promise<{ renew: number[]; report: number[] }> {
  const client = new pg.Client(url);
  await client.connect();
  const authority = new LeaseAuthority(client);
  const renew: number[] = [];
  const report: number[] = [];
  let seq = 0;
  try {
    while (!done()) {
      let t = performance.now();
      await authority.renewMany(grants);
      renew.push(performance.now() - t);
      t = performance.now();
      await appendReport(client, { lease: grants[0]!.name, epoch: grants[0]!.epoch, seq: ++seq, occurrence: null, cursor: null, reportEveryMs: 2_000 });
      report.push(performance.now() - t);
    }
  } finally {
    await client.end();
  }
  return { renew, report };
}

async function main(): Promise<void> {
  const database = await createTestDatabase(() => {});
  const db = createPool(database.url, { applicationName: 'bench-prune', max: 4 });
  const readDb = createReadOnlyPool(database.url, { applicationName: 'bench-prune-read' });
  try {
    const authority = new LeaseAuthority(db);
    const grants: Grant[] = [];
    for (let i = 0; i < LEASES; i++) {
      const name = `bench-${i}`;
      const holder = newInstanceToken();
      const grant = await authority.acquire(leaseTerms({ name, ttlMs: 600_000 }), holder);
      if (grant.kind !== 'acquired') throw new Error(grant.kind);
      grants.push({ name, holder, epoch: grant.epoch });
    }
    const t0 = performance.now();
    await seedBacklog(db, grants);
    const { rows } = await db.query<{ server: string }>(`SELECT current_setting('server_version') AS server`);
    console.log(`bench:prune — PostgreSQL ${rows[0]!.server} (${process.env.DATABASE_URL ? 'DATABASE_URL server' : 'embedded'})`);
    console.log(
      `backlog: ${ITEMS.toLocaleString('en')} stale-write rejections of one lease, ${(LEASES * 24).toLocaleString('en')} renewal-gap hours, ${LEASES * 100} rejections and ${LEASES * 100} lease events past retention (seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s)`,
    );

    const until = Date.now() + SECONDS * 1_000;
    const alone = await holders(database.url, grants, () => Date.now() > until);

    const events: RuntimeEvent[] = [];
    const job = retentionPrunerJob(DEFAULT_RETENTION);
    const runtime = new SchedulerRuntime(job, schedulerConfig({ name: 'bench-pruner', batchWorkMs: 0 }), { db, readDb, onEvent: (e) => events.push(e) });
    const started = performance.now();
    runtime.start();
    const finished = () => events.some((e) => e.event === 'occurrence_completed' || e.event === 'error');
    const beside = await holders(database.url, grants, finished);
    const pruneSeconds = (performance.now() - started) / 1000;
    await runtime.stop();
    const failed = events.find((e) => e.event === 'error');
    if (failed) throw new Error(`pruner: ${JSON.stringify(failed)}`);
    const left = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM stale_write_rejections WHERE lease = $1`, [grants[0]!.name]);
    const deleted = ITEMS + LEASES * 1440 + LEASES * 100 + LEASES * 99 - left.rows[0]!.n;

    const ratio = (a: number[], b: number[]) => (stats(a).p99 / stats(b).p99).toFixed(2);
    console.log(
      `pruning: ${deleted.toLocaleString('en')} rows in ${pruneSeconds.toFixed(1)} s = ${Math.round(deleted / pruneSeconds).toLocaleString('en')} rows/s (bulk rejections left: ${left.rows[0]!.n})`,
    );
    console.log(`renewMany(${LEASES}) alone:          ${fmt(stats(alone.renew))}`);
    console.log(`renewMany(${LEASES}) beside pruning: ${fmt(stats(beside.renew))} — p99 ×${ratio(beside.renew, alone.renew)}`);
    console.log(`report alone:                ${fmt(stats(alone.report))}`);
    console.log(`report beside pruning:       ${fmt(stats(beside.report))} — p99 ×${ratio(beside.report, alone.report)}`);
  } finally {
    await Promise.all([db.end(), readDb.end()]);
    await database.drop();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
