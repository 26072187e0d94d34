// Making a report partition while reports arrive, against the run's real
// database (migration partition_attach_lock): the range's waiting reports move
// out of the default partition under a lock that makes a new report wait, and
// that report then lands in the new partition — before, it was routed to the
// default partition and failed once the attach committed.
import type pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { usePool } from './testing/pools';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A day far ahead that no other test's partitions reach (the pruner makes them from now on). */
function farDay(): Date {
  const day = Date.UTC(2100, 0, 1) + Math.floor(Math.random() * 36_500) * DAY;
  return new Date(day);
}

const INSERT_REPORT = `INSERT INTO progress_reports (lease, epoch, seq, advanced, reported_at) VALUES ('partition-race', 1, $1, true, $2)`;

/** Resolves once `pid`'s statement waits on a lock another session holds (pg_blocking_pids). */
async function untilBlocked(db: Pick<pg.Pool, 'query'>, pid: number): Promise<void> {
  for (;;) {
    const { rows } = await db.query<{ blocked: boolean }>(`SELECT cardinality(pg_blocking_pids($1)) > 0 AS blocked`, [pid]);
    if (rows[0]!.blocked) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('leaseboard_report_partition', () => {
  const pool = usePool();
  const made: string[] = [];
  afterAll(async () => {
    for (const name of made) {
      await pool.query(`DROP TABLE IF EXISTS "${name}"`);
      await pool.query(`DELETE FROM report_partitions WHERE name = $1`, [name]);
    }
  });

  it('a report arriving while its range moves out of the default partition waits, then lands in the new partition', async () => {
    const from = farDay();
    const to = new Date(from.getTime() + DAY);
    await pool.query(INSERT_REPORT, [1, new Date(from.getTime() + HOUR)]);
    expect(
      (await pool.query(`SELECT tableoid::regclass::text AS part FROM progress_reports WHERE reported_at = $1`, [new Date(from.getTime() + HOUR)])).rows,
    ).toEqual([{ part: 'progress_reports_default' }]);

    const mover = await pool.connect();
    const writer = await pool.connect();
    try {
      await mover.query('BEGIN');
      expect((await mover.query<{ made: boolean }>(`SELECT leaseboard_report_partition($1, $2) AS made`, [from, to])).rows[0]!.made).toBe(true);
      const { rows: names } = await mover.query<{ name: string }>(`SELECT name FROM report_partitions WHERE "from" = $1`, [from]);
      made.push(names[0]!.name);

      const writerPid = (await writer.query<{ pid: number }>(`SELECT pg_backend_pid() AS pid`)).rows[0]!.pid;
      const inserted = writer.query(INSERT_REPORT, [2, new Date(from.getTime() + 2 * HOUR)]).then(
        () => 'inserted',
        (error: Error) => error.message,
      );
      await untilBlocked(pool, writerPid);
      await mover.query('COMMIT');
      expect(await inserted).toBe('inserted');
    } finally {
      await mover.query('ROLLBACK').catch(() => {});
      mover.release();
      writer.release();
    }

    const { rows } = await pool.query<{ seq: number; part: string }>(
      `SELECT seq, tableoid::regclass::text AS part FROM progress_reports WHERE reported_at >= $1 AND reported_at < $2 ORDER BY seq`,
      [from, to],
    );
    expect(rows).toEqual([
      { seq: 1, part: made[0] },
      { seq: 2, part: made[0] },
    ]);
  });
});
