/**
 * One transaction on a pooled connection: BEGIN, the work, then COMMIT when
 * `commit(result)` says so (by default always), else ROLLBACK; a throw rolls
 * back and is rethrown. The connection always goes back to the pool.
 */
import type pg from 'pg';

export async function inTransaction<T>(
  db: Pick<pg.Pool, 'connect'>,
  work: (client: pg.PoolClient) => Promise<T>,
  commit: (result: T) => boolean = () => true,
): Promise<T> {
  const client = await db.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query(commit(result) ? 'COMMIT' : 'ROLLBACK');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
