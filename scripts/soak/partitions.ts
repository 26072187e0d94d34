/**
 * Preparing a fresh database for a narrow partition width.
 *
 * Migration 0010 makes progress_reports partitions of a whole day for today
 * and the next days, before any width is configured, and the pruner never
 * splits a partition that exists (leaseboard_report_partition skips a range
 * an existing partition overlaps). So with LEASEBOARD_PARTITION_WIDTH = 15 s,
 * every report of the first three days goes into day partitions that cannot
 * be dropped until the day is past retention: a soak would only measure that.
 * Until the migration or the pruner takes the configured width into account,
 * the soak drops those wider partitions while they are still EMPTY (it
 * refuses to touch one holding a row); the pruner's first round then makes
 * partitions of the configured width (reports in between wait in the
 * default partition and move into their partition when it is made).
 */
import type pg from 'pg';

export async function dropEmptyWidePartitions(db: Pick<pg.Pool, 'query'>, widthMs: number): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `SELECT name FROM report_partitions WHERE "to" - "from" > $1::bigint * interval '1 millisecond' ORDER BY "from"`,
    [widthMs],
  );
  const dropped: string[] = [];
  for (const { name } of rows) {
    const quoted = `"${name.replaceAll('"', '""')}"`;
    const { rows: any } = await db.query(`SELECT 1 FROM ${quoted} LIMIT 1`);
    if (any.length > 0) throw new Error(`partition ${name} is wider than ${widthMs} ms and holds rows: not a fresh database`);
    await db.query(`DROP TABLE ${quoted}`);
    await db.query('DELETE FROM report_partitions WHERE name = $1', [name]);
    dropped.push(name);
  }
  return dropped;
}
