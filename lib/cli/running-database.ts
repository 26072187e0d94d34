/**
 * Where a running demo's database can be found: the demo writes its URL to
 * `.data/running.json` (mode 0600) while it runs and removes it on exit, so
 * `npm run scheduler` can join it without `DATABASE_URL`.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const file = () => path.join(process.env.LEASEBOARD_DATA_DIR ?? path.join(process.cwd(), '.data'), 'running.json');

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
