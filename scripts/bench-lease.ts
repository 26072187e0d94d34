/**
 * `npm run bench:lease`: renewals/s and contended acquisition attempts/s at
 * 1, 8 and 32 clients through the library, each against a bare conditional
 * statement of the same shape measured in the same run (ratio = library/bare);
 * then fenced 500-row batch writes against the same INSERT without the fence
 * (./bench-fenced-writes.ts); and batched renewals — 32 clients each
 * renewing its 50 leases per statement (LeaseAuthority.renewMany) against the
 * same bare batched UPDATE … FROM unnest; and the protocol's SQL functions
 * (what the library calls since they exist) against each function's own
 * statement issued inline (what the library sent before), alternated in the
 * same run (target ≥ 0.9×). Runs on a fresh database on
 * DATABASE_URL's server, or an embedded one. Prints figures and the machine's
 * load; asserts nothing (targets: renew ≥ 0.8× bare and ≥ 5,000/s at 32;
 * fenced ≥ 0.8× bare; batched ≥ 50,000 renewals/s and ≥ 0.8× bare batched).
 * Every bare statement stamps change_xid as the library does (the status
 * service's change stamp), so neither side pays the stamping trigger.
 * Env: BENCH_SECONDS (per figure), BENCH_BATCH_CLIENTS (32), BENCH_BATCH_LEASES (50).
 *
 * `-- --sync-standby`: the same figures twice on one primary built from this
 * machine's PostgreSQL binaries (db/replication), first alone (its standby
 * stopped, commits wait for nobody), then with a synchronous standby (every
 * commit waits for it), each on a fresh database, and the ratios between the two.
 */
import os from 'node:os';
import pg from 'pg';
import { migrateDatabase } from '../db/migrate';
import { admin, LocalPair } from '../db/replication/local-pair';
import { protocolStatement } from '../db/protocol-functions';
import { createTestDatabase } from '../db/testing/test-database';
import { LeaseAuthority, leaseTerms, newInstanceToken } from '../lib/lease';
import { benchFencedWrites } from './bench-fenced-writes';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CLIENTS = [1, 8, 32];
const TTL = 60_000;

const BARE_RENEW = `UPDATE leases SET renewed_at = clock_timestamp(), expires_at = clock_timestamp() + ttl_ms * interval '1 millisecond',
    change_xid = pg_current_xact_id()
  WHERE name = $1 AND holder = $2 AND epoch = $3 AND released_at IS NULL AND expires_at > clock_timestamp() RETURNING renewed_at, expires_at`;
const BARE_ACQUIRE = `INSERT INTO leases AS l (name, holder, epoch, acquired_at, renewed_at, expires_at, ttl_ms)
  VALUES ($1, $2, 1, clock_timestamp(), clock_timestamp(), clock_timestamp() + $3::int * interval '1 millisecond', $3::int)
  ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, epoch = l.epoch + 1, acquired_at = excluded.acquired_at,
    renewed_at = excluded.renewed_at, expires_at = excluded.expires_at, released_at = NULL
  WHERE l.released_at IS NOT NULL OR l.expires_at <= excluded.acquired_at RETURNING epoch`;

const BARE_RENEW_MANY = `UPDATE leases l SET renewed_at = clock_timestamp(), expires_at = clock_timestamp() + l.ttl_ms * interval '1 millisecond',
    change_xid = pg_current_xact_id()
  FROM unnest($1::text[], $2::text[], $3::bigint[]) AS r(name, holder, epoch)
  WHERE l.name = r.name AND l.holder = r.holder AND l.epoch = r.epoch AND l.released_at IS NULL AND l.expires_at > clock_timestamp()
  RETURNING l.name, l.renewed_at, l.expires_at`;

const envInt = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
};

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

interface SuiteFigures {
  /** Library renewals/s at each client count. */
  renew: Map<number, number>;
}

/** Ends a section's clients (and forgets them): sections connect up to 41 clients each, and servers allow 100. */
async function endClients(clients: pg.Client[], all: pg.Client[]): Promise<void> {
  await Promise.all(clients.map((client) => client.end()));
  for (const client of clients) all.splice(all.indexOf(client), 1);
}

async function main() {
  if (process.argv.includes('--sync-standby')) return syncStandby();
  const database = await createTestDatabase(() => {});
  try {
    await suite(database.url, process.env.DATABASE_URL ? 'DATABASE_URL server' : 'embedded');
  } finally {
    await database.drop();
  }
}

/** The suite on one primary alone, then with a synchronous standby: each on a fresh database of that primary. */
async function syncStandby(): Promise<void> {
  const pair = await LocalPair.start('sync');
  try {
    const fresh = async (name: string) => {
      await admin(pair.primary, (c) => c.query(`CREATE DATABASE ${name}`));
      await migrateDatabase(pair.primary.url(name));
      return pair.primary.url(name);
    };
    await pair.detachStandby();
    await pair.setSynchronous(false);
    const alone = await suite(await fresh('bench_alone'), 'a primary alone (its standby stopped)');
    await pair.setSynchronous(true);
    await pair.standby.start();
    await pair.caughtUp();
    const synced = await suite(await fresh('bench_sync'), 'the same primary with a synchronous standby (synchronous_standby_names = *)');
    console.log('\nsynchronous standby / alone, library renewals/s:');
    for (const [clients, rate] of synced.renew) console.log(`  ${clients} clients: ${(rate / alone.renew.get(clients)!).toFixed(2)}×`);
  } finally {
    await pair.stop();
  }
}

async function suite(url: string, where: string): Promise<SuiteFigures> {
  const all: pg.Client[] = [];
  const figures: SuiteFigures = { renew: new Map() };
  try {
    const version = new pg.Client(url);
    await version.connect();
    const server = (await version.query('SHOW server_version')).rows[0].server_version;
    await version.end();
    const load = os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ');
    console.log(`\nbench:lease — PostgreSQL ${server} (${where}), ${SECONDS} s per figure`);
    console.log(`machine: ${os.cpus().length} cores, load average ${load} (1/5/15 min) at start\n`);
    console.log('clients | renew lib/s | renew bare/s | ratio | acquire lib/s | acquire bare/s | ratio');
    for (const n of CLIENTS) {
      const clients = await Promise.all(
        Array.from({ length: n }, async () => {
          const client = new pg.Client({ connectionString: url, application_name: 'leaseboard-bench' });
          await client.connect();
          all.push(client);
          return client;
        }),
      );
      // Renewals: each client renews its own lease (the production shape: one holder per lease).
      const grants = await Promise.all(
        clients.map(async (client, i) => {
          const holder = newInstanceToken();
          const result = await new LeaseAuthority(client).acquire(leaseTerms({ name: `bench-renew-${n}-${i}`, ttlMs: TTL }), holder);
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
      const acquireLib = await timed(clients, (_client, i) => authorities[i]!.acquire(leaseTerms({ name: `bench-acq-lib-${n}`, ttlMs: 1_000 }), tokens[i]!));
      figures.renew.set(n, renewLib);
      const f = (x: number) => Math.round(x).toLocaleString('en-US').padStart(12);
      console.log(
        `${String(n).padStart(7)} | ${f(renewLib)} | ${f(renewBare)} | ${(renewLib / renewBare).toFixed(2)}× | ${f(acquireLib)} | ${f(acquireBare)} | ${(acquireLib / acquireBare).toFixed(2)}×`,
      );
      await endClients(clients, all);
    }
    console.log('\nrenew lib = LeaseAuthority.renew (one statement, keeping the renewal-gap bucket on the row); bare = the conditional UPDATE alone.');
    console.log('acquire lib = LeaseAuthority.acquire (grant, lease event and the explanation of a refusal in one statement); bare = the upsert alone.');
    await benchFunctionsAgainstInline(url, all);
    await benchBatchedRenewals(url, all);
    await benchFencedWrites(url, timed, [1, 8]);
    console.log('\nfenced = writeFenced into plan_items: leaseboard_fence() (share lock, check) + the statement-level trigger over the new rows;');
    console.log(
      'bare = the same INSERT into a twin table without triggers or check; row-trigger = the twin with a per-row check trigger (the alternative not taken).',
    );
    console.log(
      `load average at the end: ${os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await Promise.all(all.map((client) => client.end()));
  }
  return figures;
}

/** 32 clients × 50 leases: one statement per client renews its 50 leases. */
async function benchBatchedRenewals(url: string, all: pg.Client[]): Promise<void> {
  const clientsN = envInt('BENCH_BATCH_CLIENTS', 32);
  const leasesN = envInt('BENCH_BATCH_LEASES', 50);
  const clients = await Promise.all(
    Array.from({ length: clientsN }, async () => {
      const client = new pg.Client({ connectionString: url, application_name: 'leaseboard-bench' });
      await client.connect();
      all.push(client);
      return client;
    }),
  );
  const grants = await Promise.all(
    clients.map(async (client, c) => {
      const authority = new LeaseAuthority(client);
      const mine = [];
      for (let i = 0; i < leasesN; i++) {
        const name = `bench-batch-${c}-${i}`;
        const holder = newInstanceToken();
        const result = await authority.acquire(leaseTerms({ name, ttlMs: TTL }), holder);
        if (result.kind !== 'acquired') throw new Error(result.kind);
        mine.push({ name, holder, epoch: result.epoch });
      }
      return mine;
    }),
  );
  const authorities = clients.map((client) => new LeaseAuthority(client));
  const arrays = grants.map((mine) => [mine.map((g) => g.name), mine.map((g) => g.holder), mine.map((g) => g.epoch)]);
  let refused = 0;
  const check = (renewed: number) => {
    if (renewed !== leasesN) refused += leasesN - renewed;
  };
  // Alternate the two twice (bare, lib, bare, lib) so drift in the machine's load falls on both.
  const bare: number[] = [];
  const lib: number[] = [];
  for (let round = 0; round < 2; round++) {
    bare.push(
      (await timed(clients, async (client, i) =>
        check((await client.query({ name: 'bare_renew_many', text: BARE_RENEW_MANY, values: arrays[i] })).rowCount ?? 0),
      )) * leasesN,
    );
    lib.push(
      (await timed(clients, async (_client, i) => check((await authorities[i]!.renewMany(grants[i]!)).filter((r) => r.kind === 'renewed').length))) * leasesN,
    );
  }
  const f = (x: number) => Math.round(x).toLocaleString('en-US');
  const libBest = Math.max(...lib);
  const bareBest = Math.max(...bare);
  const libMean = lib.reduce((a, b) => a + b, 0) / lib.length;
  const bareMean = bare.reduce((a, b) => a + b, 0) / bare.length;
  console.log(
    `\nbatched renewals: ${clientsN} clients × ${leasesN} leases, one statement per client per round (${SECONDS} s per figure, 2 rounds each, alternated)`,
  );
  console.log(`  renewMany (library):      ${lib.map(f).join(' / ')} renewals/s`);
  console.log(`  bare UPDATE … FROM unnest: ${bare.map(f).join(' / ')} renewals/s`);
  console.log(
    `  ratio library/bare: ${(libMean / bareMean).toFixed(2)}× (means), ${(libBest / bareBest).toFixed(2)}× (bests) — target ≥ 0.8×; library ≥ 50,000/s: ${libMean >= 50_000 ? 'MET' : 'MISSED'} (mean ${f(libMean)})`,
  );
  if (refused > 0) console.log(`  WARNING: ${refused} renewals refused during the bench (a lease expired?)`);
  await endClients(clients, all);
}

/**
 * The protocol functions against their own statements inline (read from the
 * database, db/protocol-functions.ts): renew at 1, 8 and 32 clients, renewMany at 8 × 50 leases, and
 * contended acquisition at 8 — alternated twice, so the machine's drift falls on both.
 */
async function benchFunctionsAgainstInline(url: string, all: pg.Client[]): Promise<void> {
  const admin = new pg.Client(url);
  await admin.connect();
  all.push(admin);
  const inline = {
    renew: await protocolStatement(admin, 'leaseboard_renew'),
    renewMany: await protocolStatement(admin, 'leaseboard_renew_many'),
    acquire: await protocolStatement(admin, 'leaseboard_acquire'),
  };
  const connect = (n: number) =>
    Promise.all(
      Array.from({ length: n }, async () => {
        const client = new pg.Client({ connectionString: url, application_name: 'leaseboard-bench' });
        await client.connect();
        all.push(client);
        return client;
      }),
    );
  const f = (x: number) => Math.round(x).toLocaleString('en-US').padStart(10);
  console.log("\nSQL functions (the library now) against each function's statement inline (the library before), ops/s, 2 rounds alternated:");
  console.log('what                       | function/s | inline/s   | ratio (means)');
  const row = async (what: string, fn: () => Promise<number>, statement: () => Promise<number>) => {
    const fns: number[] = [];
    const inl: number[] = [];
    for (let round = 0; round < 2; round++) {
      inl.push(await statement());
      fns.push(await fn());
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    console.log(`${what.padEnd(26)} | ${f(mean(fns))} | ${f(mean(inl))} | ${(mean(fns) / mean(inl)).toFixed(2)}×`);
  };
  for (const n of CLIENTS) {
    const clients = await connect(n);
    const grants = await Promise.all(
      clients.map(async (client, i) => {
        const name = `bench-fn-renew-${n}-${i}`;
        const holder = newInstanceToken();
        const result = await new LeaseAuthority(client).acquire(leaseTerms({ name, ttlMs: TTL }), holder);
        if (result.kind !== 'acquired') throw new Error(result.kind);
        return [name, holder, result.epoch];
      }),
    );
    await row(
      `renew, ${n} client${n === 1 ? '' : 's'}`,
      () => timed(clients, (client, i) => client.query({ name: 'fn_renew', text: 'SELECT * FROM leaseboard_renew($1, $2, $3)', values: grants[i] })),
      () => timed(clients, (client, i) => client.query({ name: 'inline_renew', text: inline.renew, values: grants[i] })),
    );
    if (n !== 8) {
      await endClients(clients, all);
      continue;
    }
    const tokens = clients.map(() => newInstanceToken());
    await row(
      'acquire (contended), 8',
      () =>
        timed(clients, (client, i) =>
          client.query({ name: 'fn_acquire', text: 'SELECT * FROM leaseboard_acquire($1, $2, $3, $4)', values: ['bench-fn-acq', tokens[i], null, 1_000] }),
        ),
      () =>
        timed(clients, (client, i) => client.query({ name: 'inline_acquire', text: inline.acquire, values: ['bench-fn-acq-inline', tokens[i], null, 1_000] })),
    );
    const batches = await Promise.all(
      clients.map(async (client, c) => {
        const mine: [string[], string[], number[]] = [[], [], []];
        for (let i = 0; i < 50; i++) {
          const name = `bench-fn-many-${c}-${i}`;
          const holder = newInstanceToken();
          const result = await new LeaseAuthority(client).acquire(leaseTerms({ name, ttlMs: TTL }), holder);
          if (result.kind !== 'acquired') throw new Error(result.kind);
          mine[0].push(name);
          mine[1].push(holder);
          mine[2].push(result.epoch);
        }
        return mine;
      }),
    );
    await row(
      'renewMany 8 × 50 (stmts)',
      () => timed(clients, (client, i) => client.query({ name: 'fn_renew_many', text: 'SELECT * FROM leaseboard_renew_many($1, $2, $3)', values: batches[i] })),
      () => timed(clients, (client, i) => client.query({ name: 'inline_renew_many', text: inline.renewMany, values: batches[i] })),
    );
    await endClients(clients, all);
  }
}

void main();
