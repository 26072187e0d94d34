// Least privilege for status reads, against the run's real database: a read
// pool acting as leaseboard_reader reads every table (the partitioned
// progress_reports included) and can write none — refused as a read-only
// transaction, and refused again by privileges if the session turns that off.
import { afterAll, describe, expect, it } from 'vitest';
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
      // Every table but the credentials: sessions and report tokens (never the reader's, db/roles.ts).
      `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename NOT LIKE 'progress_reports_%'
         AND tablename NOT IN ('operator_sessions', 'report_tokens')`,
    );
    for (const { name } of tables.rows) await expect(reader.query(`SELECT count(*) FROM "${name}"`)).resolves.toBeDefined();
    for (const credentials of ['operator_sessions', 'report_tokens']) {
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
