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
 * Guarantees: two statements (the database's now, then the rollup); bounded
 * output (a page of rows, each at most one segment per cell); a window is
 * one of STRIP_WINDOWS — every one within the default retention, and cut at
 * the horizon when a shorter retention is configured.
 * Non-guarantees: the rollup's resolution (the evaluator's round, 5 s); the
 * newest cell lags the live status by up to one round.
 */
import type { StripRow, StripsResponse } from '../../api/types';
import { buildStrip, compareHealth, stripFrame, zeroCounts, type Strip, type StripWindow } from '../../status';
import type { Health } from '../../status/types';
import { toIso as iso } from '../../status/time';
import { historyHorizonMs } from '../../retention';
import { okResult, type ReadResult } from '../domain/result';
import { dbNowMs } from '../live/facts';
import { readStripRollup, type RollupHead } from './strip-rollup';
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

export async function readStrips(deps: ReadDeps, query: StripsQuery): Promise<ReadResult<StripsResponse>> {
  let read;
  try {
    read = await deps.observer.read(
      'strips read',
      async () => {
        const nowMs = await dbNowMs(deps.db);
        const frame = stripFrame(query.window, nowMs);
        const rollup = await readStripRollup(deps.db, {
          names: query.names,
          q: query.names === null ? query.q : null,
          fromMs: frame.fromMs,
          toMs: frame.toMs,
          cellMs: frame.cellMs,
        });
        return { nowMs, frame, rollup };
      },
      (r) => r.nowMs,
    );
  } catch (error) {
    return unreadableResult(error);
  }
  const { nowMs, frame, rollup } = read;
  const horizonMs = historyHorizonMs(deps.retention, nowMs);
  const strips = rollup.heads.map((head) => ({
    head,
    strip: buildStrip({ frame, bornMs: head.bornMs, horizonMs, carried: head.carried, changes: head.changes, observedMinutes: rollup.observedMinutes }),
  }));
  const base = { window: query.window, from: iso(frame.fromMs), to: iso(frame.toMs), cellMs: frame.cellMs };
  if (query.names !== null) {
    const byRow = new Map(strips.map((s) => [s.head.name, s]));
    const rows = query.names.flatMap((name) => {
      const s = byRow.get(name);
      return s ? [row(s.head, s.strip)] : [];
    });
    return okResult({ ...base, total: rows.length, counts: null, rows });
  }
  const counts = zeroCounts();
  for (const s of strips) if (s.strip.worst !== null) counts[s.strip.worst] += 1;
  // Nothing drawn (no history in the window) sorts after every health.
  const ranked = strips
    .filter((s) => query.worst === null || (s.strip.worst !== null && query.worst.has(s.strip.worst)))
    .sort((a, b) => {
      const wa = a.strip.worst;
      const wb = b.strip.worst;
      const byWorst = wa === wb ? 0 : wa === null ? 1 : wb === null ? -1 : compareHealth(wa, wb);
      return byWorst || byName(a.head.name, b.head.name);
    });
  const page = ranked.slice(query.offset, query.offset + query.limit);
  return okResult({ ...base, total: ranked.length, counts, rows: page.map((s) => row(s.head, s.strip)) });
}
