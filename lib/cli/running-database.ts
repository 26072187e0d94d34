/**
 * Where a running demo's database can be found: the demo writes its URL to
 * `.data/running.json` (mode 0600) while it runs and removes it on exit, so
 * `npm run scheduler` can join it without `DATABASE_URL`.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { config, ConfigError } from '../config';

const file = () => path.resolve(config().settings.dataDir ?? '.data', 'running.json');

export function writeRunningDatabase(url: string): void {
  mkdirSync(path.dirname(file()), { recursive: true });
  writeFileSync(file(), JSON.stringify({ url }), { mode: 0o600 });
}

export function clearRunningDatabase(): void {
  rmSync(file(), { force: true });
}

export function runningDatabaseUrl(): string | null {
  if (!existsSync(file())) return null;
  try {
    return (JSON.parse(readFileSync(file(), 'utf8')) as { url?: string }).url ?? null;
  } catch {
    return null;
  }
}

/**
 * The database a command runs against: DATABASE_URL, else the running demo's. Resolving it checks
 * every setting first (lib/config), so a mistyped LEASEBOARD_ variable stops the command, named.
 */
export function databaseUrl(fail: (message: string) => never): string {
  let url: string | null;
  try {
    url = config().settings.databaseUrl;
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
  return url ?? runningDatabaseUrl() ?? fail('no database: set DATABASE_URL, or start `npm run demo` first');
}
