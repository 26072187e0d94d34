// Synchronous replication on a real primary and streaming standby (PostgreSQL 15 binaries of this
// machine): every acknowledged grant survives a crash of the primary, and a commit whose wait for the
// standby ends without the standby — cancelled, or given up by the client — is an unknown outcome.
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommitOutcomeUnknownError } from '../../db/node-client';
import { createPool } from '../../db/pool';
import { admin, LocalPair } from '../../db/replication/local-pair';
import { readReplicationState } from '../../db/replication-state';
import { fenceFor, LeaseAuthority, leaseTerms } from '../../lib/lease';
import { claimOccurrence } from '../../lib/scheduler/occurrences';
import { EPOCH_SPAN } from '../../lib/status/epoch';
import { poll } from '../../lib/scheduler/testing/fixtures';
import { Holder, TTL_MS } from './holders';

/** Backends of `application` waiting for the synchronous standby. */
async function waitingForStandby(pair: LocalPair, application: string): Promise<number[]> {
  return admin(pair.primary, async (c) => {
    const { rows } = await c.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE wait_event = 'SyncRep' AND application_name = $1`, [application]);
    return rows.map((row) => row.pid);
  });
}

describe('failover with synchronous replication', () => {
  let pair: LocalPair;
  let pool: pg.Pool;

  beforeAll(async () => {
    pair = await LocalPair.start('sync');
    pool = createPool(pair.url, { applicationName: 'failover-sync' });
  });
  afterAll(async () => {
    await pool?.end();
    await pair?.stop();
  });

  it('each node says what protects the authority: the primary its generation and synchronous standby, the standby its lag', async () => {
    await new Holder(pool, 'sync-state').acquire(); // a commit for the standby to replay (its lag is dated from the last one)
    await pair.caughtUp();
    expect(await readReplicationState(pool)).toMatchObject({
      node: 'node-1',
      role: 'primary',
      generation: 0,
      standbys: { synchronous: 1, asynchronous: 0 },
      synchronousCommit: 'on',
    });
    const standbyReads = createPool(pair.url.replace('read-write', 'standby'), { applicationName: 'failover-sync-reader', readOnly: true });
    try {
      const standby = await readReplicationState(standbyReads);
      expect(standby).toMatchObject({ node: 'node-2', role: 'standby', generation: null, caughtUp: true, standbys: null });
      expect(standby.replayLagMs).toBeGreaterThanOrEqual(0);
    } finally {
      await standbyReads.end();
    }
  });

  it('a commit wait cancelled by someone else is an unknown outcome — acquire, renew, release and a fenced write alike', async () => {
    const authority = new LeaseAuthority(pool);
    const held = new Holder(pool, 'sync-cancelled');
    await held.acquire();
    const grant = held.grant!;
    await pair.detachStandby(); // from now on every commit waits for a standby that is not there

    const operations: [string, () => Promise<{ kind: string; cause?: unknown }>][] = [
      ['acquire', () => authority.acquire(leaseTerms({ name: 'sync-cancelled-new', ttlMs: TTL_MS }), 'inst_00000001')],
      ['renew', () => authority.renew(grant)],
      ['fenced write', () => claimOccurrence(pool, fenceFor(grant), 'sync-cancelled@x', new Date())],
      ['release', () => authority.release(grant)],
    ];
    for (const [name, operation] of operations) {
      const outcome = operation();
      const [pid] = await poll(
        () => waitingForStandby(pair, 'failover-sync'),
        (pids) => pids.length === 1,
      );
      await admin(pair.primary, (c) => c.query('SELECT pg_cancel_backend($1)', [pid]));
      // PostgreSQL answers the cancelled wait with a warning and a success: committed here, not on the standby.
      expect(await outcome, name).toMatchObject({ kind: 'unknown', cause: expect.any(CommitOutcomeUnknownError) });
    }
    // Committed locally, all of it: visible on the primary, never acknowledged as done.
    const rows = await admin(
      pair.primary,
      async (c) => (await c.query(`SELECT name, released_at IS NOT NULL AS released FROM leases WHERE name LIKE 'sync-cancelled%' ORDER BY name`)).rows,
      'leaseboard',
    );
    expect(rows).toEqual([
      { name: 'sync-cancelled', released: true },
      { name: 'sync-cancelled-new', released: false },
    ]);

    await pair.standby.start();
    await pair.caughtUp();
  });

  it('statement_timeout never ends a commit wait: the client-side deadline gives up on the answer (unknown), nobody cancels', async () => {
    const impatient = createPool(pair.url, { applicationName: 'failover-sync-deadline', statementTimeoutMs: 300 });
    try {
      const held = new Holder(impatient, 'sync-deadline');
      await held.acquire();
      await pair.detachStandby();
      const started = performance.now();
      const result = await new LeaseAuthority(impatient).renew(held.grant!);
      expect(result).toMatchObject({ kind: 'unknown', cause: { message: 'Query read timeout' } });
      expect(performance.now() - started).toBeGreaterThanOrEqual(1_300); // statement_timeout (300 ms) did not end it
      // The server still waits for the standby on that renewal's behalf: nothing cancelled it.
      expect(await waitingForStandby(pair, 'failover-sync-deadline')).toHaveLength(1);
      await pair.standby.start();
      await pair.caughtUp();
    } finally {
      await impatient.end();
    }
  });

  it('every acknowledged grant survives a crash of the primary (a takeover committed on the primary alone was never acknowledged), and the next grant outranks them all', async () => {
    const acknowledged = new Map<string, { epoch: number; holder: string }>();
    for (let i = 0; i < 10; i++) {
      const lease = `sync-kept-${i}`;
      for (const force of [false, true]) {
        const holder = new Holder(pool, lease);
        acknowledged.set(lease, { epoch: await holder.acquire(force), holder: holder.token });
      }
    }
    // What the same takeover does that async replication lost (async.int.test.ts): with the standby cut off, it
    // commits on the primary alone — and is never acknowledged: the holder only ever hears "unknown".
    await pair.detachStandby();
    const impatient = createPool(pair.url, { applicationName: 'failover-sync-unacknowledged', statementTimeoutMs: 300 });
    try {
      await impatient.query(`UPDATE leases SET expires_at = clock_timestamp() - interval '1 millisecond' WHERE name = 'sync-kept-0'`).catch(() => undefined);
      const takeover = await new LeaseAuthority(impatient).acquire(leaseTerms({ name: 'sync-kept-0', ttlMs: TTL_MS }), 'inst_0000beef');
      expect(takeover.kind).toBe('unknown');
    } finally {
      await impatient.end();
    }
    await pair.failover(); // no wait for the standby to catch up: acknowledged means it has it
    await pair.rejoin(); // the promoted node waits for a standby of its own before it commits anything
    const { rows } = await pool.query<{ name: string; epoch: number; holder: string }>(
      `SELECT name, epoch::float8 AS epoch, holder FROM leases WHERE name LIKE 'sync-kept-%'`,
    );
    expect(new Map(rows.map((row) => [row.name, { epoch: row.epoch, holder: row.holder }]))).toEqual(acknowledged);
    const next = await new Holder(pool, 'sync-kept-0').acquire(true);
    expect(next).toBe(EPOCH_SPAN + 1);
    expect(next).toBeGreaterThan(Math.max(...[...acknowledged.values()].map((grant) => grant.epoch)));
  });
});
