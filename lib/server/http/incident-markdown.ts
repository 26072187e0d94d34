/**
 * An incident report as Markdown, for a postmortem or a review: a title, the
 * range and how it was read, then one bullet per line of the report, oldest
 * first, its time linking to the scheduler's page at that moment.
 *
 * Guarantees: pure; text that came from people or processes (holders,
 * resources, reasons) cannot break the list or inject links: Markdown's
 * punctuation is escaped and line breaks are folded to spaces, outside the
 * code spans the report put there itself.
 */
import type { IncidentEntry, IncidentResponse } from '../../api/types';

const KIND_LABEL: Record<IncidentEntry['kind'], string> = {
  holder: 'holder',
  lapse: 'lapse',
  release: 'release',
  health: 'health',
  stale_write: 'stale write',
  operator: 'operator',
  maintenance: 'maintenance',
  alert: 'alert',
};

/** Markdown's punctuation escaped, outside `code spans` (kept whole, their backticks balanced). */
export function escapeMarkdown(text: string): string {
  const folded = text.replace(/[\r\n]+/g, ' ');
  return folded
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/[\\*_[\]()<>#!|~`]/g, (c) => `\\${c}`)))
    .join('');
}

function duration(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  if (ms % 1000 === 0) return `${ms / 1000} s`;
  return `${ms} ms`;
}

export function incidentMarkdown(report: IncidentResponse): string {
  const lines = [
    `# Incident report: ${escapeMarkdown(report.scheduler)}`,
    '',
    `From ${report.from} to ${report.to} (UTC), read at ${report.readAt}. Health judged every ${duration(report.healthResolutionMs)}: a shorter episode can fall between two.`,
  ];
  if (report.truncated) lines.push('', '**Truncated**: a list hit its cap; the oldest of the range may be missing.');
  lines.push('');
  if (report.entries.length === 0) lines.push('Nothing happened in this range.');
  for (const e of report.entries) lines.push(`- [${e.at}](<${e.link}>) **${KIND_LABEL[e.kind]}**: ${escapeMarkdown(e.text)}`);
  return `${lines.join('\n')}\n`;
}
