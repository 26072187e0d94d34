// statementOutcome on real failures through our pools (db/pool.ts): a refused connection, a connect that
// timed out and a proxy that accepts and closes (HAProxy with no server up) sent nothing (not_sent); a
// statement cancelled by its timeout and a session killed mid-statement may have committed (unknown).
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createPool } from '../../db/pool';
import { databaseUrl, usePool } from '../../db/testing/pools';
import pg from 'pg';
import { isUnknownOutcome, statementOutcome } from './errors';
import { fenceFor } from './fence';
import { writeFenced } from './fenced-write';

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

/** A loopback listener that accepts every connection and closes it at once, as HAProxy does while no server is up. */
async function closingServer(): Promise<{ url: string; port: number; close: () => void }> {
  const server = net.createServer((socket) => socket.destroy()).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as net.AddressInfo;
  return { url: `postgres://nobody@127.0.0.1:${port}/none`, port, close: () => server.close() };
}

describe('statementOutcome on real failures', () => {
  const admin = usePool();
  const silent = silentServer();
  const closing = closingServer();
  afterAll(async () => {
    (await silent).close();
    (await closing).close();
  });

  it('not sent: a refused connection', async () => {
    const closed = net.createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => closed.once('listening', resolve));
    const { port } = closed.address() as net.AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const error = await failureOf(`postgres://nobody@127.0.0.1:${port}/none`, { connectTimeoutMs: 1_000 });
    expect((error as { code?: string }).code).toBe('ECONNREFUSED');
    expect(statementOutcome(error)).toBe('not_sent');
    expect(isUnknownOutcome(error)).toBe(false);
  });

  it('not sent: a connect that timed out (the server never answered the startup)', async () => {
    const error = await failureOf((await silent).url, { connectTimeoutMs: 300 });
    expect(String(error)).toMatch(/timeout/i);
    expect(statementOutcome(error)).toBe('not_sent');
    expect(isUnknownOutcome(error)).toBe(false);
  });

  it('not sent: a proxy that accepts and closes — our client marks it; pg alone says the words of a loss mid-statement', async () => {
    const { url, port } = await closing;
    const error = await failureOf(url, { connectTimeoutMs: 1_000 });
    expect(statementOutcome(error)).toBe('not_sent');
    // Why the mark: a bare pg.Client reports the same close as a connection lost mid-statement.
    const bare = new pg.Client({ host: '127.0.0.1', port, user: 'nobody', database: 'none' });
    bare.on('error', () => {});
    const unmarked = await bare.connect().then(
      () => new Error('connected'),
      (e: unknown) => e,
    );
    expect(String(unmarked)).toMatch(/Connection terminated unexpectedly/);
    expect(statementOutcome(unmarked)).toBe('unknown');
  });

  it('not sent: a fenced write through a proxy that accepts and closes (nothing written, nothing to suspect)', async () => {
    const pool = createPool((await closing).url, { connectTimeoutMs: 1_000 });
    try {
      const result = await writeFenced(pool, fenceFor({ name: 'never-sent', epoch: 1 }), () => []);
      expect(result.kind).toBe('not_sent');
    } finally {
      await pool.end();
    }
  });

  it('unknown: a statement cancelled by statement_timeout', async () => {
    const error = await failureOf(databaseUrl(), { statementTimeoutMs: 100 }, 'SELECT pg_sleep(5)');
    expect((error as { code?: string }).code).toBe('57014');
    expect(statementOutcome(error)).toBe('unknown');
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
      expect(statementOutcome(await running)).toBe('unknown');
    } finally {
      await pool.end();
    }
  });
});
