/**
 * `leaseboard status` as a monitoring plugin (the Nagios/Icinga convention):
 * an answer of the status API → an exit code, one summary line and
 * performance data after a `|`.
 *
 * Guarantees: pure (no I/O, no clock). Each health has one documented code
 * (`PLUGIN_CODE`): stalled and no_leader CRITICAL (2), unknown UNKNOWN (3),
 * disabled WARNING (1), idle and progressing OK (0) — the order of
 * HEALTH_SEVERITY read as Icinga's critical > unknown > warning > ok, so the
 * worst health of a fleet (or of the schedulers a selector matches) is also
 * its worst code. A store that could not be
 * read, an empty fleet or selection, an unknown name and bad usage are UNKNOWN (3): the
 * check could not judge, and missing evidence is never OK. The line is one
 * line, without `|` in its text; perfdata values without evidence are `U`.
 * Non-guarantees: the text is for people (names of at most a few schedulers
 * per health); scripts read the exit code, the perfdata or `--json`.
 */
import type { SchedulerDetailResponse, SchedulerListResponse } from '../api/types';
import { HEALTH_SEVERITY, type Health, worstHealth } from '../status';

export type PluginCode = 0 | 1 | 2 | 3;

const PLUGIN_STATE: Readonly<Record<PluginCode, string>> = { 0: 'OK', 1: 'WARNING', 2: 'CRITICAL', 3: 'UNKNOWN' };

/** The exit code for a health (see the module comment for why each). */
export function pluginCode(health: Health): PluginCode {
  switch (health) {
    case 'stalled':
    case 'no_leader':
      return 2;
    case 'unknown':
      return 3;
    case 'disabled':
      return 1;
    case 'idle':
    case 'progressing':
      return 0;
    default: {
      const never: never = health;
      return never;
    }
  }
}

export interface Check {
  code: PluginCode;
  text: string;
  /** Nagios performance data, one `label=value[UOM];warn;crit;min;max` each. */
  perfdata: string[];
}

/** `LEASEBOARD OK - text | perfdata`: the plugin's one line (no newline). */
export function renderCheck(check: Check): string {
  const text = check.text.replace(/[\r\n]+/g, ' ').replaceAll('|', '/');
  const perf = check.perfdata.length === 0 ? '' : ` | ${check.perfdata.join(' ')}`;
  return `LEASEBOARD ${PLUGIN_STATE[check.code]} - ${text}${perf}`;
}

export const unknownCheck = (text: string): Check => ({ code: 3, text, perfdata: [] });

/** Names shown per health in the fleet's line. */
const NAMES_SHOWN = 5;

/** Thresholds in the perfdata say which counts the code alarms on: `0` = alarm above zero. */
const COUNT_THRESHOLDS: Record<Health, string> = { stalled: ';;0', no_leader: ';;0', unknown: ';;', disabled: ';0;', idle: ';;', progressing: ';;' };

/**
 * The whole fleet, or the schedulers a label selector matches (`selector`, as the user wrote it):
 * from the list's counts over what it matched and its first page (worst first, for names).
 */
export function fleetCheck(list: SchedulerListResponse, lastError: string | null, selector: string | null = null): Check {
  if (!list.observation.ok) {
    const last = list.observation.lastObservedAt === null ? 'never read' : `last read ${list.observation.lastObservedAt}`;
    return unknownCheck(`status store unreadable (${lastError ?? 'unknown error'}; ${last}): every scheduler unknown`);
  }
  const counts = list.matched;
  const present = HEALTH_SEVERITY.filter((health) => counts[health] > 0);
  const total = HEALTH_SEVERITY.reduce((sum, health) => sum + counts[health], 0);
  const perfdata = [...HEALTH_SEVERITY.map((health) => `${health}=${counts[health]}${COUNT_THRESHOLDS[health]};0`), `total=${total};;;0`];
  const worst = worstHealth(present);
  if (worst === null) {
    const none = selector === null ? 'no schedulers in this database' : `no scheduler matches the selector ${JSON.stringify(selector)}`;
    return { code: 3, text: `${none}: nothing to judge`, perfdata };
  }
  const parts = present.map((health) => {
    const count = counts[health];
    if (pluginCode(health) === 0) return `${count} ${health}`;
    const names = list.schedulers.filter((s) => s.health === health).map((s) => s.name);
    const shown = names.slice(0, NAMES_SHOWN).join(', ');
    const more = count > Math.min(names.length, NAMES_SHOWN) ? ', …' : '';
    return `${count} ${health} (${shown}${more})`;
  });
  const which = selector === null ? '' : ` matching ${selector}`;
  return { code: pluginCode(worst), text: `${total} scheduler${total === 1 ? '' : 's'}${which}: ${parts.join(', ')}`, perfdata };
}

const seconds = (ms: number | null) => (ms === null ? 'U' : `${(ms / 1000).toFixed(3)}s`);

/** One scheduler, from its detail: its health, the projection's reasons, and its ages as perfdata. */
export function schedulerCheck(detail: SchedulerDetailResponse): Check {
  const { status } = detail;
  const a = status.authority;
  const w = status.work;
  const reasons = status.reasons.map((r) => r.message).join('; ');
  return {
    code: pluginCode(status.health),
    text: `${status.name} ${status.health}${reasons === '' ? '' : `: ${reasons}`}`,
    perfdata: [
      `renewal_age=${seconds(a.renewalAgeMs)};;;0`,
      `expires_in=${seconds(a.expiresInMs)}`,
      `last_report_age=${seconds(w.lastReportAgeMs)};;;0`,
      `last_advance_age=${seconds(w.lastAdvanceAgeMs)};;;0`,
      `epoch=${a.epoch ?? 'U'};;;0`,
    ],
  };
}
