/**
 * The fleet's job: the cheapest real job that still gives every fault its
 * health. Each occurrence (every `everyMs`) runs one delegated step that
 * moves its cursor every `advanceEveryMs` — no row written per move, so the
 * database load is the runtime's own (claims, completions, renewals,
 * reports) — and completes one advance before its slot ends, so a new
 * occurrence is never left overdue.
 *
 * Guarantees: while a lease is in `frozen` its cursor does not move (the
 * runtime's own freeze, set beside it, keeps a next occurrence from
 * starting); reports go on, so the status can say `stalled`. The step stops
 * as soon as its tenure ends.
 * Not guaranteed: exact slot alignment — the app's clock decides when an
 * occurrence is done (only scheduling; every lease decision is the database's).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { defineJob, delegatedStep, type Job } from '../../lib/scheduler';

const FLEET_JOB = 'fleet-load';

export function fleetJob(options: { everyMs: number; advanceEveryMs: number; frozen: ReadonlySet<string> }): Job {
  const { everyMs, advanceEveryMs, frozen } = options;
  return defineJob({
    name: FLEET_JOB,
    everyMs,
    steps: [
      delegatedStep({
        name: 'advance',
        run: async (input) => {
          const doneAt = input.scheduledAt.getTime() + everyMs - advanceEveryMs;
          let cursor = input.cursor;
          while (!input.signal.aborted) {
            const slept = await sleep(advanceEveryMs, true, { signal: input.signal }).catch(() => false);
            if (!slept) break;
            if (frozen.has(input.lease)) continue;
            input.progress(++cursor);
            if (Date.now() >= doneAt) return { kind: 'succeeded' };
          }
          return { kind: 'stopped' };
        },
      }),
    ],
  });
}
