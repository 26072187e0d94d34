/**
 * Alert configuration from environment-like input: rule timings within
 * server-side ceilings, conservative defaults, delivery targets and links.
 *
 * Guarantees: pure (`parseAlertConfig(env)` reads only its argument);
 * unset or empty → the default; anything else must be a duration with its
 * unit (`90s`, `2m`) within the range of the configuration schema
 * (lib/config/settings.ts, the one home of names, defaults and ranges), else
 * `AlertConfigError` names the variable and the range (never echoing a
 * URL's credentials). Values are
 * rejected, not clamped: a typo in an alert timing must stop the evaluator
 * at start, not silently page later. Relations are checked where built:
 * `resendEvery ≥ evaluateEvery`, and `StatusStoreUnreadable` fires no later
 * than `SchedulerUnknown` (so Alertmanager's inhibition is in place first).
 * Non-guarantees: does not check that the URLs answer.
 */
import { absoluteBaseUrl, parsePublicUrl, PublicUrlError } from '../api/public-url';
import { type Env, formatDuration, type SettingKey, SETTINGS, settingsOf } from '../config';
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

/** Each rule's timing settings (`Watchdog` has none: it always fires at once). */
const TIMING_SETTINGS: Readonly<Record<Exclude<AlertName, 'Watchdog'>, { forMs: SettingKey; keepFiringForMs: SettingKey }>> = {
  SchedulerStalled: { forMs: 'alertSchedulerStalledFor', keepFiringForMs: 'alertSchedulerStalledKeepFiringFor' },
  SchedulerNoLeader: { forMs: 'alertSchedulerNoLeaderFor', keepFiringForMs: 'alertSchedulerNoLeaderKeepFiringFor' },
  SchedulerUnknown: { forMs: 'alertSchedulerUnknownFor', keepFiringForMs: 'alertSchedulerUnknownKeepFiringFor' },
  LeaseRenewalAtRisk: { forMs: 'alertLeaseRenewalAtRiskFor', keepFiringForMs: 'alertLeaseRenewalAtRiskKeepFiringFor' },
  StaleWritesRejected: { forMs: 'alertStaleWritesRejectedFor', keepFiringForMs: 'alertStaleWritesRejectedKeepFiringFor' },
  StatusStoreUnreadable: { forMs: 'alertStatusStoreUnreadableFor', keepFiringForMs: 'alertStatusStoreUnreadableKeepFiringFor' },
};

const DEFAULT_EXTERNAL_URL = 'http://127.0.0.1:3000';
/** At most this many Alertmanagers. */
const MAX_ALERTMANAGERS = 10;

export class AlertConfigError extends Error {
  override readonly name = 'AlertConfigError';
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`alerts config: ${variable} ${message}`);
  }
}

/** `SchedulerStalled` → `SCHEDULER_STALLED`. */
export function screamingSnake(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
}

/** The variables of one rule's timings (`Watchdog` has none: it always fires at once). */
export function timingVariables(name: AlertName): { forMs: string; keepFiringForMs: string } | null {
  if (name === 'Watchdog') return null;
  const keys = TIMING_SETTINGS[name];
  return { forMs: SETTINGS[keys.forMs].env, keepFiringForMs: SETTINGS[keys.keepFiringForMs].env };
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

function timings(setting: ReturnType<typeof settingsOf>): Record<AlertName, RuleTiming> {
  const out = { Watchdog: { forMs: 0, keepFiringForMs: 0 } } as Record<AlertName, RuleTiming>;
  for (const [name, keys] of Object.entries(TIMING_SETTINGS)) {
    out[name as AlertName] = { forMs: setting(keys.forMs) as number, keepFiringForMs: setting(keys.keepFiringForMs) as number };
  }
  return out;
}

/** Names, defaults and ranges: lib/config/settings.ts (docs/configuration.md). */
export function parseAlertConfig(env: Env): AlertConfig {
  const setting = settingsOf(env, (variable, problem) => new AlertConfigError(variable, problem));
  const externalUrl = dashboardUrl(env);
  const evaluateEveryMs = setting('alertEvaluateEvery');
  const resendEveryMs = setting('alertResendEvery');
  if (resendEveryMs < evaluateEveryMs) {
    throw new AlertConfigError(
      'LEASEBOARD_ALERT_RESEND_EVERY',
      `(${formatDuration(resendEveryMs)}) must be ≥ LEASEBOARD_ALERT_EVALUATE_EVERY (${formatDuration(evaluateEveryMs)})`,
    );
  }
  const t = timings(setting);
  if (t.StatusStoreUnreadable.forMs > t.SchedulerUnknown.forMs) {
    const vars = timingVariables('StatusStoreUnreadable')!;
    throw new AlertConfigError(
      vars.forMs,
      `(${formatDuration(t.StatusStoreUnreadable.forMs)}) must be ≤ ${timingVariables('SchedulerUnknown')!.forMs} (${formatDuration(t.SchedulerUnknown.forMs)}): the store alert must fire first so it can inhibit the per-scheduler ones`,
    );
  }
  return Object.freeze({
    externalUrl,
    alertmanagerUrls: Object.freeze(alertmanagerUrls(env)),
    evaluateEveryMs,
    resendEveryMs,
    resolvedRetentionMs: setting('alertResolvedRetention'),
    rejectionWindowMs: setting('alertStaleWritesRejectedWindow'),
    timings: Object.freeze(t),
  });
}

/** The defaults (no environment). */
export const DEFAULT_ALERT_CONFIG: AlertConfig = parseAlertConfig({});

/** Conservative defaults (the schema's): page on confirmed trouble that lasted, hold a page through brief recoveries. */
export const DEFAULT_TIMINGS: Readonly<Record<AlertName, RuleTiming>> = DEFAULT_ALERT_CONFIG.timings;
