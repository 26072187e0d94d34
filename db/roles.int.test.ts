// Least privilege, against real PostgreSQL: each kind of work logs in as its own role and can do that
// work and nothing more — a real scheduler process plans and reports, the pruner's round runs, an operator
// changes an intent — while no login but the migrator can change or delete an audit row, schedulers cannot
// write people's choices, and the reader writes nothing even after undoing its session settings. Roles are
// made race-free by migrators of several databases at once, with fresh passwords for every run.
// Every login may ask the replication state (a definer function answering aggregates); nobody else may.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { changeIntent } from '../lib/lease';
import { changeLabels } from '../lib/actions/labels';
import { seedDocuments } from '../examples/demo/retention-planner/documents';
import { SchedulerProcess } from '../lib/child/scheduler-process';
import { DEMO_SCHEDULER_PROGRAM } from '../examples/demo/demo-scheduler';
import { FAST_FLAGS, poll } from '../lib/scheduler/testing/fixtures';
import { acquire, register } from '../lib/server/testing/seed';
import { migrateDatabase } from './migrate';
import { createPool } from './pool';
import { AUDIT_TABLES, dropLoginRoles, ensureLoginRoles, ensureRoles, type LoginUrls, loginRoleName } from './roles';
import { databaseUrl, uniqueLease, usePool } from './testing/pools';

const INSUFFICIENT_PRIVILEGE = '42501';
const databaseOf = (url: string) => new URL(url).pathname.slice(1);

describe('database roles', () => {
  const admin = usePool();
  let urls: LoginUrls;
  let pools: Record<keyof LoginUrls, pg.Pool>;

  beforeAll(async () => {
    const client = new pg.Client({ connectionString: databaseUrl() });
    await client.connect();
    urls = await ensureLoginRoles(client, databaseUrl());
    await client.end();
    pools = {
      scheduler: createPool(urls.scheduler, { applicationName: 'leaseboard-test-scheduler', max: 2 }),
      operator: createPool(urls.operator, { applicationName: 'leaseboard-test-operator', max: 2 }),
      reader: createPool(urls.reader, { applicationName: 'leaseboard-test-reader', max: 1 }),
    };
    await seedDocuments(admin, 5_000);
  });
  afterAll(async () => {
    await Promise.all(Object.values(pools).map((pool) => pool.end()));
    const client = new pg.Client({ connectionString: databaseUrl() });
    await client.connect();
    await dropLoginRoles(client, databaseOf(databaseUrl()));
    await client.end();
  });

  it('each login is its own role, named after the database, with a password of this run', async () => {
    for (const [kind, url] of Object.entries(urls) as [keyof LoginUrls, string][]) {
      expect(new URL(url).username).toBe(loginRoleName(kind, databaseOf(databaseUrl())));
      expect(new URL(url).password.length).toBeGreaterThanOrEqual(24);
      const { rows } = await pools[kind].query<{ user: string; super: boolean }>(
        'SELECT current_user AS user, usesuper AS super FROM pg_user WHERE usename = current_user',
      );
      expect(rows[0]).toEqual({ user: loginRoleName(kind, databaseOf(databaseUrl())), super: false });
    }
  });

  it('a real scheduler process runs as the scheduler login: acquires, plans (fenced writes), reports; the pruner round runs as its definer', async () => {
    const lease = uniqueLease('roles');
    const scheduler = new SchedulerProcess({ program: DEMO_SCHEDULER_PROGRAM, lease, label: 'A', databaseUrl: urls.scheduler, flags: FAST_FLAGS });
    try {
      await scheduler.waitFor((line) => line.event === 'acquired', 30_000);
      await poll(
        () => admin.query<{ n: number }>('SELECT count(*)::int AS n FROM leaseboard_demo.plan_items WHERE lease = $1', [lease]),
        (result) => result.rows[0]!.n > 0,
        30_000,
      );
      await poll(
        () => admin.query<{ n: number }>('SELECT count(*)::int AS n FROM progress_reports WHERE lease = $1', [lease]),
        (result) => result.rows[0]!.n > 0,
      );
    } finally {
      expect(await scheduler.stop()).toBe(0);
    }
    const pruner = await acquire(pools.scheduler, uniqueLease('roles-pruner'));
    const { rows } = await pools.scheduler.query<{ round: { created: number } }>(
      `SELECT leaseboard_retention_partitions($1, $2, clock_timestamp(), interval '1 day', interval '7 days', interval '1 day', 100) AS round`,
      [pruner.name, pruner.epoch],
    );
    expect(rows[0]!.round.created).toBeGreaterThanOrEqual(0);
    // Nobody else may run it (it acts as its owner).
    await expect(pools.operator.query(`SELECT leaseboard_retention_partitions('x', 1, now(), '1 day', '7 days', '1 day', 1)`)).rejects.toMatchObject({
      code: INSUFFICIENT_PRIVILEGE,
    });
  });

  it('an operator changes an intent through the operator login, appended to the audit; no login but the migrator changes an audit row', async () => {
    const lease = uniqueLease('roles-intent');
    await acquire(admin, lease);
    const changed = await changeIntent(
      pools.operator,
      lease,
      { disabled: true, by: 'olive', reason: 'maintenance' },
      { mustExist: true, identifiedBy: 'token' },
    );
    expect(changed.kind).toBe('changed');
    for (const kind of ['scheduler', 'operator', 'reader'] as const) {
      for (const table of AUDIT_TABLES) {
        for (const statement of [`UPDATE ${table} SET reason = 'rewritten'`, `DELETE FROM ${table}`, `TRUNCATE ${table}`]) {
          await expect(pools[kind].query(statement), `${kind}: ${statement}`).rejects.toMatchObject({ code: INSUFFICIENT_PRIVILEGE });
        }
      }
    }
    const { rows } = await admin.query<{ by: string; reason: string }>('SELECT by, reason FROM intent_audit WHERE lease = $1', [lease]);
    expect(rows).toEqual([{ by: 'olive', reason: 'maintenance' }]);
    // The owner (the migrator) still can: it is the one login that may repair history.
    await expect(admin.query(`UPDATE intent_audit SET reason = reason WHERE lease = $1`, [lease])).resolves.toBeDefined();
  });

  it('the operator login cannot change an intent without its audit row, by any statement: the database checks at commit', async () => {
    const lease = uniqueLease('roles-unaudited');
    await acquire(admin, lease);
    await expect(
      pools.operator.query(`INSERT INTO scheduler_intents (lease, disabled, by, reason, at) VALUES ($1, true, 'olive', 'quietly', now())`, [lease]),
    ).rejects.toMatchObject({ code: '23000' });
    await changeIntent(pools.operator, lease, { disabled: true, by: 'olive', reason: 'maintenance' }, { identifiedBy: 'token' });
    await expect(pools.operator.query(`UPDATE scheduler_intents SET disabled = false WHERE lease = $1`, [lease])).rejects.toMatchObject({ code: '23000' });
    // An audit row for another change does not cover this one.
    const client = await pools.operator.connect();
    try {
      await client.query('BEGIN');
      await client.query(`INSERT INTO intent_audit (lease, disabled, by, identified_by, reason, at) VALUES ($1, true, 'olive', 'token', 'decoy', now())`, [
        lease,
      ]);
      await client.query(`UPDATE scheduler_intents SET disabled = false, reason = 'quietly' WHERE lease = $1`, [lease]);
      await expect(client.query('COMMIT')).rejects.toMatchObject({ code: '23000' });
    } finally {
      client.release();
    }
    const { rows } = await admin.query('SELECT disabled, reason FROM scheduler_intents WHERE lease = $1', [lease]);
    expect(rows).toEqual([{ disabled: true, reason: 'maintenance' }]);
  });

  it('service tokens are seen by the operator login alone: neither the scheduler nor the reader login reads their salts and hashes', async () => {
    await expect(pools.operator.query('SELECT id FROM service_tokens LIMIT 1')).resolves.toBeDefined();
    for (const kind of ['scheduler', 'reader'] as const) {
      await expect(pools[kind].query('SELECT salt FROM service_tokens LIMIT 1'), kind).rejects.toMatchObject({ code: INSUFFICIENT_PRIVILEGE });
    }
  });

  it('an operator labels a scheduler through the operator login, appended to the audit', async () => {
    const lease = uniqueLease('roles-labels');
    await acquire(admin, lease);
    const changed = await changeLabels(pools.operator, lease, { labels: { team: 'payments' }, by: 'olive', reason: 'ownership' }, { identifiedBy: 'token' });
    expect(changed.kind).toBe('changed');
    const { rows } = await admin.query('SELECT scheduler, to_labels, by FROM label_audit WHERE scheduler = $1', [lease]);
    expect(rows).toEqual([{ scheduler: lease, to_labels: { team: 'payments' }, by: 'olive' }]);
  });

  it("schedulers read people's choices but never write them (invariant 9), nor see sessions; operators write no protocol table", async () => {
    const lease = uniqueLease('roles-choice');
    await expect(pools.scheduler.query(`SELECT count(*) FROM scheduler_intents`)).resolves.toBeDefined();
    for (const statement of [
      `INSERT INTO scheduler_intents (lease, disabled, by, reason, at) VALUES ('${lease}', false, 'robot', 'automation', now())`,
      `UPDATE alert_modes SET mode = 'off'`,
      `INSERT INTO label_overrides (name, labels, by, reason, at) VALUES ('${lease}', '{}', 'robot', 'automation', now())`,
      `UPDATE label_overrides SET labels = NULL`,
      `SELECT * FROM operator_sessions`,
    ]) {
      await expect(pools.scheduler.query(statement), statement).rejects.toMatchObject({ code: INSUFFICIENT_PRIVILEGE });
    }
    for (const statement of [
      `UPDATE leases SET epoch = epoch + 1`,
      `DELETE FROM progress_reports`,
      `INSERT INTO alert_state SELECT * FROM alert_state LIMIT 0`,
      `UPDATE schedulers SET labels = '{}'`,
    ]) {
      await expect(pools.operator.query(statement), statement).rejects.toMatchObject({ code: INSUFFICIENT_PRIVILEGE });
    }
  });

  it('the scheduler login checks report tokens and stamps their use, nothing more: it cannot rewrite a token’s secret or owner', async () => {
    const lease = uniqueLease('roles-token');
    await register(admin, lease);
    const id = Math.random().toString(16).slice(2, 14).padEnd(12, '0');
    await admin.query(`INSERT INTO report_tokens (id, scheduler, secret_sha256, created_by, created_at) VALUES ($1, $2, repeat('a', 64), 'test', now())`, [
      id,
      lease,
    ]);
    await expect(pools.scheduler.query('SELECT secret_sha256 FROM report_tokens WHERE id = $1', [id])).resolves.toMatchObject({ rowCount: 1 });
    await expect(pools.scheduler.query('UPDATE report_tokens SET last_used_at = now() WHERE id = $1', [id])).resolves.toMatchObject({ rowCount: 1 });
    for (const statement of [
      `UPDATE report_tokens SET secret_sha256 = repeat('b', 64) WHERE id = '${id}'`,
      `UPDATE report_tokens SET scheduler = 'other' WHERE id = '${id}'`,
    ]) {
      await expect(pools.scheduler.query(statement), statement).rejects.toMatchObject({ code: INSUFFICIENT_PRIVILEGE });
    }
  });

  it('no login may create objects in the public schema, even in a database whose schema still lets PUBLIC create (PostgreSQL 14 and older, or upgraded)', async () => {
    await admin.query('GRANT CREATE ON SCHEMA public TO PUBLIC');
    const client = await admin.connect();
    try {
      await ensureRoles(client);
    } finally {
      client.release();
    }
    for (const kind of ['reader', 'scheduler', 'operator'] as const) {
      const table = `lb_planted_${kind}_${Math.random().toString(36).slice(2, 8)}`;
      await expect(pools[kind].query(`CREATE TABLE public.${table} (a int)`), kind).rejects.toMatchObject({ code: INSUFFICIENT_PRIVILEGE });
    }
  });

  it('login passwords reach the server as SCRAM-SHA-256 verifiers made here: no statement carries the password, and the login works', async () => {
    const sent: string[] = [];
    const client = new pg.Client({ connectionString: databaseUrl() });
    await client.connect();
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      sent.push(typeof args[0] === 'string' ? args[0] : JSON.stringify(args[0]));
      return query(...args);
    };
    let fresh: LoginUrls;
    try {
      fresh = await ensureLoginRoles(client, databaseUrl());
    } finally {
      await client.end();
    }
    const passwords = Object.values(fresh).map((url) => decodeURIComponent(new URL(url).password));
    for (const password of passwords) expect(sent.join('\n')).not.toContain(password);
    expect(sent.filter((text) => /PASSWORD 'SCRAM-SHA-256\$4096:[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+'/.test(text))).toHaveLength(3);
    const { rows } = await admin.query<{ verifier: string }>('SELECT rolpassword AS verifier FROM pg_authid WHERE rolname = $1', [
      new URL(fresh.scheduler).username,
    ]);
    expect(rows[0]!.verifier.startsWith('SCRAM-SHA-256$4096:')).toBe(true);
    const login = new pg.Client({ connectionString: fresh.scheduler });
    await login.connect();
    await expect(login.query('SELECT current_user AS user')).resolves.toMatchObject({ rows: [{ user: new URL(fresh.scheduler).username }] });
    await login.end();
    await Promise.all(Object.values(pools).map((pool) => pool.end()));
    pools = {
      scheduler: createPool(fresh.scheduler, { applicationName: 'leaseboard-test-scheduler', max: 2 }),
      operator: createPool(fresh.operator, { applicationName: 'leaseboard-test-operator', max: 2 }),
      reader: createPool(fresh.reader, { applicationName: 'leaseboard-test-reader', max: 1 }),
    };
  });

  it('the reader writes nothing, even after turning read-only off and resetting its role', async () => {
    const client = await pools.reader.connect();
    try {
      await client.query('RESET ROLE');
      await client.query('SET default_transaction_read_only = off');
      for (const statement of [
        `INSERT INTO scheduler_intents (lease, disabled, by, reason, at) VALUES ('x', true, 'a', 'b', now())`,
        `DELETE FROM leases`,
        `TRUNCATE intent_audit`,
      ]) {
        await expect(client.query(statement), statement).rejects.toMatchObject({ code: INSUFFICIENT_PRIVILEGE });
      }
      await expect(client.query('SELECT * FROM operator_sessions')).rejects.toMatchObject({ code: INSUFFICIENT_PRIVILEGE });
    } finally {
      client.release();
    }
  });

  it('every login may ask what protects the authority (the definer function, aggregates only); a role that is none of them may not', async () => {
    for (const kind of ['reader', 'scheduler', 'operator'] as const) {
      const { rows } = await pools[kind].query<{ in_recovery: boolean; hidden_standbys: number }>(
        'SELECT in_recovery, hidden_standbys FROM leaseboard_replication_state()',
      );
      expect(rows, kind).toEqual([{ in_recovery: false, hidden_standbys: 0 }]);
    }
    const outsider = `lb_outsider_${Math.random().toString(36).slice(2, 8)}`;
    await admin.query(`CREATE ROLE ${outsider} NOLOGIN`);
    const client = await admin.connect();
    try {
      await client.query(`SET ROLE ${outsider}`);
      await expect(client.query('SELECT * FROM leaseboard_replication_state()')).rejects.toMatchObject({ code: INSUFFICIENT_PRIVILEGE });
    } finally {
      await client.query('RESET ROLE');
      client.release();
      await admin.query(`DROP ROLE ${outsider}`);
    }
  });

  it('migrators of several databases at once set the roles up without tripping over each other, each with logins of its own', async () => {
    const adminUrl = inject('adminDatabaseUrl');
    const names = Array.from({ length: 3 }, (_, i) => `${databaseOf(databaseUrl())}_r${i}`);
    const control = new pg.Client({ connectionString: adminUrl });
    await control.connect();
    const urlOf = (name: string) => {
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      return url.toString();
    };
    try {
      for (const name of names) await control.query(`CREATE DATABASE ${name}`);
      await Promise.all(names.map((name) => migrateDatabase(urlOf(name))));
      const logins = await Promise.all(
        names.map(async (name) => {
          const client = new pg.Client({ connectionString: urlOf(name) });
          await client.connect();
          try {
            return await ensureLoginRoles(client, urlOf(name));
          } finally {
            await client.end();
          }
        }),
      );
      expect(new Set(logins.map((login) => new URL(login.scheduler).username)).size).toBe(names.length);
      for (const login of logins) {
        const pool = createPool(login.scheduler, { max: 1 });
        try {
          await expect(pool.query('SELECT count(*) FROM leases')).resolves.toBeDefined();
        } finally {
          await pool.end();
        }
      }
    } finally {
      for (const name of names) {
        await control.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await dropLoginRoles(control, name);
      }
      await control.end();
    }
  });
});
