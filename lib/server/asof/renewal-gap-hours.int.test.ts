// Renewal gaps stored an hour to a row (migration 0030_renewal_gap_hours) read exactly what the
// minute rows did. Differential: the minute rollup of migration 0001 is rebuilt beside it in the
// test (its table, and its flush trigger from the migration file, renamed), so every renewal
// flushes into both. Random renewal streams with faults (jitter, bursts of sub-second renewals,
// pauses short of and past the TTL, takeovers and releases inside a minute, silences of hours, a
// clock stepped back as after a failover, a session time zone 45 minutes off the hour) run
// through today's leaseboard_renew_many with its clock bound to a parameter; then the logs read
// behind `?at=` and history (readLogs) must return, for random spans and spans at hour and minute
// edges, exactly the minute rows the old store returns for that span — the only renewal-gap input
// factsAt and buildHistory take. The migration's fold of old minute rows into hours is checked
// against the trigger's hours too.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueLease, usePool } from '../../../db/testing/pools';
import { seededRandom } from '../../../db/testing/random';
import { protocolStatement } from '../../../db/protocol-functions';
import { readLogs } from './logs';

const MIGRATIONS = path.join(__dirname, '../../../db/migrations');
const BASE_MS = Date.UTC(2001, 4, 6, 22, 50);
const TTL_MS = 60_000;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Migration 0001's minute rollup under other names: the representation before 0030. */
function minuteRollupStatements(): string[] {
  const table = `CREATE TABLE minute_gaps_then (lease text NOT NULL, epoch bigint NOT NULL, minute timestamptz NOT NULL,
    max_gap_ms integer NOT NULL, renewals integer NOT NULL, PRIMARY KEY (lease, minute, epoch))`;
  const migration = readFileSync(path.join(MIGRATIONS, '0001_renewal_gap_rollup.sql'), 'utf8')
    .replaceAll('renewal_gaps', 'minute_gaps_then')
    .replaceAll('leaseboard_flush_renewal_gap', 'then_flush_renewal_gap')
    .replaceAll('leases_flush_renewal_gap', 'then_leases_flush_renewal_gap');
  return [table, ...migration.split('--> statement-breakpoint')];
}

/** Migration 0030's fold of minute rows into hour rows, reading the old table and writing `into`. */
function foldStatement(into: string): string {
  const migration = readFileSync(path.join(MIGRATIONS, '0030_renewal_gap_hours.sql'), 'utf8');
  const fold = migration.split('--> statement-breakpoint').find((s) => s.includes('FROM renewal_gaps GROUP BY'));
  if (!fold) throw new Error('0030_renewal_gap_hours.sql: the fold statement is not there');
  return fold.replace('INSERT INTO renewal_gap_hours', `INSERT INTO ${into}`).replaceAll('renewal_gaps', 'minute_gaps_then');
}

type Step = { kind: 'renew'; atMs: number } | { kind: 'take'; atMs: number } | { kind: 'release'; atMs: number };

/** A renewal stream with faults, in the order it is issued (time may step back once in a while). */
function stream(next: () => number, count: number): Step[] {
  const steps: Step[] = [];
  let t = BASE_MS;
  for (let i = 0; i < count; i++) {
    const fault = next();
    if (fault < 0.02)
      t += 30_000 + Math.floor(next() * 25_000); // a pause short of the TTL
    else if (fault < 0.04)
      t += TTL_MS + Math.floor(next() * 5_000); // past the TTL: the renewal is refused
    else if (fault < 0.05)
      t += Math.floor(next() * 3 * HOUR); // silent for hours
    else if (fault < 0.06)
      t -= Math.floor(next() * 90_000); // the clock stepped back (a failover)
    else if (fault < 0.12)
      t += Math.floor(next() * 400); // a burst of sub-second renewals
    else t += 5_000 + Math.floor((next() - 0.5) * 600);
    const other = next();
    if (other < 0.06) steps.push({ kind: 'take', atMs: t });
    else if (other < 0.07) steps.push({ kind: 'release', atMs: t });
    else steps.push({ kind: 'renew', atMs: t });
  }
  return steps;
}

interface MinuteRow {
  epoch: number;
  minute_ms: number;
  max_gap_ms: number;
}
const sorted = (rows: MinuteRow[]) => [...rows].sort((a, b) => a.minute_ms - b.minute_ms || a.epoch - b.epoch);

describe('renewal gaps an hour to a row read exactly as the minute rows did', () => {
  const pool = usePool();
  let renewAt = '';
  let db: pg.PoolClient;

  beforeAll(async () => {
    for (const statement of minuteRollupStatements()) await pool.query(statement);
    renewAt = (await protocolStatement(pool, 'leaseboard_renew_many')).replaceAll('clock_timestamp()', '$4::timestamptz');
    db = await pool.connect();
    // 45 minutes off the hour: a minute's hour row must not follow the session's zone.
    await db.query(`SET TimeZone = 'Asia/Kathmandu'`);
  });
  afterAll(async () => {
    db.release();
    await pool.query('DROP TRIGGER then_leases_flush_renewal_gap ON leases');
    await pool.query('DROP FUNCTION then_flush_renewal_gap');
    await pool.query('DROP TABLE minute_gaps_then');
  });

  async function run(name: string, steps: Step[]) {
    const iso = (ms: number) => new Date(ms).toISOString();
    await db.query(
      `INSERT INTO leases (name, holder, epoch, acquired_at, renewed_at, expires_at, ttl_ms) VALUES ($1, 'h1', 1, $2, $2, $2::timestamptz + $3 * interval '1 millisecond', $3)`,
      [name, iso(BASE_MS - 1000), TTL_MS],
    );
    let renewed = 0;
    for (const step of steps) {
      if (step.kind === 'renew') {
        const { rows } = await db.query(renewAt, [[name], ['h' + (await epochOf(name))], [await epochOf(name)], iso(step.atMs)]);
        renewed += rows.length;
      } else if (step.kind === 'take') {
        // A grant as leaseboard_acquire makes it: a new epoch and holder, the open bucket closed.
        await db.query(
          `UPDATE leases SET epoch = epoch + 1, holder = 'h' || (epoch + 1), acquired_at = $2, renewed_at = $2, released_at = NULL,
             expires_at = $2::timestamptz + ttl_ms * interval '1 millisecond', gap_bucket = NULL, gap_bucket_max_ms = NULL, gap_bucket_renewals = NULL
           WHERE name = $1`,
          [name, iso(step.atMs)],
        );
      } else {
        await db.query(
          `UPDATE leases SET released_at = $2, expires_at = $2, gap_bucket = NULL, gap_bucket_max_ms = NULL, gap_bucket_renewals = NULL
           WHERE name = $1 AND released_at IS NULL`,
          [name, iso(step.atMs)],
        );
      }
    }
    return renewed;
  }
  async function epochOf(name: string): Promise<number> {
    return Number((await db.query('SELECT epoch FROM leases WHERE name = $1', [name])).rows[0].epoch);
  }

  async function minutesThen(name: string, fromMs: number, toMs: number): Promise<MinuteRow[]> {
    const { rows } = await db.query<MinuteRow>(
      `SELECT epoch::float8 AS epoch, (extract(epoch FROM minute) * 1000)::float8 AS minute_ms, max_gap_ms FROM minute_gaps_then
       WHERE lease = $1 AND minute >= date_trunc('minute', $2::timestamptz) - interval '2 minutes' AND minute <= $3::timestamptz + interval '1 minute'`,
      [name, new Date(fromMs).toISOString(), new Date(toMs).toISOString()],
    );
    return rows;
  }

  it.each([1, 2, 3])(
    'random stream %i: every span reads the same minutes, and the old rows fold into the same hours',
    async (seed) => {
      const next = seededRandom(seed * 7919);
      const name = uniqueLease('gap-hours');
      const steps = stream(next, 1_500);
      const renewed = await run(name, steps);
      const endMs = Math.max(...steps.map((s) => s.atMs)) + 2 * MINUTE;

      // Every renewal is counted once, in both stores (the open minute is still on the lease row).
      const open = (await db.query('SELECT coalesce(gap_bucket_renewals, 0) AS n FROM leases WHERE name = $1', [name])).rows[0].n;
      const totals = await db.query(
        `SELECT (SELECT coalesce(sum(renewals), 0) FROM minute_gaps_then WHERE lease = $1)::int AS then,
              (SELECT coalesce(sum(renewals), 0) FROM renewal_gap_hours WHERE lease = $1)::int AS now`,
        [name],
      );
      expect(totals.rows[0]).toEqual({ then: renewed - open, now: renewed - open });
      const all = await minutesThen(name, BASE_MS - HOUR, endMs);
      expect(all.length).toBeGreaterThan(100);
      expect(new Set(all.map((r) => r.epoch)).size).toBeGreaterThan(3);

      const spans: [number, number][] = [[BASE_MS - HOUR, endMs]];
      for (let i = 0; i < 120; i++) {
        const from = BASE_MS + Math.floor(next() * (endMs - BASE_MS));
        spans.push([from, from + Math.floor(next() * (next() < 0.5 ? 10 * MINUTE : 24 * HOUR))]);
      }
      for (let h = Math.ceil(BASE_MS / HOUR) * HOUR; h < endMs; h += HOUR)
        for (const d of [-2 * MINUTE - 1, -2 * MINUTE, -MINUTE - 1, -1, 0, 1, MINUTE, 2 * MINUTE]) spans.push([h + d, h + d + (d % 2 === 0 ? 0 : MINUTE)]);
      for (const [fromMs, toMs] of spans) {
        const logs = await readLogs(db, name, { fromMs, toMs, ends: [toMs], bucketMs: toMs - fromMs });
        expect(sorted(logs.renewals), `span ${new Date(fromMs).toISOString()} – ${new Date(toMs).toISOString()}`).toEqual(
          sorted(await minutesThen(name, fromMs, toMs)),
        );
      }

      await db.query('CREATE TEMP TABLE folded (LIKE renewal_gap_hours)');
      try {
        await db.query(foldStatement('folded'));
        const hours = `SELECT epoch::float8 AS epoch, hour, max_gap_ms, renewals FROM %s WHERE lease = $1 ORDER BY hour, epoch`;
        const folded = await db.query(hours.replace('%s', 'folded'), [name]);
        expect(folded.rows).toEqual((await db.query(hours.replace('%s', 'renewal_gap_hours'), [name])).rows);
      } finally {
        await db.query('DROP TABLE folded');
      }
    },
    120_000,
  );
});
