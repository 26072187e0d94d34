/**
 * `LEASEBOARD_*` names that are not settings, and names that were.
 *
 * - `LEASEBOARD_HARNESS_*`: switches a harness sets for the processes it
 *   starts (the test runner, CI, the demo's supervisor): never an operator's
 *   setting, so not in the schema, not in the docs' settings, and ignored by
 *   the typo check. A prefix rather than injection because they cross a
 *   process boundary (a spawned server, a Next build), where the only carrier
 *   is the environment.
 * - `LEASEBOARD_DEMO_*` and the archive's two variables: the demo example's
 *   own wiring; it moves to examples/ with the demo.
 * - Variables Leaseboard sets for processes it starts: `leaseboard run` gives
 *   its child LEASEBOARD_LEASE, LEASEBOARD_EPOCH and LEASEBOARD_OCCURRENCE (the
 *   child may itself run a leaseboard command); the dashboard server hands its
 *   Next.js bundle the peer-stamp key.
 */
export const RESERVED_PREFIXES = ['LEASEBOARD_HARNESS_', 'LEASEBOARD_DEMO_'] as const;

export const RESERVED_NAMES: ReadonlySet<string> = new Set([
  'LEASEBOARD_LEASE',
  'LEASEBOARD_EPOCH',
  'LEASEBOARD_OCCURRENCE',
  'LEASEBOARD_PEER_STAMP_KEY',
  'LEASEBOARD_ARCHIVE_URL',
  'LEASEBOARD_ARCHIVE_TOKEN',
]);

export function isReserved(variable: string): boolean {
  return RESERVED_NAMES.has(variable) || RESERVED_PREFIXES.some((prefix) => variable.startsWith(prefix));
}

/** Settings renamed when durations got units: the old name → the new one, for the typo check's message. */
export const RENAMED: ReadonlyMap<string, string> = new Map(
  [
    'READ_TIMEOUT',
    'POLL_INTERVAL',
    'LIST_MAX_AGE',
    'MAX_STANDBY_LAG',
    'SESSION_TTL',
    'ALERT_EVALUATE_EVERY',
    'ALERT_RESEND_EVERY',
    'ALERT_RESOLVED_RETENTION',
    'ALERT_STALE_WRITES_REJECTED_WINDOW',
    ...['SCHEDULER_STALLED', 'SCHEDULER_NO_LEADER', 'SCHEDULER_UNKNOWN', 'LEASE_RENEWAL_AT_RISK', 'STALE_WRITES_REJECTED', 'STATUS_STORE_UNREADABLE'].flatMap(
      (rule) => [`ALERT_${rule}_FOR`, `ALERT_${rule}_KEEP_FIRING_FOR`],
    ),
  ].map((name) => [`LEASEBOARD_${name}_MS`, `LEASEBOARD_${name}`]),
);
