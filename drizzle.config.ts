import { defineConfig } from 'drizzle-kit';

// `npm run db:generate` writes SQL migrations from db/schema.ts into
// db/migrations; they are committed and applied by db/migrate.ts.
export default defineConfig({
  dialect: 'postgresql',
  schema: './db/schema.ts',
  out: './db/migrations',
});
