/**
 * Test-only: one scheduler's life written through the real writers, with the
 * database times of its milestones, for the as-of and history tests.
 * progress (epoch 1) → expiry → takeover (epoch 2, a stale write of epoch 1
 * rejected, lost reports) → disabled by an operator.
 */
import type pg from 'pg';
import { forceExpire, uniqueLease } from '../../../db/testing/pools';
import { fenceFor, setIntent, writeFenced } from '../../lease';
import { completeOccurrence } from '../../scheduler/occurrences';
import { acquire, register, reporter, sleep } from './seed';

type Db = Pick<pg.Pool, 'query'>;

export async function dbNow(db: Db): Promise<number> {
  const { rows } = await db.query<{ ms: number }>('SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS ms');
  return Math.floor(rows[0]!.ms);
}

export async function writeScenario(db: pg.Pool) {
  const name = uniqueLease('life');
  await register(db, name, { stallAfterMs: 60_000, reportEveryMs: 1_000 });
  const start = await dbNow(db);
  await sleep(20);
  const g1 = await acquire(db, name, 15_000, 'A');
  const r1 = reporter(db, g1);
  await sleep(30); // a visible "no report yet" span, wider than any bucket
  await r1.report(`${name}@2026-01-01T00:00:00Z`, 1);
  await r1.report(`${name}@2026-01-01T00:00:00Z`, 2);
  await sleep(30);
  const progressingAt = await dbNow(db);
  await sleep(30);
  await forceExpire(db, name);
  await sleep(40);
  const expiredAt = await dbNow(db);
  await sleep(40);
  const g2 = await acquire(db, name, 15_000, 'B');
  const rejected = await writeFenced(db, fenceFor({ name, epoch: g1.epoch }), (w) => [completeOccurrence(w, `${name}@none`)]);
  const r2 = reporter(db, g2);
  await sleep(30); // a visible "only the previous epoch reported" span
  await r2.report(`${name}@2026-01-01T00:00:00Z`, 2);
  r2.loseReports(3);
  await r2.report(`${name}@2026-01-01T00:00:00Z`, 5);
  await sleep(30);
  const takenOverAt = await dbNow(db);
  await sleep(30);
  await setIntent(db, name, { disabled: true, by: 'sre-on-call', reason: 'maintenance window' });
  await sleep(20);
  const end = await dbNow(db);
  return { name, g1, g2, rejected, start, progressingAt, expiredAt, takenOverAt, end };
}
