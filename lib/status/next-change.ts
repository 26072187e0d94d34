/**
 * When can time ALONE next change a status's judgement? The status service
 * keeps projected statuses in memory (lib/server/live/index-state.ts) and
 * re-projects one only when its facts change or when `now` reaches the
 * instant this module computes.
 *
 * Guarantees: with the same facts and thresholds, the judgement of
 * `project(facts, n, thresholds)` — health, authority state, at-risk, work
 * state, observation gap reason — is the same for every integer instant n in
 * `[nowMs, nextJudgementChangeMs(facts, nowMs, thresholds))`. It returns
 * Infinity when no threshold lies ahead. The instants are those of the
 * comparisons in ./authority.ts and ./work.ts (expiry, at-risk age, silence,
 * stall, a break leaving the stall window, overdue), each widened to
 * {⌊b⌋, ⌊b⌋+1, ⌊b⌋+2} around its boundary b so that strict and non-strict
 * comparisons and float noise in fraction × ttl are all covered: it may
 * answer up to 2 ms early (a harmless re-projection), never late.
 * Non-guarantees: ages, `expiresInMs`, the gap's `to` and the reasons' text
 * change every millisecond; they are not part of the judgement (callers
 * render them at the instant they answer for). Pure: no clock, no I/O.
 */
import { gapAfterFor, type Thresholds } from './thresholds';
import { toMs } from './time';
import type { SchedulerFacts } from './types';

/** The first instant after `nowMs` at which a threshold may flip (Infinity: none ahead). */
export function nextJudgementChangeMs(facts: SchedulerFacts, nowMs: number, t: Thresholds): number {
  if (!facts.store.ok) return Infinity; // an unreadable store's judgement does not move with time
  let next = Infinity;
  const consider = (boundary: number) => {
    const floor = Math.floor(boundary);
    // The first of ⌊b⌋, ⌊b⌋+1, ⌊b⌋+2 still ahead (none: the boundary has passed).
    const flip = floor > nowMs ? floor : floor + 1 > nowMs ? floor + 1 : floor + 2 > nowMs ? floor + 2 : Infinity;
    if (flip < next) next = flip;
  };
  const { lease, progress, due } = facts;
  if (lease === null || lease.released) return next; // none / released: nothing moves (work is `none`)
  consider(toMs('lease.expiresAt', lease.expiresAt)); // held → expired
  consider(toMs('lease.renewedAt', lease.renewedAt) + t.atRiskFraction * lease.ttlMs); // at risk
  // Work is judged on the current epoch's reports only (./work.ts).
  if (progress === null || progress.epoch !== lease.epoch) return next;
  consider(toMs('progress.lastReportAt', progress.lastReportAt) + gapAfterFor(t, progress.reportEveryMs)); // silence
  consider(toMs('progress.lastAdvanceAt', progress.lastAdvanceAt) + t.stallAfterMs); // progressing → stalled
  if (progress.gap !== null) consider(toMs('progress.gap.to', progress.gap.to) + t.stallAfterMs); // break leaves the window
  if (due !== null) consider(toMs('due.dueAt', due.dueAt) + t.overdueAfterMs); // overdue
  return next;
}

/**
 * The first integer instant at which a comparison on a time that a renewal or a
 * report saying nothing new moves LATER — expiry (expiresAt), the at-risk age
 * (renewedAt), silence (lastReportAt) — may say "passed" (Infinity: none).
 *
 * Guarantee (what the status service relies on to patch times without judging
 * again): let `moved` be `facts` with renewedAt/expiresAt (same ttl) and
 * lastReportAt/lastSeq moved later or kept, nothing else different. For every
 * instant n before this boundary, each of those comparisons says "not passed"
 * with `facts` and with `moved` alike (a moved time only pushes its boundary
 * later), and every other comparison reads the same facts: so
 * `project(moved, n)` judges as `project(facts, n)` does (same health, gap,
 * at-risk, epoch). Ages and reasons' text differ; they are not the judgement.
 */
export function movableTimesBoundaryMs(facts: SchedulerFacts, t: Thresholds): number {
  const { lease, progress } = facts;
  let boundary = Infinity;
  if (lease !== null) {
    boundary = Math.min(toMs('lease.expiresAt', lease.expiresAt), toMs('lease.renewedAt', lease.renewedAt) + t.atRiskFraction * lease.ttlMs);
  }
  if (progress !== null) boundary = Math.min(boundary, toMs('progress.lastReportAt', progress.lastReportAt) + gapAfterFor(t, progress.reportEveryMs));
  return Math.floor(boundary);
}
