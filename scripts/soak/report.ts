/**
 * The soak's printed output: one line per sample (the time series) and the
 * verdict's table (first third against last third per table, in total, and
 * per process RSS). Pure formatting.
 */
import { RETENTION_KINDS, RETENTION_SPECS } from '../../lib/retention/policy';
import type { SoakSample } from './sample';
import type { Judgement, Verdict } from './verdict';

/** The tables a retention bounds, in the policy's order: the ones worth a column. */
const HISTORY_TABLES = [...new Set(RETENTION_KINDS.map((kind) => RETENTION_SPECS[kind].table))];

const kB = (bytes: number) => `${Math.round(bytes / 1024).toLocaleString('en-US')} kB`;
const MB = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const pad = (text: string, width: number) => text.padStart(width);

export function sampleHeader(): string {
  return [
    pad('t (s)', 6),
    pad('all tables', 11),
    ...HISTORY_TABLES.map((table) => pad(table, Math.max(table.length, 16))),
    pad('RSS sum', 9),
    pad('list', 8),
  ].join(' ');
}

/** `rows/kB` per history table: rows show the pruning, bytes the disk. */
export function sampleLine(sample: SoakSample): string {
  const total = Object.values(sample.tables).reduce((sum, table) => sum + table.bytes, 0);
  const rss = Object.values(sample.rss).reduce<number>((sum, bytes) => sum + (bytes ?? 0), 0);
  const cells = HISTORY_TABLES.map((table) => {
    const t = sample.tables[table];
    return pad(t ? `${t.rows}/${Math.round(t.bytes / 1024)}k` : '—', Math.max(table.length, 16));
  });
  return [
    pad(String(Math.round(sample.atMs / 1000)), 6),
    pad(kB(total), 11),
    ...cells,
    pad(MB(rss), 9),
    pad(`${sample.listMs.toFixed(1)}${sample.listOk ? '' : '!'} ms`, 8),
  ].join(' ');
}

function judgementLine(j: Judgement): string {
  const size = j.kind === 'rss' ? MB : j.kind === 'rows' ? (n: number) => `${Math.round(n)} rows` : kB;
  const change = Number.isFinite(j.change) ? `${j.change >= 0 ? '+' : ''}${(j.change * 100).toFixed(1)} %` : 'from 0';
  return `${j.subject.padEnd(28)} ${pad(size(j.firstPeak), 12)} ${pad(size(j.lastMean), 12)} ${pad(change, 9)}  ${j.grew ? 'GREW' : 'flat'}`;
}

export function verdictReport(verdict: Verdict): string[] {
  if (verdict.kind === 'too_short') return [`verdict: cannot judge — ${verdict.why}; run longer (--minutes) or faster (--speed)`];
  const lines = [
    `judged ${verdict.judged} samples after the horizon: peak of the first third → mean of the last third`,
    `${'subject'.padEnd(28)} ${pad('first peak', 12)} ${pad('last mean', 12)} ${pad('change', 9)}`,
    ...verdict.judgements.map(judgementLine),
  ];
  if (verdict.kind === 'flat') lines.push("verdict: flat — every table's rows and bytes, the total and every process RSS within 10 % after the horizon");
  else
    lines.push(
      `verdict: GREW — ${verdict.grew.map((j) => `${j.subject} ${Number.isFinite(j.change) ? `+${(j.change * 100).toFixed(0)} %` : 'from 0'}`).join(', ')}`,
    );
  return lines;
}

/** p50 / p99 / max of the list latencies over the whole run. */
export function latencySummary(samples: SoakSample[]): string {
  const sorted = samples.map((sample) => sample.listMs).sort((a, b) => a - b);
  if (sorted.length === 0) return 'list latency: no samples';
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return `list latency (status service in this process, fresh read each sample): p50 ${at(0.5).toFixed(1)} ms · p99 ${at(0.99).toFixed(1)} ms · max ${sorted.at(-1)!.toFixed(1)} ms over ${sorted.length} reads`;
}
