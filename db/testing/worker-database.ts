/**
 * One database per vitest worker, so integration files run three at a time and
 * never see each other's rows. The global setup migrates one template
 * database and copies it once per worker (`<template>_w<N>`, N the worker's
 * VITEST_POOL_ID, 1…maxWorkers) on the same server — DATABASE_URL's or the
 * embedded one. A test reaches its worker's copy through `databaseUrl()`
 * (./pools.ts); child processes it starts get that URL from the test.
 *
 * Guarantees: every copy exists before the first file runs (a copy from a
 * template needs the template idle, so none is made while tests run);
 * `dropWorkerDatabases` removes every copy.
 * Not guaranteed: isolation of cluster-wide objects (roles, `ALTER SYSTEM`
 * settings, advisory locks as seen in pg_locks without a database filter) —
 * tests that touch them name their own or filter by database.
 */
import pg from 'pg';

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

function databaseName(url: string): string {
  return decodeURIComponent(new URL(url).pathname.slice(1));
}

function workerDatabaseName(template: string, poolId: number): string {
  return `${template}_w${poolId}`;
}

/** The calling worker's id (1…maxWorkers), from VITEST_POOL_ID; 1 outside a pool. */
function currentPoolId(): number {
  const id = Number(process.env.VITEST_POOL_ID ?? '1');
  if (!Number.isInteger(id) || id < 1) throw new Error(`worker database: VITEST_POOL_ID is ${JSON.stringify(process.env.VITEST_POOL_ID)}`);
  return id;
}

/** The URL of the calling worker's copy of the template at `templateUrl`. */
export function workerDatabaseUrl(templateUrl: string, workers: number, poolId = currentPoolId()): string {
  if (poolId > workers) throw new Error(`worker database: worker ${poolId} has no database (the global setup made ${workers})`);
  return withDatabase(templateUrl, workerDatabaseName(databaseName(templateUrl), poolId));
}

async function onServer<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Copies the (migrated, idle) template once per worker: `<template>_w1` … `<template>_w<workers>`. */
export async function createWorkerDatabases(adminUrl: string, templateUrl: string, workers: number): Promise<void> {
  const template = databaseName(templateUrl);
  await onServer(adminUrl, async (client) => {
    for (let id = 1; id <= workers; id++) {
      await client.query(`CREATE DATABASE ${workerDatabaseName(template, id)} TEMPLATE ${template}`);
    }
  });
}

export async function dropWorkerDatabases(adminUrl: string, templateUrl: string, workers: number): Promise<void> {
  const template = databaseName(templateUrl);
  await onServer(adminUrl, async (client) => {
    for (let id = 1; id <= workers; id++) {
      await client.query(`DROP DATABASE IF EXISTS ${workerDatabaseName(template, id)} WITH (FORCE)`).catch(() => {});
    }
  });
}
