/**
 * The report statement at an injected time, for the differential test of report runs
 * (lib/server/asof/report-runs.int.test.ts) and bench:report-runs: today's leaseboard_report
 * statement (runs, read from the database) and the one migration 0018 wrote (a row per report,
 * read from the migration file), each with its clock bound to `$7`. Test and bench only: the
 * product never writes a report at a time of the caller's choosing.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { protocolStatement } from '../protocol-functions';

/** A report statement (`RETURN QUERY` text) with its one clock_timestamp() bound to $7. */
function atInjectedTime(statement: string): string {
  const clocks = statement.split('clock_timestamp()').length - 1;
  if (clocks !== 1) throw new Error(`report statement: expected one clock_timestamp(), found ${clocks}`);
  return statement.replace('clock_timestamp()', '$7::timestamptz');
}

/** leaseboard_report as migration 0018 wrote it (a row per report), at an injected time. */
export function rowPerReportStatement(): string {
  const sql = readFileSync(path.join(__dirname, '../migrations/0018_protocol_functions.sql'), 'utf8');
  const fn = sql.slice(sql.indexOf('FUNCTION leaseboard_report('));
  const match = /RETURN QUERY\n([\s\S]*?);\nEND/.exec(fn);
  if (!match) throw new Error('0018_protocol_functions.sql: leaseboard_report not in the RETURN QUERY shape');
  return atInjectedTime(match[1]!);
}

/** Today's leaseboard_report (runs, migrations 0025_report_runs, 0028_report_events), at an injected time. */
export async function runsStatement(db: Pick<pg.Pool, 'query'>): Promise<string> {
  return atInjectedTime(await protocolStatement(db, 'leaseboard_report'));
}
