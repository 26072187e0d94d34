/**
 * `leaseboard-alerts`: the alert evaluator, a job like any other under its
 * own lease (docs/design.md, "Jobs" and "Alert rules"). Every
 * `evaluateEvery` (default 5 s) one occurrence runs one round:
 *
 *   read  (read-only) statuses through the status service's projection, modes, stored alert state
 *   plan  (pure)      lib/alerts evaluateRound → records, transitions, sends
 *   write (fenced)    alert_state, alert_events, alert_delivery — refused by the database for a stale epoch
 *   committed         only then: the round's sends go to delivery (./delivery.ts), never blocking the next round
 *
 * Guarantees: with several status-service instances hosting it, exactly one
 * holds the lease and evaluates at a time (the runtime); its state writes are
 * fenced; what it delivers follows only committed rounds, under a current
 * tenure (./delivery.ts says what that means for duplicates); a slow or dead
 * Alertmanager never delays a round (each target has its own outbox and
 * backoff). Out-of-range settings stop it before it starts
 * (`JobDefinitionError`, naming the variable).
 * Not guaranteed: alerts while no instance runs it — the Watchdog stops
 * arriving, which is what the dead man's switch is for; or while the store
 * cannot be written at all (no holder can renew or write then either).
 */
import type { DeliveryOptions } from '../../alerts/delivery';
import { AlertConfigError, parseAlertConfig, type AlertConfig } from '../../alerts';
import { defineJob, fencedStep, JobDefinitionError, type Job } from '../../scheduler';
import { EvaluatorDelivery } from './delivery';
import { planRound, type RoundData } from './plan';
import { RoundReader } from './read';
import { roundStatements } from './write';

export const ALERT_EVALUATOR_JOB = 'leaseboard-alerts';

export interface AlertEvaluatorOptions {
  config: AlertConfig;
  /** Status read deadline (default 2,000 ms, as the status service's). */
  readTimeoutMs?: number;
  /** Delivery settings (backoff, timeouts); targets come from `config.alertmanagerUrls`. */
  delivery?: DeliveryOptions;
  /** One line per noteworthy event (delivery failing or recovering, the store unreadable); never URLs or secrets. */
  log?: (line: string) => void;
}

/** The evaluator job; `close()` (on the job) stops its delivery. */
export function alertEvaluatorJob(options: AlertEvaluatorOptions): Job {
  const { config } = options;
  const log = options.log ?? (() => {});
  const deliverer = new EvaluatorDelivery(config.alertmanagerUrls, { log, ...options.delivery });
  const reader = new RoundReader(deliverer, { readTimeoutMs: options.readTimeoutMs ?? 2_000, log });
  const job = defineJob({
    name: ALERT_EVALUATOR_JOB,
    everyMs: config.evaluateEveryMs,
    steps: [
      fencedStep({
        name: 'evaluate',
        read: async ({ db, cursor }) => (cursor > 0 ? null : { data: await reader.read(db), next: 1 }),
        plan: (data: RoundData) => planRound(data, config),
        write: (w, plan) => roundStatements(w, plan),
        committed: (plan, _input, tenure) => deliverer.committed(plan, tenure),
      }),
    ],
    close: () => deliverer.close(),
  });
  return job;
}

/** The job from the environment (ALERTMANAGER_URL, LEASEBOARD_ALERT_*; lib/alerts/config.ts); bad settings → JobDefinitionError. */
export function alertEvaluatorFromEnv(env: Readonly<Record<string, string | undefined>>, log?: (line: string) => void): Job {
  let config: AlertConfig;
  try {
    config = parseAlertConfig(env);
  } catch (error) {
    if (error instanceof AlertConfigError) throw new JobDefinitionError(ALERT_EVALUATOR_JOB, error.message);
    throw error;
  }
  return alertEvaluatorJob({ config, log });
}
