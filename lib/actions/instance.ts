/**
 * The process-wide dependencies of operator actions: the auth config and a
 * small WRITER pool of their own (the status reads' pool is read-only, so the
 * only writes a status service makes on behalf of people go through here).
 *
 * Guarantees: created on first use, never at import; kept on `globalThis`
 * so dev reloads reuse it; at most 2 connections, 5 s statement timeout.
 */
import 'server-only';
import { createPool } from '../../db/pool';
import { authConfig } from '../auth/config';
import { serverEnv } from '../server/env';
import type { ActionDeps } from './http';

const KEY = Symbol.for('leaseboard.actions');
type Holder = { [KEY]?: ActionDeps };

export function actionDeps(): ActionDeps {
  const holder = globalThis as Holder;
  holder[KEY] ??= {
    auth: authConfig(),
    writer: createPool(serverEnv().databaseUrl, { applicationName: 'leaseboard-actions', max: 2 }),
    nowMs: () => Date.now(),
    basePath: serverEnv().basePath,
  };
  return holder[KEY];
}
