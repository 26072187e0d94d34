// What the server may have done with a failed statement, judged on real node-postgres errors:
// a closed port, a proxy that accepts and closes (HAProxy with no server up), a backend killed
// mid-statement, and an error the server answered with.
import net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../db/free-port';
import { createPool } from '../../db/pool';
import { usePool } from '../../db/testing/pools';
import { statementOutcome, type StatementOutcome } from './errors';
import { fenceFor } from './fence';
import { writeFenced } from './fenced-write';

/** A listener that accepts every connection and closes it at once, as HAProxy does while no server is up. */
async function acceptAndClose(): Promise<{ port: number; close: () => Promise<void> }> {
  const server = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as net.AddressInfo).port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function errorOf(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('the statement succeeded; a failure was expected');
}

async function viaOurPool(url: string): Promise<unknown> {
  const ours = createPool(url, { connectTimeoutMs: 2_000 });
  try {
    return await errorOf(() => ours.query('SELECT 1'));
  } finally {
    await ours.end();
  }
}

describe('statementOutcome on real node-postgres errors', () => {
  const pool = usePool();
  let proxy: { port: number; close: () => Promise<void> };
  let closedPort: number;
  beforeAll(async () => {
    proxy = await acceptAndClose();
    closedPort = await freePort();
  });
  afterAll(() => proxy.close());

  const cases: { name: string; error: () => Promise<unknown>; outcome: StatementOutcome }[] = [
    { name: 'a closed port (ECONNREFUSED)', error: () => viaOurPool(`postgres://postgres@127.0.0.1:${closedPort}/x`), outcome: 'not_sent' },
    {
      name: 'a proxy that accepts and closes, through our pool',
      error: () => viaOurPool(`postgres://postgres@127.0.0.1:${proxy.port}/x`),
      outcome: 'not_sent',
    },
    {
      // The reason our client marks what it meets while connecting: pg's own words are those of a loss mid-statement.
      name: 'a proxy that accepts and closes, through a bare pg.Client (no mark)',
      error: async () => {
        const bare = new pg.Client({ host: '127.0.0.1', port: proxy.port, user: 'postgres', database: 'x' });
        bare.on('error', () => {});
        return errorOf(() => bare.connect());
      },
      outcome: 'unknown',
    },
    {
      name: 'a backend killed mid-statement',
      error: async () => {
        const victim = await pool.connect();
        try {
          const { rows } = await victim.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
          victim.on('error', () => {});
          const running = errorOf(() => victim.query('SELECT pg_sleep(30)'));
          // Kill it once the statement is running there (awaited, not slept for).
          await expect
            .poll(async () => (await pool.query('SELECT state FROM pg_stat_activity WHERE pid = $1', [rows[0]!.pid])).rows[0]?.state, { timeout: 5_000 })
            .toBe('active');
          await pool.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
          return await running;
        } finally {
          victim.release(true);
        }
      },
      outcome: 'unknown',
    },
    { name: 'an error the server answered (division by zero)', error: () => errorOf(() => pool.query('SELECT 1/0')), outcome: 'failed' },
  ];

  it.each(cases)('$name: $outcome', async ({ error, outcome }) => {
    const caught = await error();
    expect(caught).toBeInstanceOf(Error);
    expect(statementOutcome(caught)).toBe(outcome);
  });

  it('a fenced write through a proxy that accepts and closes returns not_sent (nothing written, nothing to suspect)', async () => {
    const ours = createPool(`postgres://postgres@127.0.0.1:${proxy.port}/x`, { connectTimeoutMs: 2_000 });
    try {
      const result = await writeFenced(ours, fenceFor({ name: 'never-sent', epoch: 1 }), () => []);
      expect(result.kind).toBe('not_sent');
    } finally {
      await ours.end();
    }
  });
});
