// Least privilege for status reads, against the run's real database: a read
// pool acting as leaseboard_reader reads every table (the partitioned
// progress_reports included) and can write none — refused as a read-only
// transaction, and refused again by privileges if the session turns that off.
import { afterAll, describe, expect, it } from 'vitest';
import type { NodeClient } from './node-client';
import { createPool } from './pool';
import { READER_ROLE } from './reader-role';
import { databaseUrl, usePool } from './testing/pools';

describe('the status reads’ role', () => {
  const admin = usePool();
  const reader = createPool(databaseUrl(), { applicationName: 'leaseboard-test-reader', readOnly: { role: READER_ROLE }, max: 1 });
  afterAll(() => reader.end());

  it('reads as leaseboard_reader, every table including report partitions, and writes nothing', async () => {
    const { rows } = await reader.query<{ user: string; ro: string }>(`SELECT current_user AS user, current_setting('transaction_read_only') AS ro`);
    expect(rows[0]).toEqual({ user: READER_ROLE, ro: 'on' });
    const tables = await admin.query<{ name: string }>(
      // Every table but the credentials: sessions, report tokens and service tokens (never the reader's, db/roles.ts).
      `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename NOT LIKE 'progress_reports_%'
         AND tablename NOT IN ('operator_sessions', 'report_tokens', 'service_tokens')`,
    );
    for (const { name } of tables.rows) await expect(reader.query(`SELECT count(*) FROM "${name}"`)).resolves.toBeDefined();
    for (const credentials of ['operator_sessions', 'report_tokens', 'service_tokens']) {
      await expect(reader.query(`SELECT count(*) FROM ${credentials}`)).rejects.toMatchObject({ code: '42501' }); // insufficient_privilege
    }

    await expect(reader.query(`INSERT INTO scheduler_intents (lease, disabled, by, reason, at) VALUES ('x', true, 'a', 'b', now())`)).rejects.toMatchObject({
      code: '25006', // read_only_sql_transaction
    });
    const client = await reader.connect();
    try {
      await client.query('BEGIN READ WRITE');
      await expect(client.query(`DELETE FROM scheduler_intents`)).rejects.toMatchObject({ code: '42501' }); // insufficient_privilege
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });
});

// Directly connected, a session is the pool's own: its settings are SET once, at connect, and no statement carries
// them (behind a pooler they are carried by each transaction: ./pgbouncer.int.test.ts).
describe('a pool connected directly', () => {
  it('sets its settings once per session, carries none per statement, and fails loudly on a role that does not exist', async () => {
    const pool = createPool(databaseUrl(), { applicationName: 'leaseboard-test-direct', readOnly: { role: READER_ROLE }, statementTimeoutMs: 300, max: 1 });
    const missing = createPool(databaseUrl(), { applicationName: 'leaseboard-test-direct', readOnly: { role: 'leaseboard_no_such_role' }, max: 1 });
    try {
      const client = await pool.connect();
      try {
        expect((client as unknown as NodeClient).carriesSettings).toBe(false);
        const { rows } = await client.query(
          `SELECT current_user AS who, current_setting('statement_timeout') AS timeout, current_setting('DateStyle') AS style, current_setting('jit') AS jit`,
        );
        // JIT off whatever the server's default (on where PostgreSQL is built with LLVM, as Debian's is).
        expect(rows[0]).toEqual({ who: READER_ROLE, timeout: '300ms', style: 'ISO, MDY', jit: 'off' });
        await expect(client.query('SELECT pg_sleep(2)')).rejects.toMatchObject({ code: '57014' });
      } finally {
        client.release();
      }
      await expect(missing.query('SELECT 1')).rejects.toMatchObject({ code: '22023' }); // invalid_parameter_value: role does not exist
    } finally {
      await Promise.all([pool.end(), missing.end()]);
    }
  });
});
