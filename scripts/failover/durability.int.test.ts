// Durability on the dashboard, on a real primary and streaming standby (PostgreSQL 15 binaries of
// this machine; one pair for the whole file, its replication switched between cases): the status
// service, reading as leaseboard_reader, says what protects the authority — synchronous with N
// standbys, asynchronous, a single node — exports the standbys' lag in /api/metrics, says when a
// standby answered and when it falls behind (then every scheduler reads unknown), and after a
// failover shows the new generation and a timeline that reads unknown over the failover window.
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '../../db/pool';
import { READER_ROLE } from '../../db/reader-role';
import { admin, LocalPair } from '../../db/replication/local-pair';
import type { Durability } from '../../lib/api/types';
import { poll } from '../../lib/scheduler/testing/fixtures';
import { StatusService } from '../../lib/server/service';
import { EPOCH_SPAN } from '../../lib/status/epoch';
import { Holder } from './holders';

/** A standby further behind than this reads `behind` (short, so the test provokes it quickly). */
const MAX_LAG_MS = 500;

function statusOn(url: string, name: string): { pool: pg.Pool; service: StatusService } {
  const pool = createPool(url, { applicationName: name, readOnly: { role: READER_ROLE }, statementTimeoutMs: 5_000 });
  return { pool, service: new StatusService({ db: pool, readTimeoutMs: 5_000, pollIntervalMs: 1_000, log: () => {}, maxStandbyLagMs: MAX_LAG_MS }) };
}

/** The value of an unlabelled gauge in Prometheus text (NaN when absent). */
function gauge(text: string, name: string): number {
  const line = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
  return line ? Number(line[1]) : Number.NaN;
}

describe('durability on the dashboard (a primary and a streaming standby)', () => {
  let pair: LocalPair;
  let writer: pg.Pool;
  let primary: ReturnType<typeof statusOn>;

  const durability = async (service = primary.service): Promise<Durability> => (await service.list({}, { fresh: true })).durability;
  /** Polls the status until its durability matches `expected` (replication settles in its own time: a walsender leaving, a reload). */
  const settles = (expected: (d: Durability) => boolean, service = primary.service) => poll(() => durability(service), expected, 20_000);

  beforeAll(async () => {
    // Non-strict: a promoted node commits alone until a standby rejoins (Patroni's synchronous_mode), so the failover case needs no rejoin.
    pair = await LocalPair.start('sync', { strict: false });
    writer = createPool(pair.url, { applicationName: 'durability-writer' });
    primary = statusOn(pair.url, 'durability-status');
  });
  afterAll(async () => {
    await Promise.all([writer?.end(), primary?.pool.end()]);
    await pair?.stop();
  });

  it('synchronous: the reader role cannot see the standby in pg_stat_replication, yet the status says synchronous with 1 standby; lag is exported', async () => {
    // Why the definer function (migration replication_state): as leaseboard_reader, the walsender's row has every detail hidden.
    const { rows } = await primary.pool.query<{ state: string | null }>('SELECT state FROM pg_stat_replication');
    expect(rows).toEqual([{ state: null }]);

    // Settled: the standby streams and its lag is measured (PostgreSQL measures replay_lag as WAL arrives).
    expect(await settles((d) => d.lag.state === 'ok')).toMatchObject({
      mode: 'sync',
      synchronousStandbys: 1,
      asynchronousStandbys: 0,
      answeredBy: { node: 'node-1', role: 'primary' },
      generation: 0,
      reasons: [{ code: 'synchronous' }, { code: 'lag_ok' }],
    });
    await new Holder(writer, 'durability-sync').acquire(); // a commit the standby confirmed
    const detail = await primary.service.detail('durability-sync');
    expect(detail.ok && detail.value.durability).toMatchObject({ mode: 'sync', synchronousStandbys: 1 });
    const { body } = await primary.service.metrics();
    expect(body).toMatch(/^leaseboard_store_durability\{mode="sync"\} 1$/m);
    expect(body).toMatch(/^leaseboard_store_durability\{mode="single"\} 0$/m);
    expect(gauge(body, 'leaseboard_store_synchronous_standbys')).toBe(1);
    expect(gauge(body, 'leaseboard_store_standby_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(gauge(body, 'leaseboard_store_standby_lag_seconds')).toBeLessThan(MAX_LAG_MS / 1000);
    expect(gauge(body, 'leaseboard_store_standby_lag_bytes')).toBeGreaterThanOrEqual(0);
    expect(gauge(body, 'leaseboard_store_answered_by_standby')).toBe(0);
    expect(gauge(body, 'leaseboard_store_failover_generation')).toBe(0);
    expect(body).not.toContain('127.0.0.1');
  });

  it('asynchronous: with synchronous_standby_names cleared, the same standby is counted as asynchronous and what can be lost is said', async () => {
    await pair.setSynchronous(false);
    const d = await settles((x) => x.mode === 'async' && x.lag.state === 'ok');
    expect(d).toMatchObject({ synchronousStandbys: 0, asynchronousStandbys: 1, lag: { state: 'ok' } });
    expect(d.reasons[0]!.message).toMatch(/newest grants and fenced writes can be lost at a failover/);
    const { body } = await primary.service.metrics();
    expect(body).toMatch(/^leaseboard_store_durability\{mode="async"\} 1$/m);
    expect(gauge(body, 'leaseboard_store_asynchronous_standbys')).toBe(1);
    expect(gauge(body, 'leaseboard_store_standby_lag_seconds')).toBeGreaterThanOrEqual(0);
  });

  it('a standby answering says so (the mode is unknown from there); once its replay falls behind past the bound it reads behind and vouches for nothing', async () => {
    const standby = statusOn(pair.url.replace('read-write', 'standby'), 'durability-status-standby');
    try {
      const caughtUp = await settles((d) => d.lag.state === 'ok', standby.service);
      expect(caughtUp).toMatchObject({ mode: 'unknown', answeredBy: { node: 'node-2', role: 'standby' }, generation: null, lag: { ms: 0 } });
      expect(caughtUp.reasons[0]!.code).toBe('answered_by_standby');

      await admin(pair.standby, (c) => c.query('SELECT pg_wal_replay_pause()'));
      await new Holder(writer, 'durability-behind').acquire(); // received by the standby, not replayed
      const behind = await settles((d) => d.lag.state === 'behind', standby.service);
      expect(behind.lag.ms).toBeGreaterThan(MAX_LAG_MS);
      // What it read is not used: every scheduler unknown from the last good read, never its stale green.
      const list = await standby.service.list({}, { fresh: true });
      expect(list.observation.ok).toBe(false);
      expect(list.schedulers.length).toBeGreaterThan(0);
      expect(list.schedulers.every((s) => s.health === 'unknown' && s.reasons[0]!.message.startsWith('answered by a standby too far behind'))).toBe(true);
      expect(await standby.service.detail('durability-sync')).toMatchObject({ ok: false, error: { kind: 'unreadable' } });
      const { body } = await standby.service.metrics();
      expect(body).toMatch(/^leaseboard_store_durability\{mode="unknown"\} 1$/m);
      expect(gauge(body, 'leaseboard_store_answered_by_standby')).toBe(1);
      expect(gauge(body, 'leaseboard_store_standby_lag_seconds')).toBeGreaterThan(MAX_LAG_MS / 1000);
      await admin(pair.standby, (c) => c.query('SELECT pg_wal_replay_resume()'));
      await settles((d) => d.lag.state === 'ok', standby.service);
      expect((await standby.service.list({}, { fresh: true })).observation.ok).toBe(true);
    } finally {
      await admin(pair.standby, (c) => c.query('SELECT pg_wal_replay_resume()'));
      await standby.pool.end();
    }
  });

  it('a single node: no standby streaming', async () => {
    await pair.detachStandby();
    const d = await settles((x) => x.mode === 'single');
    expect(d).toMatchObject({ synchronousStandbys: 0, asynchronousStandbys: 0, lag: { state: 'none', ms: null } });
    await pair.setSynchronous(true); // the pair's own mode again (caughtUp waits for a synchronous standby)
    await pair.standby.start();
    await pair.caughtUp();
  });

  it('synchronous without a standby: commits would wait, and the status says synchronous with 0 standbys', async () => {
    await settles((x) => x.mode === 'sync' && x.synchronousStandbys === 1);
    await pair.detachStandby();
    const d = await settles((x) => x.synchronousStandbys === 0);
    expect(d).toMatchObject({ mode: 'sync', asynchronousStandbys: 0 });
    expect(d.reasons[0]!.code).toBe('synchronous_without_standby');
    await pair.standby.start();
    await pair.caughtUp();
  });

  it('an incremental read never carries facts across a failover: a takeover lost with the old primary vanishes from the list, the new grant appears', async () => {
    const lease = 'durability-incremental';
    const [a, b, c] = [new Holder(writer, lease), new Holder(writer, lease), new Holder(writer, lease)];
    expect(await a.acquire()).toBe(1);
    await pair.caughtUp();
    await pair.setSynchronous(false);
    await pair.detachStandby();
    expect(await b.acquire(true)).toBe(2); // on the old primary alone: lost at the failover
    const epochOf = async () => (await primary.service.list({ q: lease }, { fresh: true })).schedulers.find((s) => s.name === lease)?.authority.epoch;
    expect(await epochOf()).toBe(2); // the service's snapshot is now the old primary's, after b's grant

    await pair.failover(); // a non-strict pair commits alone on the promoted node
    expect(await c.acquire(true)).toBe(EPOCH_SPAN + 1); // the promoted node reuses b's transaction ids
    expect(await epochOf()).toBe(EPOCH_SPAN + 1);
    await pair.rejoin();
  });

  it('a failover: the generation rises, and the lease’s timeline reads unknown over the failover window, never green', async () => {
    const lease = 'durability-failover';
    const generation = (await durability()).generation!; // the previous case failed over once already
    const before = new Holder(writer, lease);
    expect(await before.acquire()).toBe(generation * EPOCH_SPAN + 1);
    await pair.caughtUp();
    await pair.failover(); // non-strict: the promoted node commits alone (no standby yet)
    const after = new Holder(writer, lease);
    expect(await after.acquire(true)).toBe((generation + 1) * EPOCH_SPAN + 1);

    const d = await settles((x) => x.generation === generation + 1);
    expect(d).toMatchObject({ mode: 'single', answeredBy: { node: pair.idOf(pair.primary), role: 'primary' } });
    expect(gauge((await primary.service.metrics()).body, 'leaseboard_store_failover_generation')).toBe(generation + 1);

    const history = await primary.service.history(lease);
    if (!history.ok) throw new Error(history.error.message);
    const grants = await writer.query<{ epoch: number; at: string }>(
      `SELECT epoch::float8 AS epoch, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at FROM lease_events WHERE lease = $1 ORDER BY id`,
      [lease],
    );
    const [first, second] = grants.rows;
    const window = { from: first!.at, to: second!.at, reason: 'failover' };
    expect(history.value.gaps).toContainEqual(window);
    const touching = history.value.segments.filter((s) => s.from < window.to && s.to > window.from);
    expect(touching.length).toBeGreaterThan(0);
    expect(touching.every((s) => s.health === 'unknown' && s.gap?.reason === 'failover')).toBe(true);
    expect(history.value.tenures.map((t) => t.epoch)).toEqual([generation * EPOCH_SPAN + 1, (generation + 1) * EPOCH_SPAN + 1]);
    // As of an instant, durability is not known (it is not logged): null, not the present's.
    const asOf = await primary.service.detail(lease, Date.parse(window.to));
    expect(asOf.ok && asOf.value).toMatchObject({ asOf: window.to, durability: null });
  });
});
