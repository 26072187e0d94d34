/**
 * The health rollup's part of a round (pure): which schedulers' health
 * changed since the rollup last recorded it (lib/server/strips reads it).
 *
 * Guarantees: a scheduler is listed when its health now differs from the
 * newest row the rollup holds for it, or when it holds none; a steady
 * scheduler adds nothing. Every round also marks its minute observed (the
 * write), so a strip can tell "no change" from "nobody looked".
 */
import type { SchedulerEvidence } from '../../alerts';
import type { Health } from '../../status';

export interface HealthChange {
  name: string;
  health: Health;
}

export function healthChanges(schedulers: readonly SchedulerEvidence[], recorded: ReadonlyMap<string, Health>): HealthChange[] {
  return schedulers.filter((s) => recorded.get(s.scheduler) !== s.health).map((s) => ({ name: s.scheduler, health: s.health }));
}

/** The newest recorded health of each of `names` (one index probe per name). */
export const RECORDED_HEALTH_SQL = `
SELECT n.name, h.health FROM unnest($1::text[]) AS n(name)
CROSS JOIN LATERAL (SELECT c.health FROM health_changes c WHERE c.name = n.name ORDER BY c.at DESC LIMIT 1) h`;
