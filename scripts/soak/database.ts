/**
 * Where the soak's database lives: beside DATABASE_URL's (a fresh database,
 * dropped at the end: db/testing/test-database.ts), else in an embedded
 * PostgreSQL in a temporary directory.
 *
 * A server with autovacuum off is not used: deleted rows' space is then never
 * reused, so every pruned table grows on disk with flat row counts, and the
 * soak would measure the server's setting, not Leaseboard (production servers
 * run autovacuum; the migration tunes it for the pruned tables). The soak then
 * runs on an embedded PostgreSQL (autovacuum on, its default) and says why.
 */
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../../db/testing/test-database';

async function autovacuumOn(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ autovacuum: string }>('SHOW autovacuum');
    return rows[0]!.autovacuum === 'on';
  } finally {
    await client.end();
  }
}

export async function soakDatabase(log: (line: string) => void): Promise<TestDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl && !(await autovacuumOn(serverUrl))) {
    log("DATABASE_URL's server runs with autovacuum off (pruned space would never be reused): using an embedded PostgreSQL instead");
    // createTestDatabase chooses by DATABASE_URL; the children get their URL explicitly.
    delete process.env.DATABASE_URL;
  }
  return createTestDatabase(log);
}
