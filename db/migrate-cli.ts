// `npm run db:migrate`: apply migrations to DATABASE_URL (required here).
import { migrateDatabase } from './migrate';
import { describeDatabaseUrl } from './url';

const url = process.env.DATABASE_URL;
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
