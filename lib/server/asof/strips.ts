/**
 * The overview's strips: each scheduler's health over a window (1 h, 24 h,
 * 7 d), from the health rollup (./strip-rollup.ts), drawn by
 * lib/status `buildStrip` — nothing before a scheduler's first registration,
 * nothing before the history horizon, unknown where nobody observed.
 *
 * Two ways to ask:
 * - `names`: the strips of these schedulers (a page of the overview), in the
 *   order asked; `counts` null.
 * - ranked: every scheduler whose name contains `q`, ordered by its worst
 *   health in the window (lib/status severity) then name, filtered by that
 *   worst health, paged; `counts` by worst health over every match.
 *
 * Guarantees: the database's now, then for a ranked read one summary row per
 * scheduler (never a cell: `worstInWindow` equals the drawn strip's worst),
 * then the page's strips (one statement); bounded output (a page of rows,
 * each at most one segment per cell); a window is
 * one of STRIP_WINDOWS — every one within the default retention, and cut at
 * the horizon when a shorter retention is configured.
 * Non-guarantees: the rollup's resolution (the evaluator's round, 5 s); the
 * newest cell lags the live status by up to one round.
 */
import type { StripRow, StripsResponse } from '../../api/types';
import { buildStrip, compareHealth, stripFrame, unobservedCover, worstInWindow, zeroCounts, type Strip, type StripFrame, type StripWindow } from '../../status';
import type { Health } from '../../status/types';
import { toIso as iso } from '../../status/time';
import { historyHorizonMs } from '../../retention';
import { okResult, type ReadResult } from '../domain/result';
import { dbNowMs } from '../live/facts';
import { readStripRanks, readStripRollup, type RollupHead } from './strip-rollup';
import { unreadableResult } from '../store/deadline';
import type { ReadDeps } from './detail';

export type StripsQuery =
  | { window: StripWindow; names: readonly string[] }
  | { window: StripWindow; names: null; q: string | null; worst: ReadonlySet<Health> | null; limit: number; offset: number };

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function row(head: RollupHead, strip: Strip): StripRow {
  return {
    name: head.name,
    since: strip.sinceMs === null ? null : iso(strip.sinceMs),
    registeredAt: head.bornMs === null ? null : iso(head.bornMs),
    worst: strip.worst,
    segments: strip.segments.map((s) => ({ from: iso(s.fromMs), to: iso(s.toMs), health: s.health, notObserved: s.notObserved, at: iso(s.atMs) })),
  };
}

/** The newest minute of the window no evaluator round observed (null: all observed). */
function lastUnobservedMinute(frame: StripFrame, observed: ReadonlySet<number>): number | null {
  let last: number | null = null;
  for (let m = Math.floor(frame.fromMs / 60_000) * 60_000; m < frame.toMs; m += 60_000) if (!observed.has(m)) last = m;
  return last;
}

export async function readStrips(deps: ReadDeps, query: StripsQuery): Promise<ReadResult<StripsResponse>> {
  let read;
  try {
    read = await deps.observer.read(
      'strips read',
      async () => {
        const nowMs = await dbNowMs(deps.db);
        const frame = stripFrame(query.window, nowMs);
        const horizonMs = historyHorizonMs(deps.retention, nowMs);
        let names: readonly string[];
        let ranked: { total: number; counts: Record<Health, number> } | null = null;
        if (query.names !== null) {
          names = query.names;
        } else {
          // Rank every match by its worst health in the window from one summary row each; build strips for the page only.
          const ranks = await readStripRanks(deps.db, query.q, frame.fromMs, frame.toMs);
          const lastUnobservedMinuteMs = lastUnobservedMinute(frame, ranks.observedMinutes);
          const counts = zeroCounts();
          const worst = ranks.heads.map((h) => ({ name: h.name, worst: worstInWindow({ frame, horizonMs, lastUnobservedMinuteMs, ...h }) }));
          for (const w of worst) if (w.worst !== null) counts[w.worst] += 1;
          const matching = worst
            .filter((w) => query.worst === null || (w.worst !== null && query.worst.has(w.worst)))
            .sort((a, b) => byWorst(a.worst, b.worst) || byName(a.name, b.name));
          names = matching.slice(query.offset, query.offset + query.limit).map((w) => w.name);
          ranked = { total: matching.length, counts };
        }
        const rollup =
          names.length === 0
            ? { heads: [], observedMinutes: new Set<number>() }
            : await readStripRollup(deps.db, { names, q: null, fromMs: frame.fromMs, toMs: frame.toMs, cellMs: frame.cellMs });
        return { nowMs, frame, horizonMs, names, ranked, rollup };
      },
      (r) => r.nowMs,
    );
  } catch (error) {
    return unreadableResult(error);
  }
  const { frame, horizonMs, names, ranked, rollup } = read;
  const observed = { observedMinutes: rollup.observedMinutes, unobserved: unobservedCover(frame, rollup.observedMinutes) };
  const byRow = new Map(
    rollup.heads.map((head) => [
      head.name,
      row(head, buildStrip({ frame, bornMs: head.bornMs, horizonMs, carried: head.carried, changes: head.changes, ...observed })),
    ]),
  );
  const rows = names.flatMap((name) => byRow.get(name) ?? []);
  const base = { window: query.window, from: iso(frame.fromMs), to: iso(frame.toMs), cellMs: frame.cellMs };
  return okResult(ranked === null ? { ...base, total: rows.length, counts: null, rows } : { ...base, total: ranked.total, counts: ranked.counts, rows });
}

/** Worst first (lib/status severity); nothing drawn (no history in the window) after every health. */
function byWorst(a: Health | null, b: Health | null): number {
  return a === b ? 0 : a === null ? 1 : b === null ? -1 : compareHealth(a, b);
}
