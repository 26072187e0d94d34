/**
 * Where a running demo's database can be found: the demo writes the LOGIN
 * roles of its kinds of work (db/roles.ts: reader, operator, scheduler) to
 * `.data/running.json` (mode 0600) while it runs and removes it on exit, so
 * `npm run scheduler`, `npm run intent`, `leaseboard status`… can join it
 * without `DATABASE_URL` — each as the least role its command needs, never
 * as the migrator (the database's owner, a superuser in the embedded one).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { config, ConfigError } from '../config';

/** The kinds of work a command does, each with its own login (db/roles.ts ROLES). */
type LoginKind = 'reader' | 'operator' | 'scheduler';
type Logins = Record<LoginKind, string>;

const file = () => path.resolve(config().settings.dataDir ?? '.data', 'running.json');

/** Records the per-role logins; the migrator's URL is never written. */
export function writeRunningDatabase(logins: Logins): void {
  mkdirSync(path.dirname(file()), { recursive: true });
  const { reader, operator, scheduler } = logins;
  writeFileSync(file(), JSON.stringify({ logins: { reader, operator, scheduler } }), { mode: 0o600 });
}

export function clearRunningDatabase(): void {
  rmSync(file(), { force: true });
}

/** The running demo's login for `kind`, or null (no demo, or a file of an older demo that recorded one URL: ignored). */
export function runningDatabaseUrl(kind: LoginKind): string | null {
  if (!existsSync(file())) return null;
  try {
    const url = (JSON.parse(readFileSync(file(), 'utf8')) as { logins?: Partial<Logins> }).logins?.[kind];
    return typeof url === 'string' ? url : null;
  } catch {
    return null;
  }
}

/**
 * The database a scheduler command runs against: DATABASE_URL, else the running demo's scheduler login.
 * Resolving it checks every setting first (lib/config), so a mistyped LEASEBOARD_ variable stops the command, named.
 */
export function databaseUrl(fail: (message: string) => never): string {
  let url: string | null;
  try {
    url = config().settings.databaseUrl;
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
  return url ?? runningDatabaseUrl('scheduler') ?? fail('no database: set DATABASE_URL, or start `npm run demo` first');
}

/**
 * The database an operator's command acts on: LEASEBOARD_ACTIONS_DATABASE_URL (the operator actions' login, which
 * may write intents, modes, windows, tokens and their audit; nothing more), else DATABASE_URL, else the running
 * demo's operator login.
 */
export function actionsDatabaseUrl(fail: (message: string) => never): string {
  return (
    process.env.LEASEBOARD_ACTIONS_DATABASE_URL ||
    process.env.DATABASE_URL ||
    runningDatabaseUrl('operator') ||
    fail('no database: set DATABASE_URL, or start `npm run demo` first')
  );
}
