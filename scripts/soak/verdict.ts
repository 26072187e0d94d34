/**
 * The soak's verdict: after the horizon, are every table's rows and bytes,
 * the total and every process's RSS flat (within 10 %)? Pure: samples in, judgements out.
 *
 * The statistic: the mean of the last third of the judged samples against
 * the peak (highest sample) of the first third. Growth means the last third
 * stands, on average, above everything the first third reached. Single
 * samples or plain means would judge the teeth, not growth:
 * - progress_reports drops a whole partition at a time (up to width /
 *   horizon of its rows at once), the pruner deletes in rounds;
 * - a table's file is a high-water mark: it grows when a plan arrives before
 *   autovacuum freed the last one's space, and an index grows 8 pages at a
 *   time while its freed pages wait to be recycled (plan_items' primary key
 *   settles over minutes at speed 20, measured: 720 → 904 kB in 8 minutes,
 *   flat after), so a step can fall anywhere in a short run;
 * - a Node process's RSS rises and falls with its young generation.
 * Against the first third's peak, a step or a tooth the first third already
 * reached is not growth; a real trend still is (over the window W of a
 * steady slope, the last third's mean stands half of W's growth above the
 * first third's peak; without the pruner, measured: plan_items +60 %,
 * progress_reports +64 %, all tables +50 %).
 * Each third is cut to whole sawtooth periods (one partition width) and
 * spans at least one (else the run is too short to judge).
 *
 * Rows decide whether a table is bounded; bytes, whether its disk is. Each is
 * judged on its own:
 * - rows (exact counts) show retention at work: a table whose pruning stopped
 *   grows in rows at once (without the pruner, measured: plan_items +60 %);
 * - bytes are a high-water mark that grows in steps: PostgreSQL extends a
 *   heap by 20 pages per waiting inserter (PostgreSQL 15, up to 512 pages;
 *   16 and later, up to 64 per call), splits index pages while freed ones
 *   wait to be recycled, and creates the free-space and visibility maps
 *   (24 + 8 kB) at the first vacuum. Measured in CI on plan_items (1.6 MB,
 *   rows flat): +128 kB and +328 kB (+21 %) in one step under load. So a
 *   table's bytes grow only past 1 MB (2 MB for all tables together): more
 *   than a few contended extensions, less than a stalled vacuum's bloat.
 * Floors: 100 rows per table; 1 MB per table's bytes, 2 MB for the total;
 * 16 MB for a process's RSS, which moves by its young generation (V8's
 * semi-spaces, tens of MB) between collections. Above a floor, 10 % is
 * growth.
 */
import type { SoakSample } from './sample';

const FLAT_WITHIN = 0.1;
/** Below these changes (rows for `rows`, bytes for the rest), nothing is growth. */
const FLOORS = { rows: 100, table: 1024 * 1024, total: 2 * 1024 * 1024, rss: 16 * 1024 * 1024 } as const;
/** Fewer judged samples than this (two per third) cannot tell a trend from noise. */
const MIN_JUDGED_SAMPLES = 6;

type SubjectKind = keyof typeof FLOORS;

export interface Judgement {
  subject: string;
  kind: SubjectKind;
  /** The highest sample of the first third. */
  firstPeak: number;
  /** The mean of the last third. */
  lastMean: number;
  /** (lastMean − firstPeak) / firstPeak; Infinity when it grew from nothing. */
  change: number;
  grew: boolean;
}

export type Verdict =
  | { kind: 'flat'; judgements: Judgement[]; judged: number }
  | { kind: 'grew'; judgements: Judgement[]; grew: Judgement[]; judged: number }
  | { kind: 'too_short'; judged: number; why: string };

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

function judgeChange(subject: string, kind: SubjectKind, firstPeak: number, lastMean: number): Judgement {
  const delta = lastMean - firstPeak;
  const change = firstPeak === 0 ? (delta === 0 ? 0 : Infinity) : delta / firstPeak;
  return { subject, kind, firstPeak, lastMean, change, grew: delta > FLOORS[kind] && change > FLAT_WITHIN };
}

/**
 * Judges the samples taken from `judgeAfterMs` on: the peak of the first
 * third of that window against the mean over the last third, each third cut
 * to a whole number of sawtooth periods (`periodMs`, one partition width), so
 * each mean averages whole teeth wherever the window starts.
 */
export function soakVerdict(samples: SoakSample[], judgeAfterMs: number, periodMs: number): Verdict {
  const judged = samples.filter((sample) => sample.atMs >= judgeAfterMs);
  if (judged.length < MIN_JUDGED_SAMPLES) {
    return { kind: 'too_short', judged: judged.length, why: `${judged.length} samples after the horizon; at least ${MIN_JUDGED_SAMPLES} are needed` };
  }
  const from = judged[0]!.atMs;
  const to = judged.at(-1)!.atMs;
  const thirdMs = Math.floor((to - from) / 3 / periodMs) * periodMs;
  if (thirdMs === 0) {
    return {
      kind: 'too_short',
      judged: judged.length,
      why: `a third of the judged window (${Math.round((to - from) / 3000)} s) is shorter than one partition width (${Math.round(periodMs / 1000)} s)`,
    };
  }
  const first = judged.filter((sample) => sample.atMs < from + thirdMs);
  const last = judged.filter((sample) => sample.atMs > to - thirdMs);
  const judge = (subject: string, kind: SubjectKind, value: (sample: SoakSample) => number) =>
    judgeChange(subject, kind, Math.max(...first.map(value)), mean(last.map(value)));
  const tables = Object.keys(judged[0]!.tables);
  const processes = Object.keys(judged[0]!.rss);
  const judgements = [
    ...tables.flatMap((table) => [
      judge(`${table} rows`, 'rows', (sample) => sample.tables[table]?.rows ?? 0),
      judge(table, 'table', (sample) => sample.tables[table]?.bytes ?? 0),
    ]),
    judge('all tables', 'total', (sample) => Object.values(sample.tables).reduce((sum, t) => sum + t.bytes, 0)),
    // A process that exited reads 0 here; the soak fails on an early exit before judging.
    ...processes.map((id) => judge(`${id} RSS`, 'rss', (sample) => sample.rss[id] ?? 0)),
  ];
  const grew = judgements.filter((judgement) => judgement.grew);
  return grew.length === 0 ? { kind: 'flat', judgements, judged: judged.length } : { kind: 'grew', judgements, grew, judged: judged.length };
}
