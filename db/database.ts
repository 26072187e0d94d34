/**
 * Which database Leaseboard uses: `DATABASE_URL` when set, otherwise an
 * embedded real PostgreSQL under `.data/` (or `LEASEBOARD_DATA_DIR`). Logs one
 * line naming it — never the password.
 */
import path from 'node:path';
import { config } from '../lib/config';
import { startEmbeddedPostgres } from './embedded';
import { describeDatabaseUrl } from './url';

export interface ResolvedDatabase {
  url: string;
  kind: 'external' | 'embedded';
  stop(): Promise<void>;
  /** Ends an embedded server at once (immediate shutdown); nothing for an external one. */
  kill(): void;
}

export async function resolveDatabase(log: (line: string) => void = console.log): Promise<ResolvedDatabase> {
  const { databaseUrl: external, dataDir } = config().settings;
  if (external) {
    log(`database: DATABASE_URL ${describeDatabaseUrl(external)}`);
    return { url: external, kind: 'external', stop: async () => {}, kill: () => {} };
  }
  const dir = path.resolve(dataDir ?? '.data');
  const started = Date.now();
  const embedded = await startEmbeddedPostgres(dir, log);
  log(
    `database: embedded PostgreSQL ${describeDatabaseUrl(embedded.url)} (data in ${path.relative(process.cwd(), embedded.dir) || '.'}, started in ${Date.now() - started} ms)`,
  );
  return { url: embedded.url, kind: 'embedded', stop: embedded.stop, kill: embedded.kill };
}
