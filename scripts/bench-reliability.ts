/**
 * `npm run bench:reliability [-- --schedulers 10000 --changes-per-day 96 --calls 10]`
 *
 * Reliability reports (lib/server/asof/reliability.ts) at fleet scale, in a DEDICATED database (beside
 * DATABASE_URL's, else embedded; dropped at the end): N schedulers registered 32 days ago, 30 UTC days
 * before yesterday already folded into health_days (one row per scheduler and day, as the pruner leaves
 * them), and yesterday and today as changes in the rollup (`changes-per-day` each, the size model's
 * pessimistic churn) with every minute observed. It times the pruner's folds of the last 2 days' hours (one
 * an hour in production) and of yesterday from them (one a day), and then, through the real status
 * service, the 30 d report of ONE scheduler (the
 * baseline, measured in the same run), of all N schedulers as one group, of a tenth of them picked by a
 * label selector, and the 24 h (rolling: hours and two partial hours) report of all N. Prints p50/p99 and each p99
 * as a ratio of the baseline's. Seeding writes with triggers off (session_replication_role = replica).
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createTestDatabase } from '../db/testing/test-database';
import { matchesSelector, parseSelector } from '../lib/limits/selector';
import { acquire, serviceOn } from '../lib/server/testing/seed';
import { fmt, stats, time } from './bench-stats';

function options() {
  const { values } = parseArgs({
    options: { schedulers: { type: 'string' }, 'changes-per-day': { type: 'string' }, calls: { type: 'string' } },
    strict: true,
  });
  const whole = (raw: string | undefined, fallback: number) => (raw !== undefined && /^\d+$/.test(raw) && Number(raw) >= 1 ? Number(raw) : fallback);
  return { schedulers: whole(values.schedulers, 10_000), changesPerDay: whole(values['changes-per-day'], 96), calls: whole(values.calls, 10) };
}

const NAME = `'sched-' || lpad(g::text, 6, '0')`;
const TODAY = `date_trunc('day', clock_timestamp(), 'UTC')`;

async function seed(client: pg.Client, schedulers: number, changesPerDay: number): Promise<void> {
  await client.query('SET session_replication_role = replica');
  await client.query(
    `INSERT INTO schedulers (name, every_ms, report_every_ms, stall_after_ms, overdue_after_ms, registered_at, first_registered_at, labels)
     SELECT ${NAME}, 3600000, 5000, 300000, 300000, ${TODAY} - interval '32 days', ${TODAY} - interval '32 days', jsonb_build_object('team', 't' || (g % 10))
     FROM generate_series(1, $1::int) g`,
    [schedulers],
  );
  // 30 folded days before yesterday: a day's 86,400,000 ms shared among the healths, varying by scheduler and day.
  await client.query(
    `INSERT INTO health_days (name, day, progressing_ms, idle_ms, stalled_ms, no_leader_ms, unknown_ms, disabled_ms)
     SELECT ${NAME}, ${TODAY} - d * interval '1 day', 86400000 - 4000000 - (g % 7) * 100000, 2000000, (g % 7) * 100000, 1000000, 1000000, 0
     FROM generate_series(1, $1::int) g, generate_series(2, 31) d`,
    [schedulers],
  );
  await client.query('DROP INDEX health_changes_name_health_at');
  await client.query(
    `INSERT INTO health_changes (name, at, health, lease, epoch)
     SELECT ${NAME}, ${TODAY} - interval '1 day 1 hour', 'progressing', 'leaseboard-alerts', 1 FROM generate_series(1, $1::int) g`,
    [schedulers],
  );
  // Yesterday and today so far: changes evenly spread, cycling through an episode, none after now.
  await client.query(
    `INSERT INTO health_changes (name, at, health, lease, epoch)
     SELECT ${NAME}, ${TODAY} - interval '1 day' + (t::float8 / $2::int) * interval '1 day' + (g % 997) * interval '1 second',
            (ARRAY['no_leader','unknown','progressing','stalled'])[1 + t % 4], 'leaseboard-alerts', 1
     FROM generate_series(0, 2 * $2::int - 1) t, generate_series(1, $1::int) g
     WHERE ${TODAY} - interval '1 day' + (t::float8 / $2::int) * interval '1 day' + (g % 997) * interval '1 second' < clock_timestamp()`,
    [schedulers, changesPerDay],
  );
  await client.query(
    `INSERT INTO health_observed_minutes (minute, lease, epoch)
     SELECT m, 'leaseboard-alerts', 1 FROM generate_series(${TODAY} - interval '2 days', clock_timestamp(), interval '1 minute') m`,
  );
  await client.query('CREATE INDEX health_changes_name_health_at ON health_changes (name, health, at)');
  await client.query('RESET session_replication_role');
  for (const table of ['health_changes', 'health_days', 'schedulers', 'health_observed_minutes']) await client.query(`VACUUM ANALYZE ${table}`);
}

async function main(): Promise<void> {
  const { schedulers, changesPerDay, calls } = options();
  const database = await createTestDatabase((line) => console.log(`[bench:reliability] ${line}`));
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const pool = new pg.Pool({ connectionString: database.url, max: 4 });
  try {
    const t0 = performance.now();
    await seed(client, schedulers, changesPerDay);
    const count = async (table: string) => Number((await client.query(`SELECT count(*) AS n FROM ${table}`)).rows[0].n).toLocaleString('en-US');
    console.log(
      `seeded ${schedulers.toLocaleString('en-US')} schedulers × 32 days: ${await count('health_days')} folded day rows, ${await count('health_changes')} changes in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    // The pruner's folds, under a lease (the fence): every hour of the last 2 days, then yesterday from its hours.
    const grant = await acquire(pool, 'leaseboard-retention', 600_000); // ttl 10 min: the folds of 10,000 schedulers outlast the default
    const folds: number[] = [];
    for (;;) {
      const f0 = performance.now();
      const n = (await pool.query('SELECT leaseboard_fold_health_rollup($1, $2, 0) AS n', [grant.name, grant.epoch])).rows[0].n as number;
      if (n === 0) break;
      folds.push(performance.now() - f0);
    }
    const dayFold = folds.pop() ?? 0;
    console.log(`folds: ${folds.length} hours, ${fmt(stats(folds))} each (one an hour); yesterday from its hours ${dayFold.toFixed(0)} ms (one a day)`);
    for (const table of ['health_days', 'health_hours']) await client.query(`VACUUM ANALYZE ${table}`);

    const service = serviceOn(pool, 60_000);
    const one = 'sched-000001';
    const ask = async (read: () => Promise<{ ok: boolean }>) => {
      const r = await read();
      if (!r.ok) throw new Error(`read failed: ${JSON.stringify(r)}`);
    };
    const baseline = stats(await time(calls, () => ask(() => service.reliability(one, '30d'))));
    console.log(`baseline  30d of one scheduler:            ${fmt(baseline)}`);
    const selector = parseSelector('team=t3');
    if (!selector.ok) throw new Error(selector.message);
    const picked = selector.selector;
    const cases: [string, () => Promise<{ ok: boolean }>][] = [
      [`30d of all ${schedulers} (one group)`, () => service.groupReliability({ window: '30d', picks: null, selectorText: '' })],
      [`30d of team=t3 (a tenth)`, () => service.groupReliability({ window: '30d', picks: (l) => matchesSelector(picked, l), selectorText: 'team=t3' })],
      [`7d of all ${schedulers}`, () => service.groupReliability({ window: '7d', picks: null, selectorText: '' })],
      [`24h of all ${schedulers} (rolling)`, () => service.groupReliability({ window: '24h', picks: null, selectorText: '' })],
    ];
    for (const [what, read] of cases) {
      const s = stats(await time(Math.max(3, Math.floor(calls / 2)), () => ask(read)));
      console.log(`${what.padEnd(40)} ${fmt(s)} · ×${(s.p99 / baseline.p99).toFixed(1)} of the baseline p99`);
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
