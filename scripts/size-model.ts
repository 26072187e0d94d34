/**
 * `npm run size-model [-- --schedulers 100]`
 *
 * Measures the bytes each table takes per scheduler at steady state, and the
 * disk budget for 10,000 schedulers at the default retention
 * (lib/retention/policy.ts DEFAULT_RETENTION). In a fresh database (beside
 * DATABASE_URL's, else embedded; dropped at the end) it writes, per table,
 * `--schedulers` × a sample of rows with generate_series
 * (scripts/size-model/tables.ts), measures pg_total_relation_size (heap,
 * indexes, TOAST; every partition of progress_reports) less the empty table,
 * and divides: bytes per row → bytes per scheduler per day (history) or per
 * scheduler (fixed size) → × retention → × 10,000.
 *
 * Triggers are off while seeding (session_replication_role = replica): the
 * fence and the change stamps check writers, they add no bytes. Not
 * measured: dead row versions of the tables every holder updates in place
 * (leases, progress_summaries: fillfactor 80, HOT updates) and of pruned
 * tables between autovacuum runs; WAL; a job's own tables (the demo's
 * documents and plan items live in its own schema: examples/demo/db).
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createTestDatabase } from '../db/testing/test-database';
import { DEFAULT_RETENTION, describeDuration } from '../lib/retention/policy';
import { modeledTables, QUIET_REPORTS, type ModeledTable } from './size-model/tables';

const FLEET = 10_000;
/** The disk budget: Leaseboard's own tables for 10,000 schedulers at the default retention. */
const TARGET_BYTES = 10 * 1024 ** 3;
const DAY_MS = 24 * 60 * 60_000;

function options() {
  const { values } = parseArgs({ options: { schedulers: { type: 'string' } }, strict: true });
  const whole = (flag: string, raw: string | undefined, fallback: number, max: number) => {
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > max) {
      process.stderr.write(`size-model: --${flag}: a whole number 1–${max}, got ${JSON.stringify(raw)}\n`);
      process.exit(2);
    }
    return Number(raw);
  };
  return { schedulers: whole('schedulers', values.schedulers, 100, 10_000) };
}

async function tableBytes(client: pg.Client, table: string): Promise<number> {
  const { rows } = await client.query<{ bytes: string }>(
    `SELECT CASE WHEN c.relkind = 'p' THEN (SELECT coalesce(sum(pg_total_relation_size(t.relid)), 0) FROM pg_partition_tree(c.oid) t)
                 ELSE pg_total_relation_size(c.oid) END AS bytes
     FROM pg_class c WHERE c.oid = $1::regclass`,
    [table],
  );
  return Number(rows[0]!.bytes);
}

interface Measured {
  spec: ModeledTable;
  bytesPerRow: number;
  /** Rows one scheduler holds at steady state. */
  steadyRows: number;
  keptFor: string;
}

async function measure(client: pg.Client, spec: ModeledTable, schedulers: number): Promise<Measured> {
  const empty = await tableBytes(client, spec.table);
  await client.query(spec.insert, [schedulers, spec.seedRows]);
  const bytesPerRow = ((await tableBytes(client, spec.table)) - empty) / (schedulers * spec.seedRows);
  if ('fixed' in spec.rows) return { spec, bytesPerRow, steadyRows: spec.rows.fixed, keptFor: 'fixed size' };
  const keepMs = DEFAULT_RETENTION.keepMs[spec.rows.keep];
  // Reports go a whole partition at a time: just before a drop, one partition width more is on disk.
  const extraMs = spec.table === 'progress_reports' ? DEFAULT_RETENTION.partitionWidthMs : 0;
  const keptFor = describeDuration(keepMs) + (extraMs ? ` + ${describeDuration(extraMs)} (its partition)` : '');
  return { spec, bytesPerRow, steadyRows: (spec.rows.perDay * (keepMs + extraMs)) / DAY_MS, keptFor };
}

const size = (bytes: number) => {
  for (const [unit, scale] of [
    ['GB', 1024 ** 3],
    ['MB', 1024 ** 2],
    ['kB', 1024],
  ] as const) {
    if (bytes >= scale) return `${(bytes / scale).toFixed(bytes >= 10 * scale ? 0 : 1)} ${unit}`;
  }
  return `${Math.round(bytes)} B`;
};

async function main() {
  const { schedulers } = options();
  const database = await createTestDatabase((line) => console.log(`[size-model] ${line}`));
  const client = new pg.Client({ connectionString: database.url });
  try {
    await client.connect();
    await client.query('SET session_replication_role = replica');
    const measured: Measured[] = [];
    // A fixed-size table is measured at the fleet's size itself: one row per scheduler is too few pages to average.
    for (const spec of modeledTables()) measured.push(await measure(client, spec, 'fixed' in spec.rows && spec.seedRows <= 4 ? FLEET : schedulers));

    console.log(`\nMeasured with ${schedulers} schedulers; steady state at the default retention; ${FLEET.toLocaleString('en-US')} schedulers:\n`);
    console.log('| table | rows per scheduler | bytes per row | per scheduler per day | kept | per scheduler | 10,000 schedulers |');
    console.log('|---|---|---:|---:|---|---:|---:|');
    let total = 0;
    for (const m of measured) {
      const perScheduler = m.bytesPerRow * m.steadyRows;
      const perDay = 'perDay' in m.spec.rows ? size(m.bytesPerRow * m.spec.rows.perDay) : '—';
      total += perScheduler;
      console.log(
        `| ${m.spec.table} | ${m.spec.basis} | ${Math.round(m.bytesPerRow)} | ${perDay} | ${m.keptFor} | ${size(perScheduler)} | ${size(perScheduler * FLEET)} |`,
      );
    }
    console.log(`| **total** | | | | | **${size(total)}** | **${size(total * FLEET)}** |`);
    const verdict = total * FLEET < TARGET_BYTES ? 'within' : 'OVER';
    console.log(
      `\nLeaseboard's own tables for ${FLEET.toLocaleString('en-US')} schedulers: ${size(total * FLEET)} — ${verdict} the ${size(TARGET_BYTES)} target.`,
    );
    const quiet = await measure(client, QUIET_REPORTS, schedulers);
    const quietBytes = quiet.bytesPerRow * quiet.steadyRows;
    console.log(
      `progress_reports for ${quiet.spec.basis}: ${Math.round(quiet.bytesPerRow)} B an hour, ${size(quiet.bytesPerRow * 24)} per scheduler per day, ${size(quietBytes * FLEET)} for ${FLEET.toLocaleString('en-US')}.`,
    );
  } finally {
    await client.end().catch(() => {});
    await database.drop();
  }
}

void main();
