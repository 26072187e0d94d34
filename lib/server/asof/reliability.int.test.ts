// Reliability reports on real PostgreSQL: a health history written into the rollup's tables as the
// evaluator would have left it (minutes observed, a hole nobody observed, a stall), read back through the
// route handlers and the real status service — from the changes alone, then again after the retention
// pruner's fold has turned whole hours and days into health_hours and health_days rows (the same answer), by a group selected by
// labels, as CSV, and the bad inputs refused.
import type pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueLease, usePool } from '../../../db/testing/pools';
import { groupReliabilityRoute, reliabilityRoute } from '../http/handlers';
import { acquire, serviceOn } from '../testing/seed';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const BASE = 'http://localhost/api/v1';

describe('reliability reports (real PostgreSQL)', () => {
  const pool = usePool();
  const service = serviceOn(pool);
  const team = uniqueLease('team')
    .replace(/[^a-z0-9-]/g, '')
    .slice(0, 40);
  const steady = uniqueLease('rel-steady');
  const young = uniqueLease('rel-young');
  let nowMs = 0;

  const get = async (path: string) => {
    const url = `${BASE}${path}`;
    const match = /^\/schedulers\/([^/]+)\/reliability/.exec(path);
    return match ? reliabilityRoute(new Request(url), decodeURIComponent(match[1]!), () => service) : groupReliabilityRoute(new Request(url), () => service);
  };

  /** Writes as the evaluator would (its fence is a writer's check, not what this test is about: triggers off). */
  async function seed(client: pg.PoolClient) {
    await client.query('SET session_replication_role = replica');
    const now = Number((await client.query('SELECT extract(epoch FROM clock_timestamp()) * 1000 AS ms')).rows[0].ms);
    nowMs = now;
    const at = (agoMs: number) => new Date(now - agoMs).toISOString();
    // steady: born 3 days ago, progressing, stalled for 2 h from 30 h ago, stalled again for 1 h from 5 h ago.
    // young: born 6 h ago, no_leader for its first hour, then idle.
    const schedulers = [
      [steady, at(3 * DAY)],
      [young, at(6 * HOUR)],
    ];
    for (const [name, born] of schedulers) {
      await client.query(
        `INSERT INTO schedulers (name, every_ms, report_every_ms, stall_after_ms, overdue_after_ms, registered_at, first_registered_at, labels)
         VALUES ($1, 3600000, 5000, 300000, 300000, $2, $2, $3::jsonb)`,
        [name, born, JSON.stringify({ team })],
      );
    }
    const changes: [string, number, string][] = [
      [steady, 3 * DAY, 'progressing'],
      [steady, 30 * HOUR, 'stalled'],
      [steady, 28 * HOUR, 'progressing'],
      [steady, 5 * HOUR, 'stalled'],
      [steady, 4 * HOUR, 'progressing'],
      [young, 6 * HOUR, 'no_leader'],
      [young, 5 * HOUR, 'idle'],
    ];
    for (const [name, ago, health] of changes) {
      await client.query(`INSERT INTO health_changes (name, at, health, lease, epoch) VALUES ($1, $2, $3, 'leaseboard-alerts', 1)`, [name, at(ago), health]);
    }
    // Every minute of the last 4 days observed but the hour from 10 h ago (whole minutes) and the minutes to come.
    await client.query(
      `INSERT INTO health_observed_minutes (minute, lease, epoch)
       SELECT m, 'leaseboard-alerts', 1 FROM generate_series(date_trunc('minute', $1::timestamptz - interval '4 days'), $1::timestamptz, interval '1 minute') m
       WHERE NOT (m >= date_trunc('minute', $1::timestamptz - interval '10 hours') AND m < date_trunc('minute', $1::timestamptz - interval '9 hours'))
       ON CONFLICT DO NOTHING`,
      [at(0)],
    );
    await client.query('RESET session_replication_role');
  }

  beforeAll(async () => {
    const client = await pool.connect();
    try {
      await seed(client);
    } finally {
      client.release();
    }
  });

  /** Within the seconds the test itself takes (the window ends at the database's now at each read). */
  const near = (actual: number, expected: number, slackMs = 90_000) => expect(Math.abs(actual - expected)).toBeLessThan(slackMs);

  async function reportOf(name: string, window: string) {
    const res = await get(`/schedulers/${name}/reliability?window=${window}`);
    expect(res.status).toBe(200);
    return (await res.json()) as {
      window: string;
      from: string;
      to: string;
      scheduler: { accountedMs: number; spentMs: Record<string, number>; fractions: Record<string, number | null> };
    };
  }

  function expectSteady24h(r: Awaited<ReturnType<typeof reportOf>>) {
    const s = r.scheduler;
    expect(Date.parse(r.to) - Date.parse(r.from)).toBe(DAY);
    near(s.accountedMs, DAY, 1);
    near(s.spentMs.stalled!, HOUR); // the stall 30 h ago is outside the window
    near(s.spentMs.unknown!, HOUR); // the hour nobody observed (and the current minute, until a round marks it)
    near(s.spentMs.progressing!, 22 * HOUR);
    expect(s.spentMs.idle! + s.spentMs.no_leader! + s.spentMs.disabled!).toBe(0);
    expect(Object.values(s.spentMs).reduce((a, b) => a + b, 0)).toBe(s.accountedMs);
    expect(Object.values(s.fractions).reduce((a, b) => a! + b!, 0)).toBeCloseTo(1, 9);
  }

  function expectSteady7d(r: Awaited<ReturnType<typeof reportOf>>) {
    const s = r.scheduler;
    near(s.accountedMs, 3 * DAY);
    near(s.spentMs.stalled!, 3 * HOUR);
    near(s.spentMs.unknown!, HOUR);
    near(s.spentMs.progressing!, 3 * DAY - 4 * HOUR);
    expect(Object.values(s.spentMs).reduce((a, b) => a + b, 0)).toBe(s.accountedMs);
  }

  it('given a stall and an hour nobody observed, then 24 h and 7 d count each health, the hole as unknown, and nothing before registration', async () => {
    expectSteady24h(await reportOf(steady, '24h'));
    expectSteady7d(await reportOf(steady, '7d'));
    const y = (await reportOf(young, '30d')).scheduler;
    near(y.accountedMs, 6 * HOUR);
    near(y.spentMs.no_leader!, HOUR);
    near(y.spentMs.idle!, 5 * HOUR); // the hour nobody observed was before it existed
  });

  it('given whole days and hours folded by the pruner (under its lease), then the reports are the same', async () => {
    const grant = await acquire(pool, uniqueLease('rel-pruner'));
    // The hours of the last 2 days that are over (health_rollup_foldable: up to the hour that ended 5 min before now):
    // 47 in the first 5 minutes of an hour, else 48. Counted by the database clock before folding, so an hour that
    // ends meanwhile can only add to what is folded.
    const { rows: due } = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM generate_series(date_trunc('hour', now() - interval '2 days', 'UTC'),
         date_trunc('hour', now() - interval '5 minutes', 'UTC') - interval '1 hour', interval '1 hour')`,
    );
    let folded = 0;
    for (let i = 0; i < 200; i++) {
      const { rows } = await pool.query('SELECT leaseboard_fold_health_rollup($1, $2, 100) AS n', [grant.name, grant.epoch]);
      if (rows[0].n === 0) break;
      folded += rows[0].n as number;
    }
    const days = await pool.query<{ day: Date; total: string }>(
      `SELECT day, progressing_ms + idle_ms + stalled_ms + no_leader_ms + unknown_ms + disabled_ms AS total FROM health_days WHERE name = $1 ORDER BY day`,
      [steady],
    );
    expect(folded).toBeGreaterThan(0);
    // Every day over for an hour is folded; each whole day is 24 h, the first counts from the scheduler's birth.
    const lastFoldable = Math.floor((Date.now() - HOUR) / DAY) * DAY - DAY;
    expect(days.rows.at(-1)!.day.getTime()).toBe(lastFoldable);
    for (const d of days.rows.slice(1)) expect(Number(d.total)).toBe(DAY);
    near(Number(days.rows[0]!.total), days.rows[0]!.day.getTime() + DAY - (nowMs - 3 * DAY), 1);
    // The hours of the last 2 days are folded too, each a whole hour of the scheduler (born 3 days ago).
    const hours = await pool.query<{ total: string }>(
      `SELECT progressing_ms + idle_ms + stalled_ms + no_leader_ms + unknown_ms + disabled_ms AS total FROM health_hours WHERE name = $1`,
      [steady],
    );
    expect(hours.rowCount).toBeGreaterThanOrEqual(due[0]!.n);
    expect(hours.rows.every((h) => Number(h.total) === HOUR)).toBe(true);
    // A fold without the lease is refused (the fence), and folding again adds nothing.
    await expect(pool.query('SELECT leaseboard_fold_health_rollup($1, $2, 100)', [grant.name, grant.epoch + 1])).rejects.toThrow();
    expect((await pool.query('SELECT leaseboard_fold_health_rollup($1, $2, 100) AS n', [grant.name, grant.epoch])).rows[0].n).toBe(0);

    expectSteady24h(await reportOf(steady, '24h'));
    expectSteady7d(await reportOf(steady, '7d'));
  });

  it('given a label selector, then the group holds its members summed, as JSON and as CSV', async () => {
    const res = await get(`/reliability?window=7d&selector=${encodeURIComponent(`team=${team}`)}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      selector: string;
      total: { accountedMs: number; spentMs: Record<string, number> };
      schedulers: { name: string; accountedMs: number }[];
    };
    expect(body.selector).toBe(`team=${team}`);
    expect(body.schedulers.map((s) => s.name).sort()).toEqual([steady, young].sort());
    expect(body.total.accountedMs).toBe(body.schedulers.reduce((sum, s) => sum + s.accountedMs, 0));
    near(body.total.spentMs.stalled!, 3 * HOUR);
    near(body.total.spentMs.no_leader!, HOUR);

    const csv = await get(`/reliability?window=7d&format=csv&selector=${encodeURIComponent(`team=${team}`)}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="reliability-7d.csv"');
    const lines = (await csv.text()).trimEnd().split('\r\n');
    expect(lines[0]).toMatch(/^name,window,from,to,accounted_ms,stalled_ms,stalled_fraction,no_leader_ms,/);
    expect(lines.map((l) => l.split(',')[0])).toEqual(['name', ...[steady, young].sort(), '(group)']);
    near(Number(lines.at(-1)!.split(',')[4]), body.total.accountedMs, 60_000); // read a moment later

    const one = await get(`/schedulers/${steady}/reliability?window=30d&format=csv`);
    expect(one.headers.get('content-disposition')).toBe(`attachment; filename="reliability-${steady}-30d.csv"`);
    expect((await one.text()).trimEnd().split('\r\n')).toHaveLength(2);
  });

  it('given bad input, then 404 for an unknown scheduler and 400 for a bad window, format or selector, each in the error shape', async () => {
    const cases: [string, number, string][] = [
      [`/schedulers/${uniqueLease('nobody')}/reliability?window=7d`, 404, 'unknown_scheduler'],
      [`/schedulers/${steady}/reliability?window=1h`, 400, 'invalid_parameter'],
      [`/schedulers/${steady}/reliability?window=31d`, 400, 'invalid_parameter'],
      [`/schedulers/${steady}/reliability?format=xml`, 400, 'invalid_parameter'],
      [`/reliability?window=90d`, 400, 'invalid_parameter'],
      [`/reliability?selector=${encodeURIComponent('team in (a')}`, 400, 'invalid_parameter'],
    ];
    for (const [path, status, code] of cases) {
      const res = await get(path);
      expect(res.status, path).toBe(status);
      expect(((await res.json()) as { error: { code: string } }).error.code, path).toBe(code);
    }
  });
});
