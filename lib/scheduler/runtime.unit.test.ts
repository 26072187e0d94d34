// The runtime's retries are scheduled by its injected Clock alone: given a
// lease another instance holds and a clock whose random() is scripted, the
// waits between acquisition attempts are exactly renewEvery × (0.9 + 0.2 × r)
// — no real time, no Math.random.
import { describe, expect, it, vi } from 'vitest';
import type { Clock } from './clock';
import { schedulerConfig } from './config';
import type { RuntimeEvent } from './events';
import { defineJob, fencedStep } from './job';
import { SchedulerRuntime } from './runtime';

const job = defineJob({
  name: 'jitter',
  everyMs: 60_000,
  steps: [fencedStep({ name: 'noop', read: async () => null, plan: () => null, write: () => [] })],
});

/** A store where another instance holds the lease: registration succeeds, every acquisition says `held`. */
const heldElsewhere = {
  query: async (config: { text?: string }) => {
    if (!/\bleaseboard_acquire\(/.test(config.text ?? '')) return { rows: [] };
    return { rows: [{ granted: false, epoch: '3', expires_at: new Date(0), holder: 'inst_otherone', live: true, disabled: null }] };
  },
};

describe('runtime retry jitter', () => {
  it('comes from the injected clock', async () => {
    // The first draw is the process's report round phase (its reporter is made with the runtime).
    const randoms = [0.5, 0, 0.999, 0.25];
    const sleeps: { ms: number; resolve: () => void }[] = [];
    const clock: Clock = {
      now: () => 0,
      random: () => randoms.shift() ?? 0.5,
      sleep: (ms, signal) =>
        new Promise<void>((resolve) => {
          if (signal?.aborted) return resolve();
          sleeps.push({ ms, resolve });
          signal?.addEventListener('abort', () => resolve(), { once: true });
        }),
    };
    const events: RuntimeEvent[] = [];
    const config = schedulerConfig({ name: 'jitter' });
    const runtime = new SchedulerRuntime(job, config, { db: heldElsewhere as never, readDb: heldElsewhere as never, clock, onEvent: (e) => events.push(e) });
    runtime.start();
    /** The waits between attempts (the deadlines on each attempt are renewDeadline long, and cancelled). */
    const retries = () => sleeps.filter((s) => s.ms !== config.lease.renewDeadlineMs);
    for (let n = 1; n <= 3; n++) {
      await vi.waitFor(() => expect(retries()).toHaveLength(n));
      retries()[n - 1]!.resolve();
    }
    await vi.waitFor(() => expect(retries()).toHaveLength(4));
    await runtime.stop();
    const every = config.lease.renewEveryMs;
    expect(retries().map((s) => s.ms)).toEqual([every * 0.9, every * (0.9 + 0.999 * 0.2), every * (0.9 + 0.25 * 0.2), every]);
    expect(events.filter((e) => e.event === 'held')).toHaveLength(4);
  });
});
