// Leaseboard behind PgBouncer (Debian's 1.18, a stock configuration: no ignore_startup_parameters), in
// transaction and in session mode: real scheduler and runner processes, the status service's reads, the read
// pool's guard, and concurrent migrations, all through the pooler. Each mode's PgBouncer is this file's own.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { JsonLineProcess, ROOT } from '../lib/child/json-line-process';
import { SQUARES_MIGRATION } from '../lib/jobs/example-squares/job';
import { leaseRow, useSchedulers } from '../lib/scheduler/testing/fixtures';
import { StatusService } from '../lib/server/service';
import { register } from '../lib/server/testing/seed';
import type { NodeClient } from './node-client';
import { createPool, createReadOnlyPool } from './pool';
import { READER_ROLE } from './reader-role';
import { databaseUrl, uniqueLease, usePool } from './testing/pools';
import { type Login, type PgBouncer, type PoolMode, startPgBouncer } from './testing/pgbouncer';
import { withDatabase } from './testing/worker-database';

const DAY = 86_400_000;

/** Its code, or the error itself when it has none: what a refused statement is expected to say. */
const sqlState = (promise: Promise<unknown>) =>
  promise.then(
    () => 'no error',
    (error: { code?: string }) => error.code ?? error,
  );

describe.each<PoolMode>(['transaction', 'session'])('behind PgBouncer in %s mode', (mode) => {
  const direct = usePool();
  let bouncer: PgBouncer;
  let url: string;
  // A reader login as a team would set one up: its own defaults (ALTER ROLE … SET) hold the read pool's settings.
  const readerLogin = { user: `lb_pgb_reader_${randomBytes(4).toString('hex')}`, password: randomBytes(12).toString('hex') };
  // A login whose sessions start with another DateStyle: the pools' timestamps must still read as ISO.
  const dmyLogin = { user: `lb_pgb_dmy_${randomBytes(4).toString('hex')}`, password: randomBytes(12).toString('hex') };
  /** `url` as `login`. */
  const as = (login: Login) => {
    const parsed = new URL(url);
    parsed.username = login.user;
    parsed.password = login.password;
    return parsed.toString();
  };
  beforeAll(async () => {
    for (const login of [dmyLogin, readerLogin]) await direct.query(`CREATE ROLE ${login.user} LOGIN PASSWORD '${login.password}' IN ROLE ${READER_ROLE}`);
    await direct.query(`ALTER ROLE ${dmyLogin.user} SET DateStyle = 'SQL, DMY'`);
    for (const setting of [
      `role = ${READER_ROLE}`,
      'default_transaction_read_only = on',
      `statement_timeout = '300ms'`,
      `idle_in_transaction_session_timeout = '300ms'`,
      'jit = off',
    ])
      await direct.query(`ALTER ROLE ${readerLogin.user} SET ${setting}`);
    bouncer = await startPgBouncer(databaseUrl(), mode, [readerLogin, dmyLogin]);
    url = bouncer.url(databaseUrl());
    await direct.query(SQUARES_MIGRATION);
  });
  afterAll(async () => {
    await bouncer?.stop();
    for (const login of [readerLogin, dmyLogin]) await direct.query(`DROP ROLE IF EXISTS ${login.user}`);
  });
  const spawnScheduler = useSchedulers(() => url);

  it('a read pool refuses a write and acts as the reader role; statements time out; nothing leaks onto the pooler’s other clients', async () => {
    const reader = createPool(url, { applicationName: 'leaseboard-pgb-read', readOnly: { role: READER_ROLE }, statementTimeoutMs: 300, max: 3 });
    const readOnly = createReadOnlyPool(url, { applicationName: 'leaseboard-pgb-read-only', statementTimeoutMs: 300 });
    const writer = createPool(url, { applicationName: 'leaseboard-pgb-write', statementTimeoutMs: 300, max: 3 });
    const plain = new pg.Client({ connectionString: url });
    try {
      expect(await sqlState(reader.query(`DELETE FROM leases WHERE name = 'nobody'`))).toBe('25006');
      expect(await sqlState(readOnly.query(`DELETE FROM leases WHERE name = 'nobody'`))).toBe('25006');
      // Inside an explicit transaction too: the BEGIN carried the settings.
      const client = await reader.connect();
      try {
        await client.query('BEGIN');
        expect(await sqlState(client.query(`DELETE FROM leases WHERE name = 'nobody'`))).toBe('25006');
        await client.query('ROLLBACK');
      } finally {
        client.release();
      }
      const { rows } = await reader.query(
        `SELECT current_user AS who, current_setting('DateStyle') AS style, current_setting('statement_timeout') AS timeout, current_setting('jit') AS jit`,
      );
      expect(rows[0]).toEqual({ who: READER_ROLE, style: 'ISO, MDY', timeout: '300ms', jit: 'off' });
      expect(await sqlState(reader.query('SELECT pg_sleep(2)'))).toBe('57014');
      expect(await sqlState(writer.query('SELECT pg_sleep(2)'))).toBe('57014');
      // Several statements at once on every pool: nothing collides (no named statement outlives its transaction).
      await Promise.all(Array.from({ length: 12 }, (_, i) => [reader, writer][i % 2]!.query('SELECT $1::int AS i', [i])));
      // The pooler's other clients get its server connections as they were: no setting of ours stayed there.
      await plain.connect();
      const after = await plain.query(
        `SELECT current_user AS who, current_setting('statement_timeout') AS timeout, current_setting('transaction_read_only') AS ro`,
      );
      expect(after.rows[0]).not.toMatchObject({ who: READER_ROLE });
      expect(after.rows[0]).toMatchObject({ timeout: '0', ro: 'off' });
    } finally {
      await plain.end().catch(() => {});
      await Promise.all([reader.end(), readOnly.end(), writer.end()]);
    }
  });

  it('a client stopped inside a transaction holds its row lock no longer than its timeout: the server ends its session', async () => {
    const name = uniqueLease(`pgb-idle-${mode}`);
    await register(direct, name);
    const stopped = createPool(url, { applicationName: 'leaseboard-pgb-stopped', statementTimeoutMs: 500, max: 1 });
    const next = createPool(url, { applicationName: 'leaseboard-pgb-next', statementTimeoutMs: 5_000, max: 1 });
    const lock = 'UPDATE schedulers SET labels = labels WHERE name = $1';
    try {
      const client = await stopped.connect();
      client.on('error', () => {});
      await client.query('BEGIN');
      await client.query(lock, [name]);
      // It stops here, as a SIGSTOPped holder would between a statement and its COMMIT: it holds the row lock and
      // sends nothing more. The next writer's statement may wait 5 s; it gets the row once the server has ended
      // the stopped session (after 500 ms idle in its transaction), never after the pause.
      expect(await sqlState(next.query(lock, [name]))).toBe('no error');
      expect(await sqlState(client.query('SELECT 1'))).not.toBe('no error');
      client.release(true);
    } finally {
      await Promise.all([stopped.end(), next.end()]);
    }
  });

  it('a reader login whose own defaults hold the settings: no statement carries them, and the guard and the timeout still hold', async () => {
    const reader = createReadOnlyPool(as(readerLogin), { applicationName: 'leaseboard-pgb-login', statementTimeoutMs: 300 });
    const held = createPool(as(readerLogin), { applicationName: 'leaseboard-pgb-login', readOnly: { role: READER_ROLE }, statementTimeoutMs: 300, max: 1 });
    const carrying = createPool(url, { applicationName: 'leaseboard-pgb-carry', readOnly: { role: READER_ROLE }, statementTimeoutMs: 300, max: 1 });
    try {
      const carries = async (pool: pg.Pool) => {
        const client = await pool.connect();
        client.release();
        return (client as unknown as NodeClient).carriesSettings;
      };
      expect(await carries(held)).toBe(false);
      expect(await carries(carrying)).toBe(true); // the superuser's login holds none of them
      expect(await sqlState(reader.query(`DELETE FROM leases WHERE name = 'nobody'`))).toBe('25006');
      expect(await sqlState(reader.query('SELECT pg_sleep(2)'))).toBe('57014');
      const { rows } = await reader.query('SELECT current_user AS who');
      expect(rows[0]).toEqual({ who: READER_ROLE });
    } finally {
      await Promise.all([reader.end(), held.end(), carrying.end()]);
    }
  });

  it('a login whose sessions start in another DateStyle still reads ISO timestamps, as node-postgres parses them', async () => {
    const reader = createReadOnlyPool(as(dmyLogin), { applicationName: 'leaseboard-pgb-dmy' });
    try {
      const { rows } = await reader.query<{ style: string; at: Date; text: string }>(
        `SELECT current_setting('DateStyle') AS style, clock_timestamp() AS at, '2026-12-06 21:30:00+00'::timestamptz::text AS text`,
      );
      expect(rows[0]!.style).toBe('ISO, MDY');
      expect(rows[0]!.text.startsWith('2026-12-06 21:30:00')).toBe(true);
      expect(Math.abs(rows[0]!.at.getTime() - Date.now())).toBeLessThan(60_000);
    } finally {
      await reader.end();
    }
  });

  it('a paused holder’s write is refused after a takeover, and the status service reads the refusal through the pooler', async () => {
    const lease = uniqueLease(`pgb-${mode}`);
    // One slot throughout (a day's cadence, clear of the day's end on the database clock): B resumes A's occurrence.
    const { rows: clock } = await direct.query<{ ms: string }>('SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS ms');
    if (DAY - (Number(clock[0]!.ms) % DAY) < 120_000) await new Promise((resolve) => setTimeout(resolve, DAY - (Number(clock[0]!.ms) % DAY) + 1_000));
    const cadence = { every: DAY, 'batch-work': 1_000 };
    const a = spawnScheduler(lease, 'A', cadence, { job: 'squares' });
    const acquired = await a.waitFor((line) => line.event === 'acquired');
    const epoch = Number(acquired.epoch);
    const b = spawnScheduler(lease, 'B', cadence, { job: 'squares' });
    await b.waitFor((line) => line.event === 'held');
    await a.waitFor((line) => line.event === 'occurrence_started');
    await a.pauseMidWrite('write', () => b.waitFor((line) => line.event === 'acquired' && line.epoch === epoch + 1, 20_000));
    expect(await a.waitFor((line) => line.event === 'write_rejected', 10_000)).toMatchObject({ reason: 'stale_epoch', currentEpoch: epoch + 1 });
    expect((await leaseRow(direct, lease))?.holder).toBe(b.token);
    // Neither process ever saw a statement collide or an outcome it could not know — but A's renewals: one in
    // flight when A was stopped outlives its deadline by the pause, and A reads it as unknown when it wakes (as it
    // must; CI saw it once). Its write, the outcome that matters, was refused, as above.
    const troubled = [...a.lines.filter((line) => line.event !== 'renew_unknown'), ...b.lines].filter((line) =>
      /42P05|26000|unknown/.test(JSON.stringify(line)),
    );
    expect(troubled).toEqual([]);

    const reads = createReadOnlyPool(url, { applicationName: 'leaseboard-pgb-status', statementTimeoutMs: 2_000 });
    try {
      const service = new StatusService({ db: reads, readTimeoutMs: 2_000, pollIntervalMs: 1_000 });
      const detail = await service.detail(lease);
      if (!detail.ok) throw new Error(detail.error.message);
      expect(detail.value.rejections.some((r) => r.attemptedEpoch === epoch && r.reason === 'stale_epoch')).toBe(true);
    } finally {
      await reads.end();
    }
  });

  it('`leaseboard run --once` runs its command under the lease and completes the occurrence', async () => {
    const lease = uniqueLease(`pgb-run-${mode}`);
    const runner = new JsonLineProcess({
      name: 'runner',
      entry: 'lib/cli/main.ts',
      args: ['run', '--lease', lease, '--every', '1h', '--once', '--ttl', '3s', '--report-every', '1s', '--', 'sh', '-c', `echo '{"cursor": 5}' >&3`],
      env: { DATABASE_URL: url },
    });
    try {
      expect(await runner.exit()).toBe(0);
      const started = runner.lines.find((line) => line.event === 'child_started');
      const { rows } = await direct.query('SELECT state FROM occurrences WHERE key = $1', [started?.occurrence]);
      expect(rows).toEqual([{ state: 'completed' }]);
    } finally {
      await runner.stop(5_000);
    }
  });

  it('three `leaseboard migrate` at once through the pooler all succeed, each migration applied once', async () => {
    const adminUrl = inject('adminDatabaseUrl');
    const name = `leaseboard_pgb_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${name}`);
      const target = bouncer.url(withDatabase(adminUrl, name));
      const runs = await Promise.all([1, 2, 3].map(() => migrate(target)));
      for (const run of runs) expect(run.code, run.output).toBe(0);
      const client = new pg.Client({ connectionString: withDatabase(adminUrl, name) });
      await client.connect();
      const applied = await client.query('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations');
      await client.end();
      const journal = (await import('./migrations/meta/_journal.json')).default as { entries: unknown[] };
      expect(applied.rows[0].n).toBe(journal.entries.length);
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});

/** `npm run db:migrate` as a process; killed (and reported as such) if it hangs. */
function migrate(url: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'db/migrate-cli.ts')], { env: { ...process.env, DATABASE_URL: url } });
    let output = '';
    const hung = setTimeout(() => {
      output += '\n(killed: still running after 40 s)';
      child.kill('SIGKILL');
    }, 40_000);
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      clearTimeout(hung);
      resolve({ code, output });
    });
  });
}
