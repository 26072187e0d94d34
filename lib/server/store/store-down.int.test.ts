// When the store cannot be read — refused (nothing listens) or silent (accepts
// and never answers) — the service answers within its read timeout with
// observation.ok=false, the last observation time, and every scheduler unknown.
import net from 'node:net';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort } from '../../../db/free-port';
import { createPool } from '../../../db/pool';
import { usePool } from '../../../db/testing/pools';
import { acquire, register, serviceOn, switchable } from '../testing/seed';
import { answersOf } from '../testing/answers';

const READ_TIMEOUT = 500;
/**
 * How late past the read timeout an answer may come: the event loop's own delay, which beside the other
 * lanes of `npm test` on two cores reaches hundreds of ms. A hanging read (a connect that never times out)
 * would take tens of seconds, so the bound still tells the two apart.
 */
const SLACK = 1_500;

function deadPool(port: number): pg.Pool {
  return createPool(`postgres://nobody:x@127.0.0.1:${port}/nothing`, {
    applicationName: 'leaseboard-test-dead',
    statementTimeoutMs: READ_TIMEOUT,
    connectTimeoutMs: READ_TIMEOUT,
    max: 2,
  });
}

async function timed<T>(work: Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work;
  return { value, ms: performance.now() - started };
}

describe('store unreadable (real PostgreSQL, then a dead endpoint)', () => {
  const pool = usePool();
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  const silent = net.createServer((socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.resume(); // read (and drop) what the client sends, so its FIN is seen; never answer
  });
  let silentPort = 0;
  const dead: pg.Pool[] = [];

  beforeAll(async () => {
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentPort = (silent.address() as net.AddressInfo).port;
    const name = `down-${Math.random().toString(36).slice(2, 8)}`;
    await register(pool, name);
    await acquire(pool, name);
  });
  afterAll(async () => {
    await Promise.all(dead.map((p) => p.end()));
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  async function expectDegraded(target: pg.Pool) {
    const db = switchable(pool);
    const service = serviceOn(db, READ_TIMEOUT);
    const before = await service.list({ limit: 500 });
    expect(before.observation.ok).toBe(true);
    expect(before.total).toBeGreaterThan(0);
    db.target = target;
    const { value: after, ms } = await timed(service.list({ limit: 500 }));
    expect(ms).toBeLessThan(READ_TIMEOUT + SLACK);
    expect(after.observation).toEqual({ ok: false, lastObservedAt: before.observedAt });
    expect(Date.parse(after.observedAt)).toBeGreaterThanOrEqual(Date.parse(before.observedAt));
    expect(after.total).toBe(before.total);
    expect(after.counts.unknown).toBe(before.total);
    for (const s of after.schedulers) {
      expect(s.health).toBe('unknown');
      expect(s.authority.state).toBe('unknown');
      expect(s.observation.gap).toMatchObject({ reason: 'store_unreadable', from: before.observedAt });
      expect(s.reasons[0]?.code).toBe('store_unreadable');
    }
    const detail = await timed(answersOf(service).detail(before.schedulers[0]!.name));
    expect(detail.ms).toBeLessThan(READ_TIMEOUT + SLACK);
    expect(detail.value).toMatchObject({ ok: false, error: { status: 503, code: 'store_unreadable' } });
    const history = await timed(answersOf(service).history(before.schedulers[0]!.name));
    expect(history.value).toMatchObject({ ok: false, error: { status: 503 } });
    const health = await service.healthz();
    expect(health).toMatchObject({ ok: false, store: { ok: false, lastObservedAt: before.observedAt } });
    db.target = pool;
    expect((await service.list()).observation.ok).toBe(true);
  }

  it('refused: a port nothing listens on', async () => {
    const p = deadPool(await freePort());
    dead.push(p);
    await expectDegraded(p);
  });

  it('silent: a server that accepts and never answers; concurrent reads share one attempt and nothing piles up', async () => {
    const p = deadPool(silentPort);
    dead.push(p);
    await expectDegraded(p);

    const db = switchable(p);
    const service = serviceOn(db, READ_TIMEOUT);
    accepted = 0;
    const { value: answers, ms } = await timed(Promise.all(Array.from({ length: 20 }, () => service.list())));
    expect(ms).toBeLessThan(READ_TIMEOUT + SLACK);
    expect(answers.every((a) => a.observation.ok === false && a.observation.lastObservedAt === null && a.schedulers.length === 0)).toBe(true);
    expect(accepted).toBeLessThanOrEqual(1);
    for (let i = 0; i < 4; i++) await service.list();
    // Every connection attempt to the silent server is given up within its read timeout: wait that long at most.
    await vi.waitFor(
      () => {
        expect(p.totalCount).toBe(0);
        expect(p.waitingCount).toBe(0);
        expect(sockets.size).toBe(0);
      },
      { timeout: READ_TIMEOUT + SLACK, interval: 20 },
    );
  });
});
