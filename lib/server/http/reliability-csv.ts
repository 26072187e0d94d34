/**
 * Reliability reports as CSV (RFC 4180): one row per scheduler, then, for a
 * group, a last row named `(group)` with the members' times summed. Columns:
 * name, window, from, to, accounted_ms, then `<health>_ms` and
 * `<health>_fraction` for every health in severity order (a fraction is empty
 * when nothing was accounted). Pure.
 */
import type { GroupReliabilityResponse, ReliabilityResponse, SchedulerReliability } from '../../api/types';
import { HEALTH_SEVERITY } from '../../status/health';

type Row = Pick<SchedulerReliability, 'accountedMs' | 'spentMs' | 'fractions'> & { name: string };

const HEADER = ['name', 'window', 'from', 'to', 'accounted_ms', ...HEALTH_SEVERITY.flatMap((h) => [`${h}_ms`, `${h}_fraction`])];

/** A field quoted when it holds a comma, quote or line break (a label selector can hold commas). */
function field(value: string | number | null): string {
  const text = value === null ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function line(cells: readonly (string | number | null)[]): string {
  return `${cells.map(field).join(',')}\r\n`;
}

function rows(frame: { window: string; from: string; to: string }, members: readonly Row[]): string {
  const body = members.map((m) =>
    line([m.name, frame.window, frame.from, frame.to, m.accountedMs, ...HEALTH_SEVERITY.flatMap((h) => [m.spentMs[h], m.fractions[h]])]),
  );
  return line(HEADER) + body.join('');
}

export function reliabilityCsv(report: ReliabilityResponse): string {
  return rows(report, [report.scheduler]);
}

export function groupReliabilityCsv(report: GroupReliabilityResponse): string {
  return rows(report, [...report.schedulers, { name: '(group)', ...report.total }]);
}
