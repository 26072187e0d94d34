/**
 * `npm run bench:lease`: renewals/s and contended acquisition attempts/s at
 * 1, 8 and 32 clients through the library, each against a bare conditional
 * statement of the same shape measured in the same run (ratio = library/bare).
 * Runs on a fresh database on DATABASE_URL's server, or an embedded one.
 * Prints figures; asserts nothing (targets: renew ≥ 0.8× bare, ≥ 5,000/s at 32).
 */
import pg from 'pg';
import { createTestDatabase } from '../db/testing/test-database';
import { LeaseAuthority } from '../lib/lease/authority';
import { newInstanceToken } from '../lib/lease/token';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CLIENTS = [1, 8, 32];
const TTL = 60_000;

const BARE_RENEW = `UPDATE leases SET renewed_at = clock_timestamp(), expires_at = clock_timestamp() + ttl_ms * interval '1 millisecond'
  WHERE name = $1 AND holder = $2 AND epoch = $3 AND released_at IS NULL AND expires_at > clock_timestamp() RETURNING renewed_at, expires_at`;
const BARE_ACQUIRE = `INSERT INTO leases AS l (name, holder, epoch, acquired_at, renewed_at, expires_at, ttl_ms)
  VALUES ($1, $2, 1, clock_timestamp(), clock_timestamp(), clock_timestamp() + $3::int * interval '1 millisecond', $3::int)
  ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, epoch = l.epoch + 1, acquired_at = excluded.acquired_at,
    renewed_at = excluded.renewed_at, expires_at = excluded.expires_at, released_at = NULL
  WHERE l.released_at IS NOT NULL OR l.expires_at <= excluded.acquired_at RETURNING epoch`;

async function timed(clients: pg.Client[], op: (client: pg.Client, index: number) => Promise<unknown>): Promise<number> {
  const run = async (ms: number) => {
    let count = 0;
    const end = performance.now() + ms;
    await Promise.all(
      clients.map(async (client, index) => {
        while (performance.now() < end) {
          await op(client, index);
          count++;
        }
      }),
    );
    return count;
  };
  await run(300); // warm-up: connections, prepared plans
  const started = performance.now();
  const count = await run(SECONDS * 1000);
  return count / ((performance.now() - started) / 1000);
}

async function main() {
  const database = await createTestDatabase(() => {});
  const all: pg.Client[] = [];
  try {
    const version = new pg.Client(database.url);
    await version.connect();
    const server = (await version.query('SHOW server_version')).rows[0].server_version;
    await version.end();
    console.log(`bench:lease — PostgreSQL ${server} (${process.env.DATABASE_URL ? 'DATABASE_URL server' : 'embedded'}), ${SECONDS} s per figure\n`);
    console.log('clients | renew lib/s | renew bare/s | ratio | acquire lib/s | acquire bare/s | ratio');
    for (const n of CLIENTS) {
      const clients = await Promise.all(
        Array.from({ length: n }, async () => {
          const client = new pg.Client({ connectionString: database.url, application_name: 'leaseboard-bench' });
          await client.connect();
          all.push(client);
          return client;
        }),
      );
      // Renewals: each client renews its own lease (the production shape: one holder per lease).
      const grants = await Promise.all(
        clients.map(async (client, i) => {
          const holder = newInstanceToken();
          const result = await new LeaseAuthority(client).acquire(`bench-renew-${n}-${i}`, holder, TTL);
          if (result.kind !== 'acquired') throw new Error(result.kind);
          return { name: `bench-renew-${n}-${i}`, holder, epoch: result.epoch };
        }),
      );
      const authorities = clients.map((client) => new LeaseAuthority(client));
      const renewBare = await timed(clients, (client, i) =>
        client.query({ name: 'bare_renew', text: BARE_RENEW, values: [grants[i]!.name, grants[i]!.holder, grants[i]!.epoch] }),
      );
      const renewLib = await timed(clients, (_client, i) => authorities[i]!.renew(grants[i]!));
      // Contended acquisition: every client competes for one lease held for 1 s at a time.
      const tokens = clients.map(() => newInstanceToken());
      const acquireBare = await timed(clients, (client, i) =>
        client.query({ name: 'bare_acquire', text: BARE_ACQUIRE, values: [`bench-acq-bare-${n}`, tokens[i], 1_000] }),
      );
      const acquireLib = await timed(clients, (_client, i) => authorities[i]!.acquire(`bench-acq-lib-${n}`, tokens[i]!, 1_000));
      const f = (x: number) => Math.round(x).toLocaleString('en-US').padStart(12);
      console.log(
        `${String(n).padStart(7)} | ${f(renewLib)} | ${f(renewBare)} | ${(renewLib / renewBare).toFixed(2)}× | ${f(acquireLib)} | ${f(acquireBare)} | ${(acquireLib / acquireBare).toFixed(2)}×`,
      );
    }
    console.log('\nrenew lib = LeaseAuthority.renew (one statement, keeping the renewal-gap bucket on the row); bare = the conditional UPDATE alone.');
    console.log('acquire lib = LeaseAuthority.acquire (grant, lease event and the explanation of a refusal in one statement); bare = the upsert alone.');
  } finally {
    await Promise.all(all.map((client) => client.end()));
    await database.drop();
  }
}

void main();
