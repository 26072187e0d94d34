/**
 * The fenced-write half of `npm run bench:lease`: 500-row batches into
 * plan_items through `writeFenced` (explicit fence check + the statement-level
 * row check) against the same INSERT into an unfenced twin table (same
 * columns and indexes, no triggers, no check), measured in the same run; the
 * row-level trigger alternative beside them; and how long renewals wait while
 * fenced batches run on the same lease (the share lock lasts one statement).
 * Prints figures; asserts nothing (target: fenced ≥ 0.8× the bare INSERT).
 */
import { sql } from 'drizzle-orm';
import { bigint, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { planItems } from '../examples/demo/db/schema';
import { fencedWrites, fenceFor, LeaseAuthority, leaseTerms, newInstanceToken, writeFenced } from '../lib/lease';

const BATCH_ROWS = 500;

/** plan_items' twins: the same columns and keys, created LIKE plan_items (no triggers). */
const twin = (name: string) =>
  pgTable(
    name,
    {
      occurrence: text('occurrence').notNull(),
      documentId: bigint('document_id', { mode: 'number' }).notNull(),
      policy: text('policy').notNull(),
      lease: text('lease').notNull(),
      epoch: bigint('epoch', { mode: 'number' }).notNull(),
      writtenAt: timestamp('written_at', { withTimezone: true, mode: 'string', precision: 6 }).notNull(),
    },
    (t) => [primaryKey({ columns: [t.occurrence, t.documentId] })],
  );
const plain = twin('bench_plain_items');
const rowChecked = twin('bench_row_checked_items');

const ROWS = Array.from({ length: BATCH_ROWS }, (_, i) => ({ documentId: i + 1, policy: i % 2 ? 'short' : 'standard' }));

/** The builder's INSERT for `table`, behind a `fence` CTE that only names the values (no check): the bare statement. */
function bareInsert(table: typeof plain, lease: string, epoch: number, occurrence: string): pg.QueryConfig {
  const insert = fencedWrites.insert(table, ROWS, { same: { occurrence, writtenAt: fencedWrites.now } });
  const query = sql`WITH fence AS (SELECT ${lease}::text AS lease, ${epoch}::bigint AS epoch, clock_timestamp() AS at) ${insert.dml}`;
  const { sql: textSql, params } = new PgDialect().sqlToQuery(query);
  return { name: `bench_bare_${table === plain ? 'plain' : 'row'}`, text: textSql, values: params };
}

type Timed = (clients: pg.Client[], op: (client: pg.Client, index: number) => Promise<unknown>) => Promise<number>;

export async function benchFencedWrites(url: string, timed: Timed, clientCounts: number[]): Promise<void> {
  const admin = new pg.Client(url);
  await admin.connect();
  const all: pg.Client[] = [];
  try {
    await admin.query(`CREATE TABLE bench_plain_items (LIKE plan_items INCLUDING ALL)`);
    await admin.query(`CREATE TABLE bench_row_checked_items (LIKE plan_items INCLUDING ALL)`);
    await admin.query(`CREATE FUNCTION bench_fence_row() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM leaseboard_fence_check(NEW.lease, NEW.epoch, TG_TABLE_NAME::text); RETURN NEW; END $$`);
    await admin.query(`CREATE TRIGGER bench_fence_row BEFORE INSERT ON bench_row_checked_items FOR EACH ROW EXECUTE FUNCTION bench_fence_row()`);
    const lease = 'bench-fenced-writes';
    const granted = await new LeaseAuthority(admin).acquire(leaseTerms({ name: lease, ttlMs: 10 * 60_000 }), newInstanceToken());
    if (granted.kind !== 'acquired') throw new Error(granted.kind);
    const fence = fenceFor({ name: lease, epoch: granted.epoch });
    const empty = async () => {
      await admin.query('BEGIN');
      await admin.query('SELECT leaseboard_fence($1, $2, $3)', [lease, granted.epoch, 'bench']);
      await admin.query('TRUNCATE leaseboard_demo.plan_items, bench_plain_items, bench_row_checked_items');
      await admin.query('COMMIT');
    };
    let batch = 0;
    const occurrence = () => `${lease}@batch-${batch++}`;

    console.log(
      `\nfenced batch writes: ${BATCH_ROWS} rows per statement (tables emptied before each figure; bare and fenced each the mean of two runs, in the order bare, fenced, fenced, bare)`,
    );
    console.log('clients | fenced batches/s | bare batches/s | ratio | row-trigger batches/s | ratio');
    for (const n of clientCounts) {
      const clients = await Promise.all(
        Array.from({ length: n }, async () => {
          const client = new pg.Client({ connectionString: url, application_name: 'leaseboard-bench' });
          await client.connect();
          all.push(client);
          return client;
        }),
      );
      const measure = async (op: (client: pg.Client) => Promise<unknown>) => {
        await empty();
        return timed(clients, op);
      };
      const runBare = () => measure((client) => client.query(bareInsert(plain, lease, granted.epoch, occurrence())));
      const runFenced = () =>
        measure(async (client) => {
          const result = await writeFenced(client, fence, (w) => [w.insert(planItems, ROWS, { same: { occurrence: occurrence(), writtenAt: w.now } })]);
          if (result.kind !== 'written') throw new Error(`fenced write ${result.kind}`);
        });
      // ABBA: each variant once early and once late, so drift in the machine's load cancels out.
      const bare1 = await runBare();
      const fenced1 = await runFenced();
      const fenced2 = await runFenced();
      const bare2 = await runBare();
      const bare = (bare1 + bare2) / 2;
      const fenced = (fenced1 + fenced2) / 2;
      const perRow = await measure((client) => client.query(bareInsert(rowChecked, lease, granted.epoch, occurrence())));
      const f = (x: number) => Math.round(x).toLocaleString('en-US').padStart(8);
      console.log(
        `${String(n).padStart(7)} | ${f(fenced).padStart(16)} | ${f(bare).padStart(14)} | ${(fenced / bare).toFixed(2)}× | ${f(perRow).padStart(21)} | ${(perRow / bare).toFixed(2)}×`,
      );
    }
    await empty();
    await renewalsDuringWrites(url, lease, fence, all);
  } finally {
    await Promise.all(all.map((client) => client.end()));
    await admin.end();
  }
}

/** Renewal latency on the lease row the fenced writes check: alone, beside one writer (a holder's work loop), beside four. */
async function renewalsDuringWrites(url: string, lease: string, fence: ReturnType<typeof fenceFor>, all: pg.Client[]): Promise<void> {
  const renewer = new pg.Client({ connectionString: url, application_name: 'leaseboard-bench' });
  await renewer.connect();
  all.push(renewer);
  const writers = await Promise.all(
    Array.from({ length: 4 }, async () => {
      const client = new pg.Client({ connectionString: url, application_name: 'leaseboard-bench' });
      await client.connect();
      all.push(client);
      return client;
    }),
  );
  const { rows } = await renewer.query('SELECT holder, epoch::float8 AS epoch FROM leases WHERE name = $1', [lease]);
  const grant = { name: lease, holder: rows[0].holder as string, epoch: rows[0].epoch as number };
  const authority = new LeaseAuthority(renewer);
  const sample = async (ms: number) => {
    const latencies: number[] = [];
    const end = performance.now() + ms;
    while (performance.now() < end) {
      const started = performance.now();
      const result = await authority.renew(grant);
      if (result.kind !== 'renewed') throw new Error(result.kind);
      latencies.push(performance.now() - started);
    }
    return latencies.sort((a, b) => a - b);
  };
  const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  let n = 0;
  const beside = async (count: number) => {
    let writing = true;
    const load = Promise.all(
      writers.slice(0, count).map(async (client) => {
        while (writing)
          await writeFenced(client, fence, (w) => [w.insert(planItems, ROWS, { same: { occurrence: `${lease}@renew-${n++}`, writtenAt: w.now } })]);
      }),
    );
    const latencies = await sample(3_000);
    writing = false;
    await load;
    return latencies;
  };
  const show = (label: string, s: number[]) =>
    console.log(
      `  ${label.padEnd(36)} p50 ${quantile(s, 0.5).toFixed(2)} ms · p99 ${quantile(s, 0.99).toFixed(2)} ms · max ${s.at(-1)!.toFixed(2)} ms (${s.length} renewals)`,
    );
  console.log('\nrenewal latency on the lease the fenced writes check (share lock from the end of each write to its commit):');
  show('alone', await sample(3_000));
  show(`beside 1 writer of ${BATCH_ROWS}-row batches`, await beside(1));
  show(`beside 4 writers of ${BATCH_ROWS}-row batches`, await beside(4));
}
