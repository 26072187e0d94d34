// `npm run db:migrate`: apply migrations to DATABASE_URL (required here).
import { config, ConfigError } from '../lib/config';
import { migrateDatabase } from './migrate';
import { describeDatabaseUrl } from './url';

function databaseUrl(): string | null {
  try {
    return config().settings.databaseUrl;
  } catch (error) {
    // A mistyped LEASEBOARD_ variable or a bad value stops here too, named, before anything is written.
    if (!(error instanceof ConfigError)) throw error;
    console.error(`db:migrate: ${error.message}`);
    process.exit(2);
  }
}

const url = databaseUrl();
if (!url) {
  console.error('db:migrate: set DATABASE_URL (the demo and tests migrate their own databases)');
  process.exit(2);
}
migrateDatabase(url).then(
  () => console.log(`migrated ${describeDatabaseUrl(url)}`),
  (error: unknown) => {
    console.error(error instanceof Error ? `${error.message}: ${String((error as { cause?: unknown }).cause ?? '')}` : error);
    process.exit(1);
  },
);
