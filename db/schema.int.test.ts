// db/schema.sql is what the migrations make: given a new database migrated by the product's
// migrations alone, on whichever server this tier runs (the embedded PostgreSQL 18, or
// DATABASE_URL's — CI's 15), its dump equals the committed file, byte for byte. And the dump
// refuses a kind of object it does not write, by name, rather than leaving it out.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { dumpFreshSchema, dumpSchema } from './schema-dump';

const SCHEMA_FILE = path.join(__dirname, 'schema.sql');

describe('db/schema.sql', () => {
  const adminUrl = inject('adminDatabaseUrl');

  it('is the schema the migrations make', async () => {
    const made = await dumpFreshSchema(adminUrl);
    expect(made, 'db/schema.sql differs from what the migrations make: run `npm run db:schema` and commit db/schema.sql').toBe(
      readFileSync(SCHEMA_FILE, 'utf8'),
    );
  });

  it('refuses to dump what it does not write (a type, a comment), naming it', async () => {
    const name = `leaseboard_unrendered_${process.pid}`;
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const client = new pg.Client({ connectionString: url.toString() });
    try {
      await client.connect();
      await client.query(`CREATE TYPE public.mood AS ENUM ('calm'); CREATE TABLE public.t (id int); COMMENT ON TABLE public.t IS 'why'`);
      await expect(dumpSchema(client)).rejects.toThrow(/^schema dump: public holds what this dump does not render: .*type mood.*comment on/);
    } finally {
      await client.end();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});
