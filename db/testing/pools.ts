// Test-side helpers: pools on this worker's database (./worker-database.ts) that are closed after each file.
import type pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { createPool, type PoolOptions } from '../pool';
import { workerDatabaseUrl } from './worker-database';

/** This worker's database: a migrated copy no other worker writes. Child processes a test starts get this URL. */
export function databaseUrl(): string {
  return workerDatabaseUrl(inject('databaseUrl'), inject('workerDatabases'));
}

/** A pool on this worker's database, ended after the file's tests. */
export function usePool(options: PoolOptions = {}): pg.Pool {
  const pool = createPool(databaseUrl(), { applicationName: 'leaseboard-test', ...options });
  afterAll(() => pool.end());
  return pool;
}

/** One connection of `pool` held for the file's tests (statements that must share a backend or a session setting); `.db` once they run. */
export function useConnection(pool: pg.Pool): { readonly db: pg.PoolClient } {
  const held = {} as { db: pg.PoolClient };
  beforeAll(async () => {
    held.db = await pool.connect();
  });
  afterAll(() => held.db.release());
  return held;
}

/** Microseconds since the Unix epoch as an ISO string PostgreSQL reads exactly (a JS Date holds only milliseconds). */
export function isoUs(us: number): string {
  const ms = Math.floor(us / 1000);
  return new Date(ms).toISOString().replace('Z', String(us - ms * 1000).padStart(3, '0') + 'Z');
}

/** A lease name unique to this test, so tests never see each other's rows. */
export function uniqueLease(prefix = 'test'): string {
  return `${prefix}-${Math.random().toString(36).slice(2, 10)}`;
}

/** Test-only: make the lease expired now, as if its holder had paused past its ttl. */
export async function forceExpire(db: Pick<pg.Pool, 'query'>, lease: string): Promise<void> {
  await db.query(`UPDATE leases SET expires_at = clock_timestamp() - interval '1 millisecond' WHERE name = $1`, [lease]);
}
