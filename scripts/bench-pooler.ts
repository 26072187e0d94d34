/**
 * `npx tsx scripts/bench-pooler.ts`: what running behind a pooler costs, in one run on a fresh database
 * on DATABASE_URL's server, rounds alternated so a busy machine weighs on both sides alike:
 * 1. named against unnamed statements: the library's renewal (`leaseboard_renew`) and batched renewal
 *    (`leaseboard_renew_many`, 50 leases) on 8 plain connections, the same text with and without a name;
 * 2. the pools' settings: LeaseAuthority.renew and a lease read through createPool / createReadOnlyPool,
 *    directly (settings set once per session) and through PgBouncer in transaction and in session mode
 *    (each transaction carries its settings: two more round trips for a lone statement); beside them the
 *    same read through PgBouncer (transaction mode) on a plain pg.Pool (the pooler's own cost) and on a
 *    read-only pool whose login's defaults hold its settings (ALTER ROLE … SET: nothing carried).
 * Prints figures; asserts nothing. Env: BENCH_SECONDS (per round, 2), BENCH_ROUNDS (3).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createPool, createReadOnlyPool } from '../db/pool';
import { startPgBouncer } from '../db/testing/pgbouncer';
import { createTestDatabase } from '../db/testing/test-database';
import { LeaseAuthority, leaseTerms, newInstanceToken } from '../lib/lease';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CLIENTS = 8;
const BATCH = 50;

type Op = (index: number) => Promise<unknown>;

async function rate(op: Op): Promise<number> {
  let count = 0;
  const end = performance.now() + SECONDS * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, index) => {
      while (performance.now() < end) {
        await op(index);
        count++;
      }
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

/** Each side's mean over ROUNDS rounds, the sides alternated within each round. */
async function compare(sides: Record<string, Op>): Promise<Record<string, number>> {
  const sums: Record<string, number> = {};
  for (const op of Object.values(sides)) await rateFor(op, 300);
  for (let round = 0; round < ROUNDS; round++) for (const [name, op] of Object.entries(sides)) sums[name] = (sums[name] ?? 0) + (await rate(op));
  return Object.fromEntries(Object.entries(sums).map(([name, sum]) => [name, sum / ROUNDS]));
}

async function rateFor(op: Op, ms: number): Promise<void> {
  const end = performance.now() + ms;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, i) => {
      while (performance.now() < end) await op(i);
    }),
  );
}

const line = (figures: Record<string, number>, base: string) =>
  Object.entries(figures)
    .map(([name, value]) => `${name} ${Math.round(value).toLocaleString('en')}/s${name === base ? '' : ` (${(value / figures[base]!).toFixed(2)}×)`}`)
    .join(' · ');

async function once(url: string, work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

async function main() {
  const database = await createTestDatabase(() => {});
  const login = `bench_pooler_reader_${process.pid}`;
  const password = randomBytes(12).toString('hex');
  await once(database.url, (client) =>
    client.query(`CREATE ROLE ${login} LOGIN PASSWORD '${password}' IN ROLE leaseboard_reader;
      ALTER ROLE ${login} SET role = leaseboard_reader; ALTER ROLE ${login} SET default_transaction_read_only = on; ALTER ROLE ${login} SET statement_timeout = '5s'; ALTER ROLE ${login} SET jit = off`),
  );
  const bouncers = [await startPgBouncer(database.url, 'transaction', [{ user: login, password }]), await startPgBouncer(database.url, 'session')];
  const clients: pg.Client[] = [];
  const pools: { end(): Promise<void> }[] = [];
  try {
    for (let i = 0; i < CLIENTS; i++) {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      clients.push(client);
    }
    const grants = await Promise.all(
      clients.map(async (client, i) => {
        const holder = newInstanceToken();
        const batch: { name: string; holder: string; epoch: number }[] = [];
        for (let j = 0; j < BATCH; j++) {
          const name = `bench-pooler-${i}-${j}`;
          const result = await new LeaseAuthority(client).acquire(leaseTerms({ name, ttlMs: 600_000 }), holder);
          if (result.kind !== 'acquired') throw new Error(`bench: ${name} not acquired`);
          batch.push({ name, holder, epoch: result.epoch });
        }
        return batch;
      }),
    );
    const renew = 'SELECT * FROM leaseboard_renew($1, $2, $3)';
    const renewMany = 'SELECT * FROM leaseboard_renew_many($1, $2, $3)';
    const one = (i: number) => [grants[i]![0]!.name, grants[i]![0]!.holder, grants[i]![0]!.epoch];
    const many = (i: number) => [grants[i]!.map((g) => g.name), grants[i]!.map((g) => g.holder), grants[i]!.map((g) => g.epoch)];
    console.log(
      `bench:pooler — ${CLIENTS} clients, ${SECONDS} s a side, ${ROUNDS} rounds alternated; load average ${(await import('node:os'))
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    console.log(
      'renew, statement:',
      line(
        await compare({
          named: (i) => clients[i]!.query({ name: 'renew', text: renew, values: one(i) }),
          unnamed: (i) => clients[i]!.query({ text: renew, values: one(i) }),
        }),
        'named',
      ),
    );
    console.log(
      `renewMany ${BATCH}, statement:`,
      line(
        await compare({
          named: (i) => clients[i]!.query({ name: 'renew_many', text: renewMany, values: many(i) }),
          unnamed: (i) => clients[i]!.query({ text: renewMany, values: many(i) }),
        }),
        'named',
      ),
    );
    const urls = { direct: database.url, 'pgbouncer transaction': bouncers[0]!.url(database.url), 'pgbouncer session': bouncers[1]!.url(database.url) };
    const writers = Object.fromEntries(Object.entries(urls).map(([name, url]) => [name, createPool(url, { applicationName: 'bench-pooler', max: CLIENTS })]));
    const readers = Object.fromEntries(
      Object.entries(urls).map(([name, url]) => [name, createReadOnlyPool(url, { applicationName: 'bench-pooler-read', max: CLIENTS })]),
    );
    const loginUrl = new URL(urls['pgbouncer transaction']);
    loginUrl.username = login;
    loginUrl.password = password;
    readers['pgbouncer transaction, reader login'] = createReadOnlyPool(loginUrl.toString(), { applicationName: 'bench-pooler-read', max: CLIENTS });
    const plain = new pg.Pool({ connectionString: urls['pgbouncer transaction'], max: CLIENTS });
    readers['pgbouncer transaction, plain pg.Pool'] = { readOnly: true, query: plain.query.bind(plain) as pg.Pool['query'], end: () => plain.end() };
    pools.push(...Object.values(writers), ...Object.values(readers));
    const authorities = Object.fromEntries(Object.entries(writers).map(([name, pool]) => [name, new LeaseAuthority(pool)]));
    const renewals = Object.fromEntries(Object.entries(authorities).map(([name, authority]) => [name, (i: number) => authority.renew(grants[i]![0]!)]));
    console.log('LeaseAuthority.renew, pool:', line(await compare(renewals), 'direct'));
    const reads = Object.fromEntries(
      Object.entries(readers).map(([name, pool]) => [
        name,
        (i: number) => pool.query('SELECT epoch, expires_at FROM leases WHERE name = $1', [grants[i]![0]!.name]),
      ]),
    );
    console.log('lease read, read-only pool:', line(await compare(reads), 'direct'));
  } finally {
    await Promise.all(pools.map((pool) => pool.end()));
    await Promise.all(clients.map((client) => client.end()));
    for (const bouncer of bouncers) await bouncer.stop();
    await once(database.url, (client) => client.query(`DROP ROLE IF EXISTS ${login}`));
    await database.drop();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
