/**
 * Health: one word per scheduler for sorting, badges and alerts, derived from
 * the two axes and the operator's intent; and its severity order.
 *
 * Guarantees: `deriveHealth` never yields `progressing`/`idle` unless
 * authority is `held` and the work axis proved it; a store that could not be
 * read yields `unknown` even when the last read intent said disabled (that
 * intent may have changed since — a stale "disabled" would silence alerts).
 * Non-guarantees: health is a summary; alerts that need nuance (atRisk, gaps)
 * must read the axes.
 */
import type { AuthorityState, Health, IntentFacts, WorkState } from './types';

/**
 * Worst first, as an on-call SRE triages (like Icinga's critical > unknown >
 * warning > ok):
 * 1. `stalled`     — confirmed: a holder renews but its work does not move.
 * 2. `no_leader`   — confirmed: nobody is running the work at all.
 * 3. `unknown`     — no evidence either way; may hide 1 or 2, investigate.
 * 4. `disabled`    — an operator's deliberate choice: not an alarm, but keep it visible.
 * 5. `idle`        — proven healthy, nothing to do.
 * 6. `progressing` — proven healthy, working.
 */
export const HEALTH_SEVERITY = Object.freeze(['stalled', 'no_leader', 'unknown', 'disabled', 'idle', 'progressing'] as const) satisfies readonly Health[];

// Compile-time: the order names every health (a new one cannot be forgotten).
type Unordered = Exclude<Health, (typeof HEALTH_SEVERITY)[number]>;
const everyHealthOrdered: [Unordered] extends [never] ? true : Unordered = true;
void everyHealthOrdered;

const RANK = new Map<Health, number>(HEALTH_SEVERITY.map((health, i) => [health, i]));

/** 0 = worst (the index in HEALTH_SEVERITY). */
export function healthRank(health: Health): number {
  return RANK.get(health)!;
}

/** `{ stalled: 0, no_leader: 0, … }` in severity order, for counting by health. */
export function zeroCounts(): Record<Health, number> {
  return Object.fromEntries(HEALTH_SEVERITY.map((health) => [health, 0])) as Record<Health, number>;
}

/** Sort comparator, worst first: `list.sort((a, b) => compareHealth(a.health, b.health))`. */
export function compareHealth(a: Health, b: Health): number {
  return healthRank(a) - healthRank(b);
}

/** The worst of several healths, or null for none. */
export function worstHealth(healths: Iterable<Health>): Health | null {
  let worst: Health | null = null;
  for (const h of healths) {
    if (worst === null || healthRank(h) < healthRank(worst)) worst = h;
  }
  return worst;
}

/**
 * Precedence: unreadable store → `unknown`; operator disabled → `disabled`
 * (whatever the axes say; they are still reported truthfully); authority not
 * held → `no_leader`; else the work state (`none` cannot occur while held and
 * maps to `unknown` defensively).
 */
export function deriveHealth(authority: AuthorityState, work: WorkState, intent: IntentFacts | null): Health {
  if (authority === 'unknown') return 'unknown';
  if (intent?.disabled === true) return 'disabled';
  switch (authority) {
    case 'none':
    case 'expired':
    case 'released':
      return 'no_leader';
    case 'held':
      return workHealth(work);
    default: {
      const never: never = authority;
      return never;
    }
  }
}

function workHealth(work: WorkState): Health {
  switch (work) {
    case 'progressing':
      return 'progressing';
    case 'stalled':
      return 'stalled';
    case 'idle':
      return 'idle';
    case 'unknown':
    case 'none':
      return 'unknown';
    default: {
      const never: never = work;
      return never;
    }
  }
}
