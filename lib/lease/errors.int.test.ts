// isUnknownOutcome on real failures through our pools (db/pool.ts): a refused connection and a connect
// that timed out sent nothing (known); a statement cancelled by its timeout and a session killed
// mid-statement may have committed (unknown).
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createPool } from '../../db/pool';
import { databaseUrl, usePool } from '../../db/testing/pools';
import { isUnknownOutcome } from './errors';

/** The error a one-statement query on a fresh pool at `url` fails with. */
async function failureOf(url: string, options: Parameters<typeof createPool>[1], sql = 'SELECT 1'): Promise<unknown> {
  const pool = createPool(url, options);
  try {
    await pool.query(sql);
    throw new Error('the query succeeded');
  } catch (error) {
    return error;
  } finally {
    await pool.end();
  }
}

/** A loopback listener that accepts connections and never answers (a server that hangs at startup). */
async function silentServer(): Promise<{ url: string; close: () => void }> {
  const sockets: net.Socket[] = [];
  const server = net.createServer((socket) => void sockets.push(socket)).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as net.AddressInfo;
  return { url: `postgres://nobody@127.0.0.1:${port}/none`, close: () => (sockets.forEach((s) => s.destroy()), server.close()) };
}

describe('isUnknownOutcome on real failures', () => {
  const admin = usePool();
  const silent = silentServer();
  afterAll(async () => (await silent).close());

  it('known: a refused connection', async () => {
    const closed = net.createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => closed.once('listening', resolve));
    const { port } = closed.address() as net.AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const error = await failureOf(`postgres://nobody@127.0.0.1:${port}/none`, { connectTimeoutMs: 1_000 });
    expect((error as { code?: string }).code).toBe('ECONNREFUSED');
    expect(isUnknownOutcome(error)).toBe(false);
  });

  it('known: a connect that timed out (the server never answered the startup)', async () => {
    const error = await failureOf((await silent).url, { connectTimeoutMs: 300 });
    expect(String(error)).toMatch(/timeout/i);
    expect(isUnknownOutcome(error)).toBe(false);
  });

  it('unknown: a statement cancelled by statement_timeout', async () => {
    const error = await failureOf(databaseUrl(), { statementTimeoutMs: 100 }, 'SELECT pg_sleep(5)');
    expect((error as { code?: string }).code).toBe('57014');
    expect(isUnknownOutcome(error)).toBe(true);
  });

  it('unknown: the session killed mid-statement', async () => {
    const pool = createPool(databaseUrl(), { applicationName: 'leaseboard-test-killed' });
    try {
      const running = pool.query('SELECT pg_sleep(5)').then(
        () => new Error('the statement finished'),
        (error: unknown) => error,
      );
      // The statement is running once the server shows it; then its backend is terminated.
      for (;;) {
        const { rows } = await admin.query<{ n: number }>(
          `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
            WHERE application_name = 'leaseboard-test-killed' AND datname = current_database() AND query LIKE 'SELECT pg_sleep%'`,
        );
        if (rows[0]!.n > 0) break;
      }
      expect(isUnknownOutcome(await running)).toBe(true);
    } finally {
      await pool.end();
    }
  });
});
