/**
 * Alert configuration from environment-like input: rule timings within
 * server-side ceilings, conservative defaults, delivery targets and links.
 *
 * Guarantees: pure (`parseAlertConfig(env)` reads only its argument);
 * unset or empty → the default; anything else must be a plain non-negative
 * integer within the documented range, else `AlertConfigError` names the
 * variable and the range (never echoing a URL's credentials). Values are
 * rejected, not clamped: a typo in an alert timing must stop the evaluator
 * at start, not silently page later. Relations are checked where built:
 * `resendEvery ≥ evaluateEvery`, and `StatusStoreUnreadable` fires no later
 * than `SchedulerUnknown` (so Alertmanager's inhibition is in place first).
 * Non-guarantees: does not check that the URLs answer.
 */
import { absoluteBaseUrl, parsePublicUrl, PublicUrlError } from '../api/public-url';
import { ALERT_NAMES } from './catalogue';
import type { AlertName } from './types';

export interface RuleTiming {
  /** The condition must hold this long (from activation) before the alert fires; 0 fires at once. */
  forMs: number;
  /** A firing alert stays firing until its condition has been false this long; 0 resolves at once. */
  keepFiringForMs: number;
}

export interface AlertConfig {
  /** Absolute base URL of the dashboard (with its base path, no trailing slash): links in alerts. */
  externalUrl: string;
  /** Alertmanager base URLs (each gets POST {url}/api/v2/alerts); empty: nothing is delivered. */
  alertmanagerUrls: readonly string[];
  /** Evaluator cadence. */
  evaluateEveryMs: number;
  /** A firing (or resolved, within retention) alert is re-sent this often. */
  resendEveryMs: number;
  /** A resolved alert is kept, and re-sent with its endsAt, this long. */
  resolvedRetentionMs: number;
  /** `StaleWritesRejected`: a rejection this recent (or newer) counts. */
  rejectionWindowMs: number;
  timings: Readonly<Record<AlertName, RuleTiming>>;
}

const SEC = 1_000;
const MIN = 60 * SEC;
const HOUR = 60 * MIN;

/** Ceilings for every rule's `for` and `keepFiringFor`. */
export const TIMING_CEILING_MS = HOUR;

/** Conservative defaults: page on confirmed trouble that lasted, hold a page through brief recoveries. */
export const DEFAULT_TIMINGS: Readonly<Record<AlertName, RuleTiming>> = Object.freeze({
  SchedulerStalled: { forMs: 2 * MIN, keepFiringForMs: 5 * MIN },
  SchedulerNoLeader: { forMs: 2 * MIN, keepFiringForMs: 1 * MIN },
  SchedulerUnknown: { forMs: 5 * MIN, keepFiringForMs: 2 * MIN },
  LeaseRenewalAtRisk: { forMs: 1 * MIN, keepFiringForMs: 0 },
  StaleWritesRejected: { forMs: 0, keepFiringForMs: 0 },
  StatusStoreUnreadable: { forMs: 1 * MIN, keepFiringForMs: 0 },
  Watchdog: { forMs: 0, keepFiringForMs: 0 },
});

export const DEFAULT_EXTERNAL_URL = 'http://127.0.0.1:3000';
/** At most this many Alertmanagers. */
export const MAX_ALERTMANAGERS = 10;

export class AlertConfigError extends Error {
  override readonly name = 'AlertConfigError';
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`alerts config: ${variable} ${message}`);
  }
}

type Env = Readonly<Record<string, string | undefined>>;

/** `SchedulerStalled` → `SCHEDULER_STALLED`. */
export function screamingSnake(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
}

/** The variables of one rule's timings (`Watchdog` has none: it always fires at once). */
export function timingVariables(name: AlertName): { forMs: string; keepFiringForMs: string } | null {
  if (name === 'Watchdog') return null;
  const prefix = `LEASEBOARD_ALERT_${screamingSnake(name)}`;
  return { forMs: `${prefix}_FOR_MS`, keepFiringForMs: `${prefix}_KEEP_FIRING_FOR_MS` };
}

function intVar(env: Env, variable: string, fallback: number, min: number, max: number): number {
  const raw = env[variable]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new AlertConfigError(variable, `must be an integer number of milliseconds in [${min}, ${max}], got ${JSON.stringify(raw)}`);
  const value = Number(raw);
  if (value < min || value > max) throw new AlertConfigError(variable, `must be in [${min}, ${max}] ms, got ${value}`);
  return value;
}

/** An absolute http(s) base URL (lib/api/public-url.ts), as an AlertConfigError naming the variable. */
function baseUrl(variable: string, raw: string): string {
  try {
    return absoluteBaseUrl(variable, raw);
  } catch (error) {
    if (error instanceof PublicUrlError) throw new AlertConfigError(error.variable, error.problem);
    throw error;
  }
}

/** The dashboard's public URL for links (LEASEBOARD_PUBLIC_URL or a deprecated alias), else the default. */
function dashboardUrl(env: Env): string {
  try {
    return parsePublicUrl(env)?.url ?? DEFAULT_EXTERNAL_URL;
  } catch (error) {
    if (error instanceof PublicUrlError) throw new AlertConfigError(error.variable, error.problem);
    throw error;
  }
}

function alertmanagerUrls(env: Env): string[] {
  const raw = env.ALERTMANAGER_URL?.trim();
  if (!raw) return [];
  const urls = raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => baseUrl('ALERTMANAGER_URL', part));
  if (urls.length > MAX_ALERTMANAGERS) throw new AlertConfigError('ALERTMANAGER_URL', `lists ${urls.length} URLs; at most ${MAX_ALERTMANAGERS}`);
  if (new Set(urls).size !== urls.length) throw new AlertConfigError('ALERTMANAGER_URL', 'lists the same URL twice');
  return urls;
}

function timings(env: Env): Record<AlertName, RuleTiming> {
  const out = {} as Record<AlertName, RuleTiming>;
  for (const name of ALERT_NAMES) {
    const vars = timingVariables(name);
    const d = DEFAULT_TIMINGS[name];
    out[name] = vars
      ? {
          forMs: intVar(env, vars.forMs, d.forMs, 0, TIMING_CEILING_MS),
          keepFiringForMs: intVar(env, vars.keepFiringForMs, d.keepFiringForMs, 0, TIMING_CEILING_MS),
        }
      : { ...d };
  }
  return out;
}

/**
 * | variable | default | range |
 * |---|---|---|
 * | `LEASEBOARD_PUBLIC_URL` (deprecated aliases: `LEASEBOARD_EXTERNAL_URL`, `LEASEBOARD_PUBLIC_ORIGIN`) | http://127.0.0.1:3000 (the dashboard server passes the address it listens on) | absolute http(s) URL of the dashboard, with its base path |
 * | `ALERTMANAGER_URL` | none (nothing delivered) | comma-separated base URLs, at most 10 |
 * | `LEASEBOARD_ALERT_EVALUATE_EVERY_MS` | 5,000 | 1 s – 60 s |
 * | `LEASEBOARD_ALERT_RESEND_EVERY_MS` | 60,000 | 5 s – 15 min, ≥ evaluate every |
 * | `LEASEBOARD_ALERT_RESOLVED_RETENTION_MS` | 900,000 | 0 – 1 h |
 * | `LEASEBOARD_ALERT_STALE_WRITES_REJECTED_WINDOW_MS` | 900,000 | 1 min – 24 h |
 * | `LEASEBOARD_ALERT_<RULE>_FOR_MS`, `…_KEEP_FIRING_FOR_MS` | DEFAULT_TIMINGS | 0 – 1 h |
 */
export function parseAlertConfig(env: Env): AlertConfig {
  const externalUrl = dashboardUrl(env);
  const evaluateEveryMs = intVar(env, 'LEASEBOARD_ALERT_EVALUATE_EVERY_MS', 5 * SEC, SEC, MIN);
  const resendEveryMs = intVar(env, 'LEASEBOARD_ALERT_RESEND_EVERY_MS', MIN, 5 * SEC, 15 * MIN);
  if (resendEveryMs < evaluateEveryMs) {
    throw new AlertConfigError('LEASEBOARD_ALERT_RESEND_EVERY_MS', `(${resendEveryMs}) must be ≥ LEASEBOARD_ALERT_EVALUATE_EVERY_MS (${evaluateEveryMs})`);
  }
  const t = timings(env);
  if (t.StatusStoreUnreadable.forMs > t.SchedulerUnknown.forMs) {
    const vars = timingVariables('StatusStoreUnreadable')!;
    throw new AlertConfigError(
      vars.forMs,
      `(${t.StatusStoreUnreadable.forMs}) must be ≤ ${timingVariables('SchedulerUnknown')!.forMs} (${t.SchedulerUnknown.forMs}): the store alert must fire first so it can inhibit the per-scheduler ones`,
    );
  }
  return Object.freeze({
    externalUrl,
    alertmanagerUrls: Object.freeze(alertmanagerUrls(env)),
    evaluateEveryMs,
    resendEveryMs,
    resolvedRetentionMs: intVar(env, 'LEASEBOARD_ALERT_RESOLVED_RETENTION_MS', 15 * MIN, 0, HOUR),
    rejectionWindowMs: intVar(env, 'LEASEBOARD_ALERT_STALE_WRITES_REJECTED_WINDOW_MS', 15 * MIN, MIN, 24 * HOUR),
    timings: Object.freeze(t),
  });
}

/** The defaults (no environment). */
export const DEFAULT_ALERT_CONFIG: AlertConfig = parseAlertConfig({});
