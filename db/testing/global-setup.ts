// Vitest global setup for the `int` tier: one fresh migrated database per run,
// handed to tests through `inject('databaseUrl')`.
import type { TestProject } from 'vitest/node';
import { createTestDatabase } from './test-database';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    adminDatabaseUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const database = await createTestDatabase();
  project.provide('databaseUrl', database.url);
  project.provide('adminDatabaseUrl', database.adminUrl);
  return async () => {
    await database.drop();
  };
}
