/**
 * When a process's reports leave: in ROUNDS. Every lease of one process that
 * reports every `everyMs` reports on the same grid, `phaseMs + k × everyMs` on
 * the process's clock, so a round's reports fall into one batching window and
 * leave as one statement (./reporter.ts). A lease that reported on its own
 * phase (every `everyMs` after its previous answer) sent, at 100 leases per
 * process and a 2 s cadence, two or three reports per statement: the
 * statement's own cost (round trip, plpgsql entry, commit and its WAL flush)
 * was most of the database's time at 10,000 schedulers.
 *
 * The grid's period is the cadence plus ROUND_SLACK_MS: the database stamps
 * each report when its turn in the round's statement comes, a few ms later or
 * earlier from round to round, and a stored run packs a report that came
 * −1…28 ms after the cadence in a byte (two −1…12 ms in one) but an earlier
 * one in two (docs/operations.md, "Retention and disk"). With the period
 * exactly the cadence, 27 % of a round's reports came 2–7 ms early.
 *
 * Guarantees
 * - The wait is in (0, everyMs + ROUND_SLACK_MS]: a lease reports at most
 *   ROUND_SLACK_MS later than it would have on its own phase (which waited
 *   `everyMs` after the answer) — nothing beside the silence bound
 *   (3 × everyMs); a report answered late does not make the next one wait a
 *   whole interval more.
 * - Only the first report after joining the grid may come early (at most one
 *   interval): an earlier report is more evidence, never a gap.
 * Pure: the caller's clock gives `now`.
 */

/** How much longer than the cadence the grid's period is (ms). */
export const ROUND_SLACK_MS = 8;

/** Milliseconds from `now` to the next grid point strictly after it. */
export function untilNextRound(now: number, everyMs: number, phaseMs: number): number {
  if (!(everyMs > 0)) throw new Error(`report rounds: everyMs must be positive (got ${everyMs})`);
  const period = everyMs + ROUND_SLACK_MS;
  const into = (((now - phaseMs) % period) + period) % period;
  return period - into;
}

/** A process's phase: spread over an hour so that processes started together do not report together. */
export const roundPhase = (random: () => number): number => Math.floor(random() * 3_600_000);
