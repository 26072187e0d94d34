// Asynchronous replication on a real primary and streaming standby (PostgreSQL 15 binaries of this
// machine): a takeover lost with the crashed primary never lets its epoch be granted again, stale
// holders are refused by the database and the archive, and pools follow the primary.
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '../../db/pool';
import { admin, LocalPair } from '../../db/replication/local-pair';
import { ArchiveProcess } from '../../examples/demo/archive/process';
import { LeaseAuthority, leaseTerms } from '../../lib/lease';
import { EPOCH_SPAN, generationOf } from '../../lib/status/epoch';
import { Holder } from './holders';

describe('failover with asynchronous replication', () => {
  let pair: LocalPair;
  let pool: pg.Pool;
  let archive: Awaited<ReturnType<typeof ArchiveProcess.start>>;
  const nodesUsed: (string | null)[] = [];

  beforeAll(async () => {
    [pair, archive] = await Promise.all([LocalPair.start('async'), ArchiveProcess.start()]);
    pool = createPool(pair.url, { applicationName: 'failover-test', onNodeChange: (node) => nodesUsed.push(node?.id ?? null) });
  });
  afterAll(async () => {
    await pool?.end();
    await Promise.all([pair?.stop(), archive?.process.stop()]);
  });

  it('a takeover lost at promotion never lets its epoch be granted again; the resumed stale holders are refused', async () => {
    const lease = 'failover-async';
    const [a, b, c] = [new Holder(pool, lease), new Holder(pool, lease), new Holder(pool, lease)];
    expect(await a.acquire()).toBe(1);
    expect(await a.writeDatabase()).toBe('accepted');
    expect(await a.writeArchive(archive)).toBe('accepted');
    await pair.caughtUp();

    // a pauses; b takes over — on the primary alone (the standby is cut off) — and writes both resources.
    await pair.detachStandby();
    expect(await b.acquire(true)).toBe(2);
    expect(await b.writeDatabase()).toBe('accepted');
    expect(await b.writeArchive(archive)).toBe('accepted');

    await pair.failover();
    // The promoted node never received b's grant: a's epoch is current there again.
    const seen = await new LeaseAuthority(pool).read(lease);
    expect(seen).toMatchObject({ epoch: 1, holder: a.token });
    expect(nodesUsed).toEqual(['node-1', null, 'node-2']);

    // The next grant is of the new generation: greater than b's lost epoch, never equal to it.
    const epochC = await c.acquire(true);
    expect(epochC).toBe(EPOCH_SPAN + 1);
    expect(generationOf(epochC)).toBe(1);
    expect(epochC).toBeGreaterThan(b.epoch);
    const events = await pool.query('SELECT kind, epoch::float8 AS epoch, previous_epoch::float8 AS previous FROM lease_events WHERE lease = $1 ORDER BY id', [
      lease,
    ]);
    expect(events.rows).toEqual([
      { kind: 'acquired', epoch: 1, previous: null },
      { kind: 'taken_over', epoch: EPOCH_SPAN + 1, previous: 1 },
    ]);

    // c writes; then a and b resume with the grants they hold.
    expect(await c.writeDatabase()).toBe('accepted');
    expect(await c.writeArchive(archive)).toBe('accepted');
    for (const stale of [a, b]) {
      expect(await stale.writeDatabase()).toBe('refused');
      expect(await stale.writeArchive(archive)).toBe('refused');
    }
    const refusals = await pool.query(
      'SELECT attempted_epoch::float8 AS attempted, current_epoch::float8 AS current, reason FROM stale_write_rejections WHERE lease = $1 ORDER BY id',
      [lease],
    );
    expect(refusals.rows).toEqual([
      { attempted: 1, current: epochC, reason: 'stale_epoch' },
      { attempted: 2, current: epochC, reason: 'stale_epoch' },
    ]);
  });

  it('a pool on a demoted node finds the new primary; a connection answered 25006 is dropped and never reused', async () => {
    // The crashed primary comes back as the promoted node's standby: node-1, listed first, is now read-only.
    await pair.rejoin();
    const writer = createPool(pair.url, { applicationName: 'failover-test-demoted' });
    try {
      const port = async () =>
        (
          await writer.query<{ port: number }>(
            'INSERT INTO schedulers VALUES ($1, 1, 1, 1, 1, now()) ON CONFLICT (name) DO UPDATE SET every_ms = 2 RETURNING inet_server_port() AS port',
            ['x'],
          )
        ).rows[0]!.port;
      expect(await port()).toBe(pair.primary.port);

      // The operator fences the primary read-only (its live sessions stay open) and promotes the standby.
      const fenced = pair.primary;
      await admin(fenced, async (client) => {
        await client.query('ALTER SYSTEM SET default_transaction_read_only = on');
        await client.query('SELECT pg_reload_conf()');
      });
      await pair.standby.promote();
      // The pooled connection still points at the fenced node: refused as read-only, a known failure;
      // released without an error, the pool still drops it rather than hand it out again.
      const stale = await writer.connect();
      await expect(stale.query("INSERT INTO schedulers VALUES ('y', 1, 1, 1, 1, now())")).rejects.toMatchObject({ code: '25006' });
      stale.release();
      expect(writer.totalCount).toBe(0);
      expect(await port()).toBe(pair.standby.port);
      expect(await port()).toBe(pair.standby.port);
      const grant = await new LeaseAuthority(writer).acquire(leaseTerms({ name: 'failover-demoted', ttlMs: 15_000 }), 'inst_00000000');
      expect(grant).toMatchObject({ kind: 'acquired', epoch: 2 * EPOCH_SPAN + 1 });
    } finally {
      await writer.end();
    }
  });
});
