// The strips' statements against the ones they replaced (kept here verbatim, as of c5ee536): on random
// histories — every health, changes on the window's bounds, flapping and steady schedulers, one never
// registered — both answer the same rows for every window, named and ranked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueLease, usePool, useConnection } from '../../../db/testing/pools';
import { seededRandom } from '../../../db/testing/random';
import { HEALTH_SEVERITY, STRIP_WINDOWS, stripFrame } from '../../status';
import { toIso as iso } from '../../status/time';
import { STRIP_RANK_SQL, STRIP_ROLLUP_SQL } from './strip-rollup';

const observedMinutes = (from: string, to: string) => `(SELECT COALESCE(json_agg(date_part('epoch', m.minute) * 1000), '[]') FROM health_observed_minutes m
     WHERE m.minute >= date_trunc('minute', ${from}::timestamptz) AND m.minute <= ${to}) AS observed`;

const TODAYS_STRIP_ROLLUP_SQL = `
WITH n AS MATERIALIZED (
    SELECT DISTINCT u.name FROM unnest($1::text[]) AS u(name) WHERE $1::text[] IS NOT NULL
    UNION ALL
    SELECT a.name FROM (SELECT name FROM schedulers UNION SELECT name FROM leases) a
      WHERE $1::text[] IS NULL AND ($2::text IS NULL OR strpos(lower(a.name), $2::text) > 0)
  ),
  heads AS (
    SELECT n.name,
      (SELECT ceil(date_part('epoch', s.first_registered_at) * 1000) FROM schedulers s WHERE s.name = n.name) AS born_ms,
      c.health AS carried, date_part('epoch', c.at) * 1000 AS carried_ms
    FROM n LEFT JOIN LATERAL (
      SELECT h.health, h.at FROM health_changes h WHERE h.name = n.name AND h.at <= $3 ORDER BY h.at DESC LIMIT 1
    ) c ON true
  ),
  inside AS (
    SELECT h.name, floor(date_part('epoch', h.at - $3::timestamptz) * 1000 / $5::float8)::int AS cell, h.at, h.health,
      array_position($6::text[], h.health) AS rank
    FROM n JOIN health_changes h ON h.name = n.name AND h.at > $3 AND h.at <= $4
  ),
  cells AS (
    SELECT name, cell,
      (array_agg(health ORDER BY rank, at))[1] AS worst,
      date_part('epoch', (array_agg(at ORDER BY rank, at))[1]) * 1000 AS worst_at_ms,
      (array_agg(health ORDER BY at DESC))[1] AS last
    FROM inside GROUP BY name, cell
  )
SELECT
  (SELECT COALESCE(json_agg(heads), '[]') FROM heads) AS heads,
  (SELECT COALESCE(json_agg(cells ORDER BY name, cell), '[]') FROM cells) AS cells,
  ${observedMinutes('$3', '$4')}`;

const TODAYS_STRIP_RANK_SQL = `
WITH n AS MATERIALIZED (
    SELECT a.name FROM (SELECT name FROM schedulers UNION SELECT name FROM leases) a
    WHERE $1::text IS NULL OR strpos(lower(a.name), $1::text) > 0
  ),
  inside AS (
    SELECT h.name, min(array_position($4::text[], h.health)) AS rank, min(h.at) AS first_at
    FROM health_changes h WHERE h.at > $2 AND h.at <= $3 GROUP BY h.name
  ),
  heads AS (
    SELECT n.name,
      (SELECT ceil(date_part('epoch', s.first_registered_at) * 1000) FROM schedulers s WHERE s.name = n.name) AS born_ms,
      c.health AS carried, date_part('epoch', c.at) * 1000 AS carried_ms,
      ($4::text[])[i.rank] AS inside_worst, date_part('epoch', i.first_at) * 1000 AS first_ms
    FROM n
    LEFT JOIN LATERAL (SELECT h.health, h.at FROM health_changes h WHERE h.name = n.name AND h.at <= $2 ORDER BY h.at DESC LIMIT 1) c ON true
    LEFT JOIN inside i ON i.name = n.name
  )
SELECT
  (SELECT COALESCE(json_agg(heads), '[]') FROM heads) AS heads,
  ${observedMinutes('$2', '$3')}`;

const HOUR = 3_600_000;

describe('strip statements equal the statements they replaced (real PostgreSQL)', () => {
  const pool = usePool();
  const conn = useConnection(pool);
  const prefix = uniqueLease('strip-same');
  const names = Array.from({ length: 16 }, (_, i) => `${prefix}-${String(i).padStart(2, '0')}`);
  let nowMs = 0;

  beforeAll(async () => {
    const db = conn.db;
    await db.query('SET session_replication_role = replica'); // the fence checks writers; these rows are fixtures
    nowMs = Number((await db.query('SELECT floor(extract(epoch FROM clock_timestamp()) * 1000) AS ms')).rows[0].ms);
    const next = seededRandom(22);
    const frames = STRIP_WINDOWS.map((w) => stripFrame(w, nowMs));
    for (const [i, name] of names.entries()) {
      if (i !== 0)
        await db.query(
          `INSERT INTO schedulers (name, every_ms, report_every_ms, stall_after_ms, overdue_after_ms, registered_at, first_registered_at)
           VALUES ($1, 60000, 5000, 300000, 300000, $2, $2)`,
          [name, iso(nowMs - next() * 9 * 24 * HOUR)],
        );
      // Steady (none), a few, or flapping; some exactly on a window's first instant or now.
      const count = i % 5 === 1 ? 0 : Math.floor(next() * (i % 3 === 0 ? 400 : 30));
      const ats = new Set<number>();
      for (let k = 0; k < count; k++) ats.add(Math.floor(nowMs - next() * 8 * 24 * HOUR));
      if (i % 4 === 2) for (const f of frames) ats.add(f.fromMs);
      if (i % 4 === 3) ats.add(nowMs);
      for (const at of ats)
        await db.query(`INSERT INTO health_changes (name, at, health, lease, epoch) VALUES ($1, $2, $3, 'leaseboard-alerts', 1)`, [
          name,
          iso(at),
          HEALTH_SEVERITY[Math.floor(next() * HEALTH_SEVERITY.length)],
        ]);
    }
    await db.query(
      `INSERT INTO health_observed_minutes (minute, lease, epoch)
       SELECT date_trunc('minute', $1::timestamptz) - m * interval '1 minute', 'leaseboard-alerts', 1
       FROM generate_series(0, 7 * 1440 + 60) m WHERE m % 7 <> 3 ON CONFLICT DO NOTHING`,
      [iso(nowMs)],
    );
    await db.query('ANALYZE health_changes');
  });
  // The worker's later files share its database, and health_observed_minutes is one row a minute for every
  // scheduler: leave none of these fixtures (the retention pruner's test writes a minute 6 days back and
  // counts what is older than a day). Runs before the connection's release (after-hooks run in reverse).
  afterAll(async () => {
    const db = conn.db;
    await db.query(
      `DELETE FROM health_observed_minutes WHERE minute <= $1 AND minute >= date_trunc('minute', $1::timestamptz) - (7 * 1440 + 60) * interval '1 minute'`,
      [iso(nowMs)],
    );
    await db.query('DELETE FROM health_changes WHERE name = ANY($1)', [names]);
    await db.query('DELETE FROM schedulers WHERE name = ANY($1)', [names]);
  });

  const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const answer = async (text: string, values: unknown[]) => {
    const row = (await pool.query({ text, values })).rows[0] as { heads: { name: string }[]; cells?: unknown[]; observed: unknown[] };
    return { ...row, heads: [...row.heads].sort(byName) };
  };
  const windows = () => [
    ...STRIP_WINDOWS.map((w) => stripFrame(w, nowMs)),
    { fromMs: nowMs - 50 * HOUR + 1, toMs: nowMs - 3 * HOUR, cellMs: 7 * 60_000 }, // unaligned, in the past
  ];

  it('names: the same heads and cells for every window', async () => {
    for (const f of windows()) {
      const values = [names, null, iso(f.fromMs), iso(f.toMs), f.cellMs, HEALTH_SEVERITY];
      const expected = await answer(TODAYS_STRIP_ROLLUP_SQL, values);
      expect(expected.cells?.length).toBeGreaterThan(0); // the histories reach every window
      expect(await answer(STRIP_ROLLUP_SQL, values)).toEqual(expected);
    }
  });

  it('ranked: the same summary row per scheduler for every window', async () => {
    for (const f of windows()) {
      const values = [prefix, iso(f.fromMs), iso(f.toMs), HEALTH_SEVERITY];
      const expected = await answer(TODAYS_STRIP_RANK_SQL, values);
      expect(expected.heads.length).toBe(names.length - 1); // the unregistered one is no match
      expect(await answer(STRIP_RANK_SQL, values)).toEqual(expected);
    }
  });
});
