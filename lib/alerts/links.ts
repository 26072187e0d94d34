/**
 * Dashboard links carried by alerts: the scheduler page (live, or `?at=` the
 * moment an alert started firing), the runbook of a rule, the overview.
 *
 * Guarantees: pure; `externalUrl` is the dashboard's absolute base URL with
 * its base path and no trailing slash (as ./config.ts parses it); path
 * segments and query values are percent-encoded.
 * Non-guarantees: does not check that the pages exist.
 */
import type { AlertName } from './types';

export function schedulerPageUrl(externalUrl: string, scheduler: string, at?: string): string {
  const page = `${externalUrl}/schedulers/${encodeURIComponent(scheduler)}`;
  return at === undefined ? page : `${page}?at=${encodeURIComponent(at)}`;
}

export function overviewUrl(externalUrl: string): string {
  return `${externalUrl}/`;
}

/** Served at /runbooks/{alertname} from docs/runbooks/{alertname}.md. */
export function runbookUrl(externalUrl: string, rule: AlertName): string {
  return `${externalUrl}/runbooks/${rule}`;
}

/** A label value inside a matcher's double quotes: backslash and quote escaped. */
function matcherValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/**
 * Alertmanager's "new silence" form, prefilled with these matchers
 * (`{alertname="…", scheduler="…"}`): silences stay Alertmanager's job.
 */
export function silenceFormUrl(alertmanagerUrl: string, labels: Readonly<Record<string, string>>): string {
  const matchers = Object.entries(labels)
    .map(([name, value]) => `${name}="${matcherValue(value)}"`)
    .join(', ');
  return `${alertmanagerUrl}/#/silences/new?filter=${encodeURIComponent(`{${matchers}}`)}`;
}
