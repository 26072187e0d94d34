/**
 * `npm run bench:report-runs [-- --schedulers 20 --reports 1800]`
 *
 * What storing reports as runs (migrations 0025_report_runs, 0028_report_events) costs per report against the row per
 * report it replaced (migration 0018's statement), measured in the same run on the same fresh
 * database (beside DATABASE_URL's, else embedded; dropped at the end): WAL bytes, table bytes and
 * statement time per report, for the modeled job (an occurrence every 5 min: 20 reports that move
 * the cursor, then 130 idle; a report every 2 s, each quiet as late as drawn from the jitter
 * measured here, scripts/size-model/jitter.ts). Times are injected (db/testing/report-statements.ts),
 * so hours of reports are written in seconds; each scheduler's reports are written in turn, a
 * report of every scheduler per instant, as a fleet does. Both statements are prepared once (as the
 * plpgsql function caches its plan), so planning is not counted per report.
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createTestDatabase } from '../db/testing/test-database';
import { rowPerReportStatement, runsStatement } from '../db/testing/report-statements';
import { MEASURED_REPORT_JITTER } from './size-model/jitter';

const EVERY_MS = 2_000;
const BASE_MS = Date.UTC(2001, 2, 4);

function options() {
  const { values } = parseArgs({ options: { schedulers: { type: 'string' }, reports: { type: 'string' } }, strict: true });
  const whole = (flag: string, raw: string | undefined, fallback: number, max: number) => {
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > max) {
      process.stderr.write(`bench:report-runs: --${flag}: a whole number 1–${max}, got ${JSON.stringify(raw)}\n`);
      process.exit(2);
    }
    return Number(raw);
  };
  return { schedulers: whole('schedulers', values.schedulers, 20, 1_000), reports: whole('reports', values.reports, 1_800, 43_200) };
}

/**
 * The modeled job's k-th report (scripts/size-model/tables.ts): an occurrence (its key in the
 * product's `lease@slot` shape) claimed at cursor 0 every 150 reports (5 minutes), the cursor 2,500
 * further at each of its first 20, then nothing in flight.
 */
function report(name: string, k: number): { occurrence: string | null; cursor: number | null } {
  const slot = new Date(BASE_MS + Math.floor(k / 150) * 300_000).toISOString().replace('.000Z', 'Z');
  return k % 150 < 20 ? { occurrence: `${name}@${slot}`, cursor: (k % 150) * 2_500 } : { occurrence: null, cursor: null };
}

/** Each quiet's lateness past the cadence, drawn (deterministically) from the jitter measured here (scripts/size-model/jitter.ts). */
const JITTER = MEASURED_REPORT_JITTER.flatMap(([offset, count]) => Array<number>(count).fill(offset));

async function measure(client: pg.Client, label: string, statement: string, schedulers: number, reports: number) {
  const names = Array.from({ length: schedulers }, (_, i) => `${label}-scheduler-${String(i).padStart(5, '0')}`);
  const wal0 = (await client.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0]!.lsn;
  const bytes = async () =>
    Number((await client.query<{ b: string }>(`SELECT sum(pg_total_relation_size(relid))::text AS b FROM pg_partition_tree('progress_reports')`)).rows[0]!.b);
  const table0 = await bytes();
  const atMs = names.map(() => BASE_MS);
  const t0 = performance.now();
  for (let k = 0; k < reports; k++) {
    for (const [i, name] of names.entries()) {
      atMs[i]! += k === 0 ? 0 : EVERY_MS + JITTER[(k * 7919 + i * 104_729) % JITTER.length]!;
      const { occurrence, cursor } = report(name, k);
      await client.query({
        name: `report-${label}`,
        text: statement,
        values: [name, 1, k + 1, occurrence, cursor, EVERY_MS, new Date(atMs[i]!).toISOString()],
      });
    }
  }
  const ms = performance.now() - t0;
  const wal = Number((await client.query<{ b: string }>(`SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1)::text AS b`, [wal0])).rows[0]!.b);
  await client.query('VACUUM progress_reports');
  const table = (await bytes()) - table0;
  const rows = Number((await client.query<{ n: string }>(`SELECT count(*)::text AS n FROM progress_reports WHERE lease LIKE $1`, [`${label}-%`])).rows[0]!.n);
  const n = schedulers * reports;
  return { label, walPerReport: wal / n, tablePerReport: table / n, usPerReport: (ms * 1000) / n, rows };
}

async function main() {
  const { schedulers, reports } = options();
  const database = await createTestDatabase((line) => console.log(`[bench:report-runs] ${line}`));
  const client = new pg.Client({ connectionString: database.url });
  try {
    await client.connect();
    const days = Math.ceil((reports * EVERY_MS) / 86_400_000) + 1;
    for (let d = 0; d < days; d++) {
      await client.query('SELECT leaseboard_report_partition($1, $2)', [new Date(BASE_MS + d * 86_400_000), new Date(BASE_MS + (d + 1) * 86_400_000)]);
    }
    const rowPerReport = await measure(client, 'rows', rowPerReportStatement(), schedulers, reports);
    const runs = await measure(client, 'runs', await runsStatement(client), schedulers, reports);
    console.log(`\n${schedulers} schedulers × ${reports} reports (a report every 2 s, the modeled job), per report:\n`);
    console.log('| store | rows | WAL | table (after VACUUM) | statement |');
    console.log('|---|---:|---:|---:|---:|');
    for (const m of [rowPerReport, runs]) {
      console.log(
        `| ${m.label === 'rows' ? 'a row per report (0018)' : "runs (today's leaseboard_report)"} | ${m.rows} | ${Math.round(m.walPerReport)} B | ${m.tablePerReport.toFixed(1)} B | ${m.usPerReport.toFixed(0)} µs |`,
      );
    }
    const ratio = (a: number, b: number) => (a / b).toFixed(2);
    console.log(
      `\nruns ÷ a row per report: WAL ${ratio(runs.walPerReport, rowPerReport.walPerReport)}×, table ${ratio(runs.tablePerReport, rowPerReport.tablePerReport)}×, statement time ${ratio(runs.usPerReport, rowPerReport.usPerReport)}×`,
    );
  } finally {
    await client.end().catch(() => {});
    await database.drop();
  }
}

void main();
