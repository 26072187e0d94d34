// The demo's tables are the demo's own: given an empty database, when the product migrates it
// (`leaseboard migrate`), then it holds Leaseboard's tables and nothing else — no demo table, no demo
// schema; when the demo then migrates it, its tables appear in their own schema, fenced by the
// product's generic fence, and the product's schema is unchanged.
import { randomBytes } from 'node:crypto';
import { is } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { migrateDatabase } from '../../../db/migrate';
import * as productSchema from '../../../db/schema';
import { withDatabase } from '../../../db/testing/worker-database';
import { migrateDemo } from './migrate';
import { DEMO_SCHEMA } from './schema';

/** Every table in the database outside PostgreSQL's own schemas and drizzle's journal, partitions left out. */
async function tables(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT n.nspname || '.' || c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition
       AND n.nspname NOT IN ('pg_catalog', 'information_schema', 'drizzle') AND n.nspname NOT LIKE 'pg_toast%'
     ORDER BY 1`,
  );
  return rows.map((row) => row.name);
}

const schemaExists = async (client: pg.Client, name: string) =>
  (await client.query<{ found: boolean }>('SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1) AS found', [name])).rows[0]!.found;

describe("the product's migrate and the demo's", () => {
  const adminUrl = inject('adminDatabaseUrl');
  const name = `leaseboard_nodemo_${randomBytes(4).toString('hex')}`;
  const url = withDatabase(adminUrl, name);
  const client = new pg.Client({ connectionString: url });

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
  });

  afterAll(async () => {
    await client.end().catch(() => {});
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });

  it('a fresh database after the product migrate holds exactly the tables of db/schema.ts: no demo table, no demo schema', async () => {
    await migrateDatabase(url);
    await client.connect();
    const declared = (Object.values(productSchema) as unknown[])
      .filter((value): value is PgTable => is(value, PgTable))
      .map((table) => getTableConfig(table))
      .map((config) => `${config.schema ?? 'public'}.${config.name}`)
      .sort();
    expect(declared).not.toContain('public.documents');
    expect(declared).not.toContain('public.plan_items');
    expect(await tables(client)).toEqual(declared);
    expect(await schemaExists(client, DEMO_SCHEMA)).toBe(false);
  });

  it("the demo's migrate then creates its tables in its own schema, fenced, twice over without harm, and leaves the product's alone", async () => {
    const before = await tables(client);
    await migrateDemo(url);
    await migrateDemo(url); // the demo migrates at every start: the second finds everything applied
    const after = await tables(client);
    expect(after.filter((table) => !before.includes(table))).toEqual([`${DEMO_SCHEMA}.documents`, `${DEMO_SCHEMA}.migrations`, `${DEMO_SCHEMA}.plan_items`]);
    expect(after.filter((table) => table.startsWith('public.'))).toEqual(before.filter((table) => table.startsWith('public.')));
    const journal = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${DEMO_SCHEMA}.migrations`);
    expect(journal.rows[0]!.n).toBe(1);

    // The product's generic fence guards the demo's table: a write with no current lease is refused (LB001)
    // and a delete outside any fence too (LB002).
    await expect(
      client.query(
        `INSERT INTO ${DEMO_SCHEMA}.plan_items (occurrence, document_id, policy, lease, epoch, written_at) VALUES ('nobody@x', 1, 'short', 'nobody', 1, now())`,
      ),
    ).rejects.toMatchObject({ code: 'LB001' });
    await expect(client.query(`DELETE FROM ${DEMO_SCHEMA}.plan_items`)).rejects.toMatchObject({ code: 'LB002' });
  });
});
