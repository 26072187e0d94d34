// Vitest global setup for the `int` tier: one fresh migrated database per run
// (the template), copied once per worker (./worker-database.ts). Tests reach
// their worker's copy through `databaseUrl()` (./pools.ts); `inject('databaseUrl')`
// still names the template, for the few that need a database no worker writes.
// Child processes (schedulers, the archive) start from bundles built here once
// (lib/child/testing/bundles.ts); the workers inherit the folder's name.
import type { TestProject } from 'vitest/node';
import { buildChildBundles, CHILD_BUNDLES_ENV } from '../../lib/child/testing/bundles';
import { createTestDatabase } from './test-database';
import { createWorkerDatabases, dropWorkerDatabases } from './worker-database';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    adminDatabaseUrl: string;
    /** How many worker copies of `databaseUrl` exist (`<name>_w1` …). */
    workerDatabases: number;
  }
}

export default async function setup(project: TestProject) {
  const workers = Math.max(1, project.config.maxWorkers || 0, project.vitest.config.maxWorkers || 0);
  const [database, bundles] = await Promise.all([createTestDatabase(), buildChildBundles()]);
  process.env[CHILD_BUNDLES_ENV] = bundles.dir;
  await createWorkerDatabases(database.adminUrl, database.url, workers);
  project.provide('databaseUrl', database.url);
  project.provide('adminDatabaseUrl', database.adminUrl);
  project.provide('workerDatabases', workers);
  return async () => {
    await dropWorkerDatabases(database.adminUrl, database.url, workers);
    await database.drop();
    await bundles.remove();
  };
}
