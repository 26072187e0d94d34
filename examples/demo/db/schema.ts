/**
 * The demo's own tables, in a PostgreSQL schema of their own (`leaseboard_demo`), created by the demo's
 * own migrations (./migrations, applied by ./migrate.ts at the demo's start) — never by the product's
 * `leaseboard migrate`. The synthetic documents the retention planner scans, and the fenced plan items it
 * writes: a user's own table joins the fence the same way (a `lease` and an `epoch` column, then
 * `SELECT leaseboard_fence_table('schema.table')` in its migration; db/migrations/0004_fence_triggers.sql).
 */
import { bigint, pgSchema, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

export const DEMO_SCHEMA = 'leaseboard_demo';

export const demoSchema = pgSchema(DEMO_SCHEMA);

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'string', precision: 6 });

/** Synthetic documents the retention planner scans. Never deleted. */
export const documents = demoSchema.table('documents', {
  id: bigint('id', { mode: 'number' }).primaryKey(),
  retentionClass: text('retention_class').notNull(),
  createdAt: ts('created_at').notNull(),
});

/**
 * Fenced output of retention planning: "document D would expire under policy P".
 * Fenced (lib/lease/fence.ts): rows carry the `lease` and `epoch` that wrote them; the planner's own
 * `prune` step keeps the newest occurrences' plans (../retention-planner/prune-step.ts).
 */
export const planItems = demoSchema.table(
  'plan_items',
  {
    occurrence: text('occurrence').notNull(),
    documentId: bigint('document_id', { mode: 'number' }).notNull(),
    policy: text('policy').notNull(),
    lease: text('lease').notNull(),
    epoch: bigint('epoch', { mode: 'number' }).notNull(),
    writtenAt: ts('written_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.occurrence, t.documentId] })],
);
