/**
 * The process-wide status service: one lazily created pool and service per
 * process, from the validated environment (./env.ts).
 *
 * Guarantees: created on first use, never at import (so `next build` and
 * tests importing a route do not connect); kept on `globalThis` so Next's dev
 * reloads do not open a new pool per edit; the pool's statement_timeout and
 * connect timeout equal the read timeout, so a stuck store frees connections
 * on both sides, and `max` bounds them (docs/design.md, invariant 12). Two
 * read-only pools: one for the list, metrics and healthz, one for heavy
 * reads, so the list never waits behind a burst of history requests.
 * Not marked server-only itself (the dashboard server imports it for its hot
 * reads, ./http/node-routes.ts); the door for app/, ./index.ts, is.
 * `closeStatusService` ends the pool (graceful shutdown, tests); the next
 * call to `statusService` creates a fresh one.
 */
import type pg from 'pg';
import { proxyTrust } from '../http/proxies';
import { serverEnv } from './env';
import { readerPool } from './reader-pool';
import { type HeavyGate, heavyReadGate } from './http/heavy-gate';
import { StatusService } from './service';

const KEY = Symbol.for('leaseboard.statusService');
type Holder = { [KEY]?: { service: StatusService; gate: HeavyGate; pools: pg.Pool[] } };

function holder(): NonNullable<Holder[typeof KEY]> {
  const global = globalThis as Holder;
  const existing = global[KEY];
  if (existing) return existing;
  const env = serverEnv();
  const live = readerPool(env, 'leaseboard-status', env.poolMax);
  const heavy = readerPool(env, 'leaseboard-status-heavy', env.heavyPoolMax);
  const service = new StatusService({
    db: live,
    heavyDb: heavy,
    heavyConcurrency: env.heavyPoolMax,
    heavyQueueMax: env.heavyQueueMax,
    readTimeoutMs: env.readTimeoutMs,
    pollIntervalMs: env.pollIntervalMs,
    listMaxAgeMs: env.listMaxAgeMs,
    maxStandbyLagMs: env.maxStandbyLagMs,
    alertmanagerUrl: env.alertmanagerUrl,
    retention: env.retention,
  });
  const gate = heavyReadGate(proxyTrust(), { points: env.heavyReadsPer10s, durationS: 10 });
  global[KEY] = { service, gate, pools: [live, heavy] };
  return global[KEY];
}

export function statusService(): StatusService {
  return holder().service;
}

/** The per-client limit in front of detail, history and audit reads (./http/heavy-gate.ts). */
export function heavyGate(): HeavyGate {
  return holder().gate;
}

export async function closeStatusService(): Promise<void> {
  const global = globalThis as Holder;
  const existing = global[KEY];
  delete global[KEY];
  await Promise.all(existing?.pools.map((pool) => pool.end()) ?? []);
}
