/**
 * `npm run bench:strips [-- --schedulers 10000 --changes-per-day 96 --calls 30]`
 *
 * The overview's strips read (lib/server/asof/strips.ts) at fleet scale, in a
 * DEDICATED database (beside DATABASE_URL's, else embedded; dropped at the
 * end): N schedulers registered 8 days ago, each with `changes-per-day`
 * health changes over the last 7 days in the rollup (the size model's
 * pessimistic churn) and every minute observed. It times, per window, a page
 * of 100 named rows (what the overview asks while ordered by health now) and
 * the ranked read over every scheduler (ordered by worst in window), and,
 * as the baseline measured in the same run, the status service's full live
 * read of the same fleet (what the list pays on a cold start). Prints p50/p99
 * and the ratio of each p99 to the baseline's.
 * Seeding writes the tables with triggers off (session_replication_role =
 * replica: the fence checks writers, it changes no timing of reads).
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createTestDatabase } from '../db/testing/test-database';
import { DEFAULT_RETENTION } from '../lib/retention/policy';
import { readAllFacts } from '../lib/server/live/facts';
import { serviceOn } from '../lib/server/testing/seed';
import { STRIP_WINDOWS } from '../lib/status';
import { fmt, stats, time } from './bench-stats';

function options() {
  const { values } = parseArgs({
    options: { schedulers: { type: 'string' }, 'changes-per-day': { type: 'string' }, calls: { type: 'string' } },
    strict: true,
  });
  const whole = (raw: string | undefined, fallback: number) => (raw !== undefined && /^\d+$/.test(raw) && Number(raw) >= 1 ? Number(raw) : fallback);
  return { schedulers: whole(values.schedulers, 10_000), changesPerDay: whole(values['changes-per-day'], 96), calls: whole(values.calls, 30) };
}

const NAME = `'sched-' || lpad(g::text, 6, '0')`;

async function seed(client: pg.Client, schedulers: number, changesPerDay: number): Promise<void> {
  await client.query('SET session_replication_role = replica');
  await client.query(
    `INSERT INTO schedulers (name, every_ms, report_every_ms, stall_after_ms, overdue_after_ms, registered_at, first_registered_at)
     SELECT ${NAME}, 3600000, 5000, 300000, 300000, clock_timestamp() - interval '8 days', clock_timestamp() - interval '8 days'
     FROM generate_series(1, $1::int) g`,
    [schedulers],
  );
  // The probe index (0035) is built after the rows, as a REINDEX leaves it: 6.7 million inserts into
  // three B-trees at once take minutes here; the reads only descend it.
  await client.query('DROP INDEX health_changes_name_health_at');
  // An anchor before the 7-day window, then changes spread over 7 days, cycling through an episode.
  const total = changesPerDay * 7;
  await client.query(
    `INSERT INTO health_changes (name, at, health, lease, epoch)
     SELECT ${NAME}, clock_timestamp() - interval '7 days 1 hour', 'progressing', 'leaseboard-alerts', 1 FROM generate_series(1, $1::int) g`,
    [schedulers],
  );
  await client.query(
    `INSERT INTO health_changes (name, at, health, lease, epoch)
     SELECT ${NAME}, clock_timestamp() - (t::float8 / $2::int) * interval '7 days' - (g % 997) * interval '1 second',
            (ARRAY['no_leader','unknown','progressing','stalled'])[1 + t % 4], 'leaseboard-alerts', 1
     FROM generate_series(1, $2::int) t, generate_series(1, $1::int) g`,
    [schedulers, total],
  );
  await client.query(
    `INSERT INTO health_observed_minutes (minute, lease, epoch)
     SELECT date_trunc('minute', clock_timestamp()) - m * interval '1 minute', 'leaseboard-alerts', 1 FROM generate_series(0, 7 * 1440 + 60) m`,
  );
  await client.query('CREATE INDEX health_changes_name_health_at ON health_changes (name, health, at)');
  // As autovacuum leaves an append-mostly table (insert-triggered): statistics and the visibility map.
  await client.query('VACUUM ANALYZE health_changes');
  await client.query('VACUUM ANALYZE schedulers');
  await client.query('VACUUM ANALYZE health_observed_minutes');
}

async function main(): Promise<void> {
  const { schedulers, changesPerDay, calls } = options();
  const database = await createTestDatabase((line) => console.log(`[bench:strips] ${line}`));
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const pool = new pg.Pool({ connectionString: database.url, max: 4 });
  try {
    const t0 = performance.now();
    await seed(client, schedulers, changesPerDay);
    const rows = Number((await client.query('SELECT count(*) AS n FROM health_changes')).rows[0].n);
    console.log(
      `seeded ${schedulers.toLocaleString('en-US')} schedulers, ${rows.toLocaleString('en-US')} rollup rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    // Ranked answers are not shared here: every call pays the ranking (the service shares one for 5 s between pollers).
    const service = serviceOn(pool, 60_000, { retention: DEFAULT_RETENTION, rankedStripsMaxAgeMs: 0 });
    const page = Array.from({ length: 100 }, (_, i) => `sched-${String(1 + i * Math.floor(schedulers / 100)).padStart(6, '0')}`);

    const baseline = stats(await time(calls, () => readAllFacts(pool)));
    console.log(`baseline  full live read of ${schedulers} schedulers: ${fmt(baseline)}`);
    for (const window of STRIP_WINDOWS) {
      const named = stats(
        await time(calls, async () => {
          const r = await service.strips({ window, names: page });
          if (!r.ok) throw new Error(r.error.message);
        }),
      );
      const ranked = stats(
        await time(Math.max(5, Math.floor(calls / 3)), async () => {
          const r = await service.strips({ window, names: null, q: null, worst: null, limit: 100, offset: 0 });
          if (!r.ok) throw new Error(r.error.message);
        }),
      );
      console.log(`${window.padEnd(4)} page of 100 named: ${fmt(named)} · ×${(named.p99 / baseline.p99).toFixed(2)} of the baseline p99`);
      console.log(`${window.padEnd(4)} ranked, all ${schedulers}: ${fmt(ranked)} · ×${(ranked.p99 / baseline.p99).toFixed(2)} of the baseline p99`);
    }
  } finally {
    await pool.end();
    await client.end();
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
