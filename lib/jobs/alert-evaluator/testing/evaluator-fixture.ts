/**
 * The setup the alert evaluator's integration files share (evaluator-*.int.test.ts
 * beside ../): per describe, a pool, scheduler processes, documents for them to
 * plan over and a REAL Alertmanager on loopback; evaluator processes under their
 * lease with short timings; reads of what was stored and what was paged.
 *
 * Guarantees: every process and the Alertmanager a describe starts are gone
 * after it (useSchedulers, afterAll); the settings are those of one environment,
 * so every file judges the same rules with the same `for`.
 */
import type pg from 'pg';
import { afterAll, beforeAll, expect } from 'vitest';
import { databaseUrl, usePool } from '../../../../db/testing/pools';
import { startLocalAlertmanager, type LocalAlertmanager } from '../../../alerts/local/alertmanager';
import { changeAlertMode } from '../../../alerts/store/modes';
import { poll, useSchedulers } from '../../../scheduler/testing/fixtures';
import { seedDocuments } from '../../../../examples/demo/retention-planner/documents';
import { ALERT_EVALUATOR_JOB } from '../index';

export const EXTERNAL = 'http://dashboard.test/leaseboard';
/** Alert settings shared by every evaluator here (what the environment would say). */
export const ALERT_ENV = {
  LEASEBOARD_EXTERNAL_URL: EXTERNAL,
  LEASEBOARD_ALERT_EVALUATE_EVERY: '1s',
  LEASEBOARD_ALERT_RESEND_EVERY: '5s',
  LEASEBOARD_ALERT_SCHEDULER_STALLED_FOR: '2s',
  LEASEBOARD_ALERT_SCHEDULER_STALLED_KEEP_FIRING_FOR: '0s',
  LEASEBOARD_ALERT_SCHEDULER_UNKNOWN_FOR: '2s',
  LEASEBOARD_ALERT_SCHEDULER_UNKNOWN_KEEP_FIRING_FOR: '0s',
  LEASEBOARD_ALERT_STATUS_STORE_UNREADABLE_FOR: '0s',
};
/** The evaluator's own lease timings: a takeover within about 3 s. */
const EVALUATOR_FLAGS = { every: 1_000, 'batch-work': 0, ttl: 3_000, 'renew-every': 1_000, 'renew-deadline': 2_000, 'safety-margin': 500 };
export const POLL = 30_000;

/** Per describe: documents for the schedulers to plan over, and a real Alertmanager on loopback, closed after its tests. */
function useAlertEnvironment(pool: pg.Pool): { readonly am: LocalAlertmanager } {
  let am: LocalAlertmanager | null = null;
  beforeAll(async () => {
    await seedDocuments(pool, 20_000);
    const started = await startLocalAlertmanager();
    if (started.kind === 'missing') throw new Error(started.hint);
    am = started.am;
  });
  afterAll(() => am?.close());
  return {
    get am() {
      if (am === null) throw new Error('the Alertmanager has not started');
      return am;
    },
  };
}

/** Per describe: the environment above, evaluator and scheduler processes, and what the evaluator stored and paged. */
export function useEvaluatorFixture() {
  const pool = usePool();
  const spawn = useSchedulers(databaseUrl);
  const env = useAlertEnvironment(pool);

  const evaluator = (label: string) =>
    spawn(ALERT_EVALUATOR_JOB, label, EVALUATOR_FLAGS, { job: ALERT_EVALUATOR_JOB, env: { ...ALERT_ENV, ALERTMANAGER_URL: env.am.url } });
  /** A retention planner with an occurrence in flight (400 batches of 50 documents, 400 ms each). */
  const scheduler = async (name: string) => {
    const s = spawn(name, 'A');
    await s.waitFor((line) => line.event === 'occurrence_started', POLL);
    return s;
  };
  const setMode = (rule: 'SchedulerStalled' | 'SchedulerUnknown', scheduler: string, mode: 'on' | 'shadow' | 'off', reason = 'integration test') =>
    changeAlertMode(pool, { rule, scheduler, mode, by: 'tester', reason }, { mustExist: true });

  const stateOf = async (rule: string, scheduler: string) => {
    const { rows } = await pool.query<{
      state: string;
      fired_at: string | null;
      sent_at: string | null;
      sent_as: string | null;
      delivered: boolean;
      epoch: number;
    }>(
      `SELECT state, to_char(fired_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS fired_at, sent_at::text, sent_as,
              delivered_sent_at IS NOT NULL AND delivered_sent_at = sent_at AS delivered, epoch::int
       FROM alert_state WHERE rule = $1 AND scheduler = $2`,
      [rule, scheduler],
    );
    return rows[0] ?? null;
  };
  const eventsOf = async (scheduler: string) =>
    (
      await pool.query<{ rule: string; from: string; to: string; mode: string; epoch: number }>(
        'SELECT rule, from_state AS from, to_state AS to, mode, epoch::int FROM alert_events WHERE scheduler = $1 ORDER BY id',
        [scheduler],
      )
    ).rows;
  const notified = (scheduler: string, alertname: string, status: 'firing' | 'resolved') =>
    env.am.webhook.alerts().filter((a) => a.labels.scheduler === scheduler && a.labels.alertname === alertname && a.status === status);
  /** Resolves once Alertmanager's webhook has received `status` for that alert (the notifications so far). */
  const untilNotified = (scheduler: string, alertname: string, status: 'firing' | 'resolved') =>
    poll(
      async () => notified(scheduler, alertname, status),
      (alerts) => alerts.length > 0,
      POLL,
    );
  const roundsOf = (process: { lines: { event: string }[] }) => process.lines.filter((line) => line.event === 'occurrence_completed').length;
  /** Resolves once `process` has completed `n` more rounds. */
  const moreRounds = async (process: { lines: { event: string }[] }, n: number) => {
    const target = roundsOf(process) + n;
    await poll(
      async () => roundsOf(process),
      (count) => count >= target,
      POLL,
    );
  };

  /** Resolves once `name`'s SchedulerStalled fires and `process` has completed 3 more rounds, having sent and paged nothing. */
  const firingUndelivered = async (process: { lines: { event: string }[] }, name: string) => {
    await poll(
      () => stateOf('SchedulerStalled', name),
      (row) => row?.state === 'firing',
      POLL,
    );
    await moreRounds(process, 3);
    expect(await stateOf('SchedulerStalled', name)).toMatchObject({ state: 'firing', sent_at: null, sent_as: null });
    expect(notified(name, 'SchedulerStalled', 'firing')).toEqual([]);
  };

  return { pool, spawn, env, evaluator, scheduler, setMode, stateOf, eventsOf, notified, untilNotified, moreRounds, firingUndelivered };
}
