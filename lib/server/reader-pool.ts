/**
 * The status service's connections, one rule for every process that reads
 * (the dashboard's ./instance.ts, `leaseboard status` through ./standalone.ts):
 * the reader's login acting as the reader role, read-only, connect and
 * statements bounded by the read timeout.
 */
import type pg from 'pg';
import { createPool } from '../../db/pool';
import type { ServerEnv } from './env';

export function readerPool(env: ServerEnv, applicationName: string, max: number): pg.Pool {
  return createPool(env.readerDatabaseUrl, {
    applicationName,
    statementTimeoutMs: env.readTimeoutMs,
    connectTimeoutMs: env.readTimeoutMs,
    max,
    readOnly: { role: env.readerRole },
  });
}
