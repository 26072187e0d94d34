/**
 * `npm run db:schema`: regenerates db/schema.sql, the schema every migration leaves, from a freshly
 * migrated database (db/schema-dump.ts says what it holds and why it reads the catalog, not pg_dump).
 * The database is a new one on DATABASE_URL's server when set, else on an embedded server started
 * for the run (and removed after). `-- --check` writes nothing and exits 1 when the file differs.
 * db/schema.int.test.ts runs the same comparison in the integration tier.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '../db/embedded';
import { dumpFreshSchema } from '../db/schema-dump';

const SCHEMA_FILE = path.join(__dirname, '..', 'db', 'schema.sql');

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  let adminUrl = process.env.DATABASE_URL;
  let stop = async () => {};
  if (!adminUrl) {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'leaseboard-schema-'));
    const embedded = await startEmbeddedPostgres(dir);
    adminUrl = embedded.url;
    stop = async () => {
      await embedded.stop();
      await rm(dir, { recursive: true, force: true });
    };
  }
  try {
    const text = await dumpFreshSchema(adminUrl);
    const committed = await readFile(SCHEMA_FILE, 'utf8').catch(() => '');
    if (check) {
      if (text !== committed) {
        console.error('db:schema: db/schema.sql differs from what the migrations make: run `npm run db:schema` and commit it');
        process.exitCode = 1;
      } else console.log('db:schema: db/schema.sql is what the migrations make');
    } else {
      await writeFile(SCHEMA_FILE, text);
      console.log(`db:schema: ${text === committed ? 'unchanged' : 'wrote'} db/schema.sql (${text.split('\n').length - 1} lines)`);
    }
  } finally {
    await stop();
  }
}

if (require.main === module)
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? `db:schema: ${error.message}` : error);
    process.exit(1);
  });
