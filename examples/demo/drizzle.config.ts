import { defineConfig } from 'drizzle-kit';

// The demo's own migrations (`npx drizzle-kit generate --config examples/demo/drizzle.config.ts`):
// its schema `leaseboard_demo` only, applied by examples/demo/db/migrate.ts, never by the product's migrate.
export default defineConfig({
  dialect: 'postgresql',
  schema: './examples/demo/db/schema.ts',
  out: './examples/demo/db/migrations',
  schemaFilter: ['leaseboard_demo'],
  migrations: { schema: 'leaseboard_demo', table: 'migrations' },
});
