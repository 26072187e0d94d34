/**
 * The soak's verdict: after the horizon, is every table, the total and every
 * process's RSS flat (within 10 %)? Pure: samples in, judgements out.
 *
 * The statistic: the mean of the last third of the judged samples against
 * the mean of the first third. Pairs of single samples would judge the
 * partition sawtooth, not growth: progress_reports drops a whole partition
 * at a time (up to width / horizon of its rows at once), the pruner deletes
 * in rounds, and dead rows stay on disk until autovacuum comes by. A third
 * of the window spans at least one partition width (checked: else the run
 * is too short to judge), so each mean averages over whole teeth, while a
 * real trend still shows as the difference between the two ends. Means of
 * thirds rather than a regression slope: a slope over a sawtooth depends on
 * where the window cuts the teeth, the thirds' means much less.
 *
 * Noise floors: PostgreSQL grows a relation in 8 kB pages and creates its
 * free-space and visibility maps (24 + 8 kB per relation) at the first
 * vacuum, so a table of a few pages "grows" by 50 % without growing. A change
 * below 128 kB per table (1 MB in total) is not growth; above it, 10 % is.
 */
import type { SoakSample } from './sample';

export const FLAT_WITHIN = 0.1;
export const FLOOR_BYTES = { table: 128 * 1024, total: 1024 * 1024, rss: 0 } as const;
/** Fewer judged samples than this (two per third) cannot tell a trend from noise. */
export const MIN_JUDGED_SAMPLES = 6;

export type SubjectKind = keyof typeof FLOOR_BYTES;

export interface Judgement {
  subject: string;
  kind: SubjectKind;
  firstMean: number;
  lastMean: number;
  /** (last − first) / first; Infinity when it grew from nothing. */
  change: number;
  grew: boolean;
}

export type Verdict =
  | { kind: 'flat'; judgements: Judgement[]; judged: number }
  | { kind: 'grew'; judgements: Judgement[]; grew: Judgement[]; judged: number }
  | { kind: 'too_short'; judged: number; why: string };

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

export function judgeSeries(subject: string, kind: SubjectKind, values: number[]): Judgement {
  const third = Math.floor(values.length / 3);
  const firstMean = mean(values.slice(0, third));
  const lastMean = mean(values.slice(values.length - third));
  const delta = lastMean - firstMean;
  const change = firstMean === 0 ? (delta === 0 ? 0 : Infinity) : delta / firstMean;
  return { subject, kind, firstMean, lastMean, change, grew: delta > FLOOR_BYTES[kind] && change > FLAT_WITHIN };
}

/**
 * Judges the samples taken from `judgeAfterMs` on. A third of them must span
 * at least `minThirdMs` (one partition width), so a tooth is averaged out.
 */
export function soakVerdict(samples: SoakSample[], judgeAfterMs: number, minThirdMs: number): Verdict {
  const judged = samples.filter((sample) => sample.atMs >= judgeAfterMs);
  if (judged.length < MIN_JUDGED_SAMPLES) {
    return { kind: 'too_short', judged: judged.length, why: `${judged.length} samples after the horizon; at least ${MIN_JUDGED_SAMPLES} are needed` };
  }
  const third = Math.floor(judged.length / 3);
  const thirdSpanMs = judged[third]!.atMs - judged[0]!.atMs;
  if (thirdSpanMs < minThirdMs) {
    return {
      kind: 'too_short',
      judged: judged.length,
      why: `a third of the judged window spans ${Math.round(thirdSpanMs / 1000)} s, less than one partition width (${Math.round(minThirdMs / 1000)} s)`,
    };
  }
  const tables = Object.keys(judged[0]!.tables);
  const processes = Object.keys(judged[0]!.rss);
  const judgements = [
    ...tables.map((table) =>
      judgeSeries(
        table,
        'table',
        judged.map((sample) => sample.tables[table]?.bytes ?? 0),
      ),
    ),
    judgeSeries(
      'all tables',
      'total',
      judged.map((sample) => Object.values(sample.tables).reduce((sum, t) => sum + t.bytes, 0)),
    ),
    // A process that exited reads 0 here; the soak fails on an early exit before judging.
    ...processes.map((id) =>
      judgeSeries(
        `${id} RSS`,
        'rss',
        judged.map((sample) => sample.rss[id] ?? 0),
      ),
    ),
  ];
  const grew = judgements.filter((judgement) => judgement.grew);
  return grew.length === 0 ? { kind: 'flat', judgements, judged: judged.length } : { kind: 'grew', judgements, grew, judged: judged.length };
}
