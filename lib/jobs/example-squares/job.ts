import { bigint, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { defineJob, fencedStep } from '../../scheduler';

/** A fenced table: its rows carry `lease` and `epoch`, and the database checks them. */
export const squares = pgTable(
  'squares',
  {
    occurrence: text('occurrence').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
    square: bigint('square', { mode: 'number' }).notNull(),
    lease: text('lease').notNull(),
    epoch: bigint('epoch', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.occurrence, t.n] })],
);

/** Its migration: the table, then the fence's triggers. */
export const SQUARES_MIGRATION = `
  CREATE TABLE IF NOT EXISTS squares (occurrence text NOT NULL, n bigint NOT NULL, square bigint NOT NULL,
    lease text NOT NULL, epoch bigint NOT NULL, PRIMARY KEY (occurrence, n));
  SELECT leaseboard_fence_table('squares');`;

/** Each minute: the squares of 1…1000, 100 per batch, each row written at most once per occurrence. */
export const squaresJob = defineJob({
  name: 'squares',
  everyMs: 60_000,
  steps: [
    fencedStep({
      name: 'compute',
      read: async ({ db, cursor }) => {
        const { rows } = await db.query<{ n: number }>('SELECT n FROM generate_series($1::int + 1, least($1::int + 100, 1000)) n', [cursor]);
        return rows.length === 0 ? null : { data: rows.map((row) => row.n), next: rows.at(-1)!.n };
      },
      plan: (numbers: number[]) => numbers.map((n) => ({ n, square: n * n })),
      write: (w, rows, { key }) => [
        w.insert(squares, rows, { same: { occurrence: key }, onConflict: { target: [squares.occurrence, squares.n], action: 'nothing' } }),
      ],
    }),
  ],
});
