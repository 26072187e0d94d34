/**
 * The process-wide dependencies of operator actions: the auth config, the
 * open sessions, the service tokens, the sign-in limit and a small WRITER pool of their own (the
 * status reads' pool is read-only, so the only writes a status service makes
 * on behalf of people go through here), connected as the operator-actions
 * login when LEASEBOARD_ACTIONS_DATABASE_URL names one (db/roles.ts), else
 * DATABASE_URL.
 *
 * Guarantees: created on first use, never at import; kept on `globalThis`
 * so dev reloads reuse it; at most 2 connections, 5 s statement timeout.
 */
import 'server-only';
import { createPool } from '../../db/pool';
import { authConfig } from '../auth/config';
import { pgSessionStore } from '../auth/session-store';
import { pgServiceTokenStore } from '../auth/service-tokens';
import { serverEnv } from '../server/env';
import { config } from '../config';
import type { ActionDeps } from './http';
import { signInLimiter } from './sign-in-limit';

const KEY = Symbol.for('leaseboard.actions');
type Holder = { [KEY]?: ActionDeps };

export function actionDeps(): ActionDeps {
  const holder = globalThis as Holder;
  if (holder[KEY]) return holder[KEY];
  const writer = createPool(config().settings.actionsDatabaseUrl || serverEnv().databaseUrl, { applicationName: 'leaseboard-actions', max: 2 });
  holder[KEY] = {
    auth: authConfig(),
    sessions: pgSessionStore(writer),
    serviceTokens: pgServiceTokenStore(writer),
    signIns: signInLimiter((line) => console.warn(line)),
    writer,
    nowMs: () => Date.now(),
    basePath: serverEnv().basePath,
  };
  return holder[KEY];
}
