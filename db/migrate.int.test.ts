import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';

// Given an empty database, when three processes migrate it at once, then all
// three succeed and each migration is recorded exactly once.
describe('migrator', () => {
  const adminUrl = inject('adminDatabaseUrl');
  const name = `leaseboard_mig_${randomBytes(4).toString('hex')}`;
  const url = (() => {
    const parsed = new URL(adminUrl);
    parsed.pathname = `/${name}`;
    return parsed.toString();
  })();

  afterAll(async () => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });

  it('three processes migrating one empty database at once all succeed, schema applied once', async () => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();

    const cli = path.join(__dirname, 'migrate-cli.ts');
    const runs = await Promise.all(
      [1, 2, 3].map(
        () =>
          new Promise<{ code: number | null; output: string }>((resolve) => {
            const child = spawn(process.execPath, ['--import', 'tsx', cli], { env: { ...process.env, DATABASE_URL: url } });
            let output = '';
            child.stdout.on('data', (chunk) => (output += chunk));
            child.stderr.on('data', (chunk) => (output += chunk));
            child.on('close', (code) => resolve({ code, output }));
          }),
      ),
    );
    for (const run of runs) expect(run.code, run.output).toBe(0);

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const applied = await client.query('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations');
    const journal = (await import('./migrations/meta/_journal.json')).default as { entries: unknown[] };
    const tables = await client.query(`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public' AND tablename = 'leases'`);
    await client.end();
    expect(applied.rows[0].n).toBe(journal.entries.length);
    expect(tables.rows[0].n).toBe(1);
  });
});
