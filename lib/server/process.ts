/**
 * The process-wide status service: one lazily created pool and service per
 * process, from the validated environment (./env.ts).
 *
 * Guarantees: created on first use, never at import (so `next build` and
 * tests importing a route do not connect); kept on `globalThis` so Next's dev
 * reloads do not open a new pool per edit; the pool's statement_timeout and
 * connect timeout equal the read timeout, so a stuck store frees connections
 * on both sides, and `max` bounds them (invariant 12).
 * `closeStatusService` ends the pool (graceful shutdown, tests); the next
 * call to `statusService` creates a fresh one.
 */
import 'server-only';
import { createPool } from '../../db/pool';
import { serverEnv } from './env';
import { StatusService } from './service';

const KEY = Symbol.for('leaseboard.statusService');
type Holder = { [KEY]?: { service: StatusService; pool: { end(): Promise<void> } } };

export function statusService(): StatusService {
  const holder = globalThis as Holder;
  const existing = holder[KEY];
  if (existing) return existing.service;
  const env = serverEnv();
  const pool = createPool(env.readerDatabaseUrl, {
    applicationName: 'leaseboard-status',
    statementTimeoutMs: env.readTimeoutMs,
    connectTimeoutMs: env.readTimeoutMs,
    max: env.poolMax,
    readOnly: { role: env.readerRole },
  });
  const service = new StatusService({
    db: pool,
    readTimeoutMs: env.readTimeoutMs,
    pollIntervalMs: env.pollIntervalMs,
    listMaxAgeMs: env.listMaxAgeMs,
  });
  holder[KEY] = { service, pool };
  return service;
}

export async function closeStatusService(): Promise<void> {
  const holder = globalThis as Holder;
  const existing = holder[KEY];
  delete holder[KEY];
  await existing?.pool.end();
}
