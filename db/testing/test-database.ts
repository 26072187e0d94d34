/**
 * A fresh, migrated database for one test run, on a real PostgreSQL:
 * `DATABASE_URL`'s server when set (a new database beside it), otherwise an
 * embedded cluster in a temporary directory. `drop()` removes everything it
 * made, so runs never see each other's rows. Migrated by the product's
 * migrations and then the demo's (examples/demo/db): the tiers, benchmarks
 * and drills run the demo's retention planner as their workload. (What the
 * product's migrate alone makes is checked by db/migrate.int.test.ts.)
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../embedded';
import { migrateDemo } from '../../examples/demo/db/migrate';
import { migrateDatabase } from '../migrate';
import { describeDatabaseUrl } from '../url';
import { withDatabase } from './worker-database';

export interface TestDatabase {
  url: string;
  /** The server's admin URL (the database the run's database was created from). */
  adminUrl: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(log: (line: string) => void = console.log): Promise<TestDatabase> {
  let adminUrl = process.env.DATABASE_URL;
  let stopServer = async () => {};
  if (!adminUrl) {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'leaseboard-test-'));
    const embedded = await startEmbeddedPostgres(dir);
    adminUrl = embedded.url;
    stopServer = async () => {
      await embedded.stop();
      await rm(dir, { recursive: true, force: true });
    };
  }
  const name = `leaseboard_test_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = withDatabase(adminUrl, name);
  await migrateDatabase(url);
  await migrateDemo(url);
  log(`test database: ${describeDatabaseUrl(url)} (${process.env.DATABASE_URL ? 'DATABASE_URL server' : 'embedded'})`);
  const finalAdminUrl = adminUrl;
  return {
    url,
    adminUrl: finalAdminUrl,
    drop: async () => {
      const client = new pg.Client({ connectionString: finalAdminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
      await client.end();
      await stopServer();
    },
  };
}
