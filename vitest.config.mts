import { defineConfig } from 'vitest/config';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(fileURLToPath(import.meta.url));

// Three projects: `unit` is pure and fast (fake time), `int` runs against a real
// PostgreSQL (DATABASE_URL, or an embedded one started by the global setup) and
// real processes, `lint` proves the layer rules (`npm run lint` runs it).
export default defineConfig({
  resolve: { alias: { '@': root } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['lib/**/*.unit.test.ts', 'db/**/*.unit.test.ts', 'scripts/**/*.unit.test.ts', 'examples/**/*.unit.test.ts'],
          // A guard against hangs, not a speed check: `npm test` runs this tier beside the others, and
          // the property tests (1,000 random schedulers) took 5.7 s there on a loaded machine.
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          // `npm run lint` runs it: every layer rule of eslint.config.mjs refuses its probe, and the cycle check fails on a cycle.
          name: 'lint',
          include: ['scripts/**/*.lint.test.ts'],
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'int',
          include: ['lib/**/*.int.test.ts', 'db/**/*.int.test.ts', 'scripts/**/*.int.test.ts', 'examples/**/*.int.test.ts'],
          globalSetup: ['db/testing/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // Three files at a time, each worker on its own copy of the migrated database
          // (db/testing/worker-database.ts): most of this tier waits on timers and processes,
          // so a third worker shortens it even on two cores (`--only=int`: 279 s with two, about 230 s with three).
          fileParallelism: true,
          maxWorkers: 3,
        },
      },
      {
        extends: true,
        test: {
          // `npm run test:patroni`, a lane of its own in CI: a real Patroni cluster (etcd, PostgreSQL 15, HAProxy)
          // of its own, so no global database setup; its scenarios share one cluster, in order.
          name: 'patroni',
          include: ['scripts/patroni/*.patroni.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
