/**
 * Step `evaluate`, write (fenced): the round's plan as statements for the
 * runtime to run as ONE fenced statement with the occurrence's cursor move.
 * The database refuses all of it when the evaluator's epoch is no longer
 * current (alert_state, alert_events and alert_delivery are fenced tables).
 *
 * Guarantees: only the statements a round needs (nothing for an empty
 * part); each row of alert_state is touched by at most one statement (the
 * plan keeps upserts, deletes and acknowledgements apart); `updated_at` and
 * `observed_at` are the fence's database time; alert_delivery keeps exactly
 * the configured targets; the health rollup gets the round's changes at the
 * fence's time and the round's minute marked observed.
 */
import { sql } from 'drizzle-orm';
import { alertDelivery, alertEvents, alertState, healthChanges, healthObservedMinutes } from '../../../db/schema';
import type { FencedStatement, FencedWrites } from '../../scheduler';
import type { RoundPlan } from './plan';

/**
 * `EXISTS` an entry of `pairs` naming the alert_state row: same rule and scheduler (NULL for service
 * rules; compared through coalesce(…, '') — no scheduler is named '' — so the planner can hash it).
 * With `sentAt`, the entry must also name the row's current send.
 */
function naming(pairs: readonly { rule: string; scheduler: string | null; sentAt?: string }[]) {
  const json = JSON.stringify(pairs);
  const sentAt = pairs.some((p) => p.sentAt !== undefined) ? sql` AND k."sentAt" = ${alertState.sentAt}` : sql``;
  return sql`EXISTS (SELECT 1 FROM jsonb_to_recordset(${json}::jsonb) AS k(rule text, scheduler text, "sentAt" timestamptz)
    WHERE k.rule = ${alertState.rule} AND coalesce(k.scheduler, '') = coalesce(${alertState.scheduler}, '')${sentAt})`;
}

export function roundStatements(w: FencedWrites, plan: RoundPlan): FencedStatement<unknown>[] {
  const statements: FencedStatement<unknown>[] = [];
  if (plan.upserts.length > 0) {
    const set = Object.fromEntries(
      (['state', 'activeAt', 'firedAt', 'keepFiringSince', 'resolvedAt', 'summary', 'sentAt', 'sentAs', 'deliveredSentAt', 'updatedAt'] as const).map((key) => [
        key,
        w.excluded(alertState[key]),
      ]),
    );
    statements.push(
      w.insert(alertState, plan.upserts, {
        same: { updatedAt: w.now },
        onConflict: { target: [alertState.rule, alertState.scheduler], action: 'update', set },
      }),
    );
  }
  if (plan.deletes.length > 0) statements.push(w.delete(alertState, naming(plan.deletes)));
  // Alertmanager accepted the row's current send: delivered.
  if (plan.delivered.length > 0) statements.push(w.update(alertState, { deliveredSentAt: sql`${alertState.sentAt}` }, naming(plan.delivered)));
  if (plan.transitions.length > 0) {
    statements.push(
      w.insert(
        alertEvents,
        plan.transitions.map((t) => ({ rule: t.rule, scheduler: t.scheduler, fromState: t.from, toState: t.to, at: t.at, mode: t.mode })),
      ),
    );
  }
  if (plan.healthChanges.length > 0) statements.push(w.insert(healthChanges, plan.healthChanges, { same: { at: w.now } }));
  statements.push(
    w.insert(healthObservedMinutes, [{}], {
      same: { minute: sql<string>`date_trunc('minute', ${w.now})` },
      onConflict: { target: [healthObservedMinutes.minute], action: 'nothing' },
    }),
  );
  const targets = plan.delivery.map((d) => d.target);
  statements.push(w.delete(alertDelivery, sql`${alertDelivery.target} NOT IN (SELECT jsonb_array_elements_text(${JSON.stringify(targets)}::jsonb))`));
  if (plan.delivery.length > 0) {
    const set = Object.fromEntries(
      (
        [
          'queueDepth',
          'inFlight',
          'consecutiveFailures',
          'lastError',
          'lastSuccessAgeMs',
          'lastFailureAgeMs',
          'nextAttemptInMs',
          'sentAlerts',
          'failedAttempts',
          'rejectedAlerts',
          'droppedAlerts',
          'observedAt',
        ] as const
      ).map((key) => [key, w.excluded(alertDelivery[key])]),
    );
    statements.push(
      w.insert(alertDelivery, plan.delivery, {
        same: { observedAt: w.now },
        onConflict: { target: [alertDelivery.target], action: 'update', set },
      }),
    );
  }
  return statements;
}
