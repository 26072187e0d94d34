/**
 * How the dashboard names and colours alerts, and where their links go.
 * Pure; browser-safe.
 *
 * Guarantees: a state is never shown by colour alone (every badge has its
 * word); shadow is always said ("shadow: not delivered"); links carry the
 * base path through next/link or withBasePath at the call site.
 */
import type { AlertModeName, SchedulerAlert } from '@/lib/api/types';
import type { Tone } from './health-display';

export function alertTone(state: SchedulerAlert['state'], mode: AlertModeName): Tone {
  if (mode !== 'on') return 'muted';
  switch (state) {
    case 'firing':
      return 'bad';
    case 'pending':
      return 'warn';
    case 'resolved':
      return 'good';
    default: {
      const never: never = state;
      return never;
    }
  }
}

export const MODE_TEXT: Record<AlertModeName, string> = {
  on: 'on: delivered',
  shadow: 'shadow: shown, not delivered',
  off: 'off: not evaluated',
};

export const MODE_SOURCE_TEXT = { override: 'set for this scheduler', rule: "the rule's mode", default: 'default' } as const;

/** The scheduler page as it was at `at` (the moment an alert started firing, or went pending). */
export function schedulerAt(scheduler: string, at: string): string {
  return `/schedulers/${encodeURIComponent(scheduler)}?at=${encodeURIComponent(at)}`;
}

export function runbookPath(rule: string): string {
  return `/runbooks/${encodeURIComponent(rule)}`;
}

/** The moment an alert's link opens at: when it started firing, else when it went pending. */
export function alertMoment(alert: Pick<SchedulerAlert, 'firedAt' | 'activeAt' | 'since'>): string {
  return alert.firedAt ?? alert.activeAt ?? alert.since;
}

/** "delivered", "sending…", "resolved, delivered" — what Alertmanager has of it. */
export function deliveryText(alert: Pick<SchedulerAlert, 'delivery' | 'mode'>): string {
  if (alert.delivery === null) return alert.mode === 'on' ? 'not sent yet' : 'not delivered (shadow)';
  const what = alert.delivery.as === 'firing' ? 'firing' : 'resolved';
  return alert.delivery.delivered ? `${what}: delivered` : `${what}: sending…`;
}
