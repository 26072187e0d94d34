/**
 * `leaseboard-retention`: the retention pruner, a job like any other under its
 * own lease (docs/design.md "Retention"). Every `LEASEBOARD_RETENTION_EVERY`
 * (default 1 min) one occurrence runs these steps, each fenced:
 *
 *   partitions    progress_reports: partitions made ahead, whole partitions
 *                 past retention dropped (leaseboard_retention_partitions,
 *                 which checks the fence before any DDL)
 *   occurrences, occurrence-hours, lease-events, lease-event-days,
 *   renewal-gaps, rejections, health-changes, health-observed, alert-events,
 *   alert-event-days
 *                 batches of at most `LEASEBOARD_RETENTION_BATCH` rows past
 *                 retention (./victims.ts says which rows each keeps)
 *   occurrence-fold, alert-events-fold, lease-events-fold
 *                 batches of rows no live read takes any more folded into
 *                 packed rows: occurrences an hour to a row, alert
 *                 transitions and lease events a day to a row (migrations
 *                 0031, 0032, 0034)
 *
 * Guarantees
 * - Every delete and every partition drop is fenced: the database refuses a
 *   stale pruner's (LB001, logged as a rejection), so two dashboard or demo
 *   instances never prune twice, and a paused pruner that wakes up deletes
 *   nothing.
 * - Each batch is one short statement on rows nobody writes any more: no
 *   batch holds a lock a renewal or a report waits on (the partition drop
 *   waits at most 200 ms for its lock, then gives up until the next round).
 * - Cutoffs come from the database clock at each batch's read.
 * - Bounded work per round: at most MAX_BATCHES batches per step.
 * - Audit trails (intent_audit, alert_mode_audit) and fixed-size tables
 *   (leases, summaries, schedulers, intents, alert state and modes) are never
 *   touched.
 * Not guaranteed: that data is gone the moment it passes retention — a row
 * goes at the first round after, a report with its whole partition.
 */
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { parseRetentionPolicy, RetentionConfigError, type RetentionKind, type RetentionPolicy, RETENTION_KINDS } from '../../retention';
import { defineJob, fencedStep, JobDefinitionError, type Job, type ReadOnlyPool, type Step } from '../../scheduler';
import { type Cutoffs, PRUNE_RULES, type PruneRule } from './victims';

export const RETENTION_PRUNER_JOB = 'leaseboard-retention';

/** At most this many batches per step per round (5,000 rows each by default: 5 M rows a round). */
const MAX_BATCHES = 1_000;

const dialect = new PgDialect();

/** Partitions are made this far ahead: two partition widths, or four rounds, whichever is longer. */
function partitionsAheadMs(policy: RetentionPolicy): number {
  return Math.max(2 * policy.partitionWidthMs, 4 * policy.pruneEveryMs);
}

/** The cutoffs at database time `now` (pure). */
export function cutoffsAt(policy: RetentionPolicy, nowMs: number): Cutoffs {
  const before = Object.fromEntries(RETENTION_KINDS.map((kind) => [kind, new Date(nowMs - policy.keepMs[kind]).toISOString()])) as Record<
    RetentionKind,
    string
  >;
  return { before };
}

async function databaseNow(db: ReadOnlyPool): Promise<number> {
  const { rows } = await db.query<{ now: Date }>('SELECT clock_timestamp() AS now');
  return rows[0]!.now.getTime();
}

function partitionStep(policy: RetentionPolicy): Step {
  const ms = (value: number) => sql`${value}::bigint * interval '1 millisecond'`;
  return fencedStep({
    name: 'partitions',
    read: async ({ db, cursor }) => (cursor > 0 ? null : { data: await databaseNow(db), next: 1 }),
    plan: (nowMs: number) => new Date(nowMs).toISOString(),
    write: (w, now) => [
      w.call<{ created: number; dropped: number; busy: number; defaultPruned: number }>(
        'leaseboard_retention_partitions',
        [sql`${now}::timestamptz`, ms(partitionsAheadMs(policy)), ms(policy.keepMs.reports), ms(policy.partitionWidthMs), sql`${policy.batchRows}::int`],
        { resource: 'progress_reports' },
      ),
    ],
  });
}

/** A log folded into packed rows by a leaseboard_fold_* function, which checks the fence first; `foldable` is the view of what it may take now. */
interface FoldRule {
  step: string;
  foldable: string;
  fn: string;
  resource: string;
}

/**
 * Old rows no live read takes folded into packed rows, a batch per write: occurrences into hours
 * (migration 0031_occurrence_hours), alert transitions into days (migration 0032_alert_event_days),
 * lease events into days (migration 0034_lease_event_days), the health rollup into time per health by hour and day
 * (migration 0040_reliability, for the reliability reports).
 */
const FOLD_RULES: readonly FoldRule[] = [
  { step: 'occurrence-fold', foldable: 'occurrences_foldable', fn: 'leaseboard_fold_occurrences', resource: 'occurrences' },
  { step: 'alert-events-fold', foldable: 'alert_events_foldable', fn: 'leaseboard_fold_alert_events', resource: 'alert_events' },
  { step: 'lease-events-fold', foldable: 'lease_events_foldable', fn: 'leaseboard_fold_lease_events', resource: 'lease_events' },
  { step: 'health-rollup-fold', foldable: 'health_rollup_foldable', fn: 'leaseboard_fold_health_rollup', resource: 'health_changes' },
];

function foldStep(rule: FoldRule, policy: RetentionPolicy): Step {
  return fencedStep({
    name: rule.step,
    read: async ({ db, cursor }) => {
      if (cursor >= MAX_BATCHES) return null;
      const { rows } = await db.query<{ more: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${rule.foldable}) AS more`);
      return rows[0]!.more ? { data: policy.batchRows, next: cursor + 1 } : null;
    },
    plan: (batch: number) => batch,
    write: (w, batch) => [w.call<number>(rule.fn, [sql`${batch}::int`], { resource: rule.resource })],
  });
}

function pruneStep(rule: PruneRule, policy: RetentionPolicy): Step {
  return fencedStep({
    name: rule.step,
    read: async ({ db, cursor }) => {
      if (cursor >= MAX_BATCHES) return null;
      const cutoffs = cutoffsAt(policy, await databaseNow(db));
      const probe = dialect.sqlToQuery(sql`SELECT EXISTS (${rule.victims(cutoffs, 1)}) AS more`);
      const { rows } = await db.query<{ more: boolean }>(probe.sql, probe.params);
      return rows[0]!.more ? { data: cutoffs, next: cursor + 1 } : null;
    },
    plan: (cutoffs: Cutoffs) => cutoffs,
    write: (w, cutoffs) => [w.delete(rule.table, sql`ctid = ANY (ARRAY(${rule.victims(cutoffs, policy.batchRows)}))`)],
  });
}

export function retentionPrunerJob(policy: RetentionPolicy): Job {
  return defineJob({
    name: RETENTION_PRUNER_JOB,
    everyMs: policy.pruneEveryMs,
    steps: [partitionStep(policy), ...PRUNE_RULES.map((rule) => pruneStep(rule, policy)), ...FOLD_RULES.map((rule) => foldStep(rule, policy))],
  });
}

/** The job from the environment (LEASEBOARD_RETAIN_*, LEASEBOARD_PARTITION_WIDTH, LEASEBOARD_RETENTION_*); bad settings → JobDefinitionError naming the variable. */
export function retentionPrunerFromEnv(env: Readonly<Record<string, string | undefined>>): Job {
  try {
    return retentionPrunerJob(parseRetentionPolicy(env));
  } catch (error) {
    if (error instanceof RetentionConfigError) throw new JobDefinitionError(RETENTION_PRUNER_JOB, error.message);
    throw error;
  }
}
