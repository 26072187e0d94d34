/**
 * Test-only seeding through the REAL writers (LeaseAuthority, appendReport,
 * setIntent, writeFenced, and the runtime's own registration,
 * lib/scheduler/registration.ts). Never imported by production code.
 */
import type pg from 'pg';
import { type Grant, LeaseAuthority, leaseTerms, newInstanceToken } from '../../lease';
import { registerScheduler } from '../../scheduler/registration';
import { appendReport } from '../../scheduler/report-store';
import { StatusService, type StatusServiceOptions } from '../service';

type Db = Pick<pg.Pool, 'query'>;

export interface RegistrationInput {
  everyMs?: number;
  reportEveryMs?: number;
  stallAfterMs?: number;
  overdueAfterMs?: number;
}

export async function register(db: Db, name: string, r: RegistrationInput = {}): Promise<void> {
  await registerScheduler(db, {
    name,
    everyMs: r.everyMs ?? 3_600_000,
    reportEveryMs: r.reportEveryMs ?? 1_000,
    stallAfterMs: r.stallAfterMs ?? 60_000,
    overdueAfterMs: r.overdueAfterMs ?? 3_600_000,
  });
}

export async function acquire(db: Db, name: string, ttlMs = 15_000, label = 'A'): Promise<Grant> {
  const holder = newInstanceToken();
  const result = await new LeaseAuthority(db).acquire(leaseTerms({ name, ttlMs: ttlMs }), holder, label);
  if (result.kind !== 'acquired') throw new Error(`seed: expected acquired, got ${result.kind}`);
  return { name, holder, epoch: result.epoch };
}

/** A reporter for one grant: consecutive seqs. */
export function reporter(db: Db, grant: Grant, reportEveryMs = 1_000) {
  let seq = 0;
  return {
    report: (occurrence: string | null, cursor: number | null) =>
      appendReport(db, { lease: grant.name, epoch: grant.epoch, seq: ++seq, occurrence, cursor, reportEveryMs }),
    loseReports: (n: number) => {
      seq += n;
    },
    /** From the next report on, this epoch reports at another cadence (each report carries its own). */
    every: (ms: number) => {
      reportEveryMs = ms;
    },
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function serviceOn(db: StatusServiceDb, readTimeoutMs = 2_000, options: Partial<StatusServiceOptions> = {}): StatusService {
  return new StatusService({ db, readTimeoutMs, pollIntervalMs: 2_000, log: () => {}, ...options });
}
type StatusServiceDb = ConstructorParameters<typeof StatusService>[0]['db'];

/** Wraps a pool and counts the statements sent through it. */
export function countingDb(db: Db): StatusServiceDb & { count: number } {
  const wrapped = {
    count: 0,
    query: (config: Parameters<StatusServiceDb['query']>[0]) => {
      wrapped.count += 1;
      return (db as StatusServiceDb).query(config);
    },
  };
  return wrapped;
}

/** A db whose target a test can switch (the real store, then a dead one). */
export function switchable(initial: StatusServiceDb): StatusServiceDb & { target: StatusServiceDb } {
  const db = { target: initial, query: (config: Parameters<StatusServiceDb['query']>[0]) => db.target.query(config) };
  return db;
}
