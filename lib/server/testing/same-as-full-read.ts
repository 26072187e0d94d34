/**
 * For int tests of the incremental status read: the service's answer (reading
 * only what changed) must equal a full read of every scheduler projected at
 * the service's own instant — statuses, order, counts, metric rows and pages.
 */
import { expect } from 'vitest';
import { readAllFacts, type Queryable } from '../live/facts';
import { buildList, projectAll } from '../live/list';
import { sortStatuses, statusesView } from '../live/view';
import type { StatusService } from '../service';

/** Reads the service fresh, then everything; no write may happen in between (the same facts). Returns the service's read. */
export async function expectSameAsFull(db: Queryable, service: StatusService, step: string) {
  const live = await service.live({ fresh: true });
  const full = await readAllFacts(db);
  const expected = sortStatuses(projectAll(full.schedulers, live.now));
  const view = statusesView(expected);
  expect(live.ok, step).toBe(true);
  expect(live.view.all(), step).toEqual(expected);
  expect(live.view.counts, step).toEqual(view.counts);
  // Metric rows also carry each lease's newest stale-write rejection (a store fact, not judged).
  const rejections = new Map(full.schedulers.map((r) => [r.facts.name, r.lastRejectionAt]));
  expect(live.view.metricRows(), step).toEqual(view.metricRows().map((row) => ({ ...row, lastRejectionAt: rejections.get(row.name) ?? null })));
  const observation = { ok: true, lastObservedAt: live.now };
  for (const params of [
    { limit: 3, offset: 2 },
    { health: ['unknown' as const, 'no_leader' as const], limit: 2, offset: 1 },
    { q: 'inc-', limit: 500 },
  ]) {
    const input = { observedAt: live.now, observation, pollIntervalMs: 2_000, durability: live.durability };
    expect(buildList({ ...input, view: live.view }, params), `${step} page ${JSON.stringify(params)}`).toEqual(buildList({ ...input, view }, params));
  }
  return live;
}
