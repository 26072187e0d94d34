/**
 * The report ingest's process-wide dependencies: a small pool of its own,
 * connected as the schedulers' login (LEASEBOARD_SCHEDULER_DATABASE_URL, else
 * DATABASE_URL: reports are the protocol's rows, db/roles.ts), and the
 * per-token rate limiter (LEASEBOARD_REPORTS_PER_TOKEN_PER_10S, lib/config,
 * checked at start by scripts/serve.ts), and the per-client budget of refused
 * tokens with its aggregate log (lib/http/token-refusals.ts). Created on first use, kept on `globalThis` so dev
 * reloads reuse it; at most 4 connections.
 */
import 'server-only';
import { createPool } from '../../db/pool';
import { serverEnv } from '../server/env';
import { config } from '../config';
import { proxyTrust } from '../http/proxies';
import { tokenRefusals } from '../http/token-refusals';
import { type IngestDeps, reportLimiter } from './report-route';

const KEY = Symbol.for('leaseboard.ingest');
type Holder = { [KEY]?: IngestDeps };

export function ingestDeps(): IngestDeps {
  const holder = globalThis as Holder;
  holder[KEY] ??= {
    db: createPool(config().settings.schedulerDatabaseUrl || serverEnv().databaseUrl, { applicationName: 'leaseboard-ingest', max: 4 }),
    limiter: reportLimiter(config().settings.reportsPerTokenPer10s),
    refusals: tokenRefusals('report'),
    trust: proxyTrust(),
  };
  return holder[KEY];
}
