// The live view and `?at=` name every gap alike, while the cadence changes
// mid-run: given an epoch reporting every 100 ms (a silence, lost reports),
// another instance registering a slower cadence meanwhile (the epoch goes on
// at its own, and falls silent again), then a new epoch reporting every 1 s
// while a registration says 100 ms, which then changes its own cadence to
// 200 ms (a silence by it) and back to 1 s (the same quiet no silence) —
// when the live view is sampled
// throughout, then each sample's instant is rebuilt from the logs, the gap
// (reason, from, to) and the work state are the same, and history lists
// every closed break the live view showed. The reports go through the real
// report statement (lib/scheduler/report-store.ts) on real PostgreSQL.
import { describe, expect, it } from 'vitest';
import { forceExpire, uniqueLease, usePool } from '../../../db/testing/pools';
import type { ObservationGap } from '../../status/types';
import { answersOf } from '../testing/answers';
import { acquire, register, reporter, serviceOn, sleep } from '../testing/seed';

interface Sample {
  label: string;
  at: string;
  gap: ObservationGap | null;
  work: string;
}

describe('report breaks: the live view and ?at= agree while the cadence changes', () => {
  const pool = usePool();

  it('names every gap alike, sample by sample, and history lists every closed one', async () => {
    const name = uniqueLease('cadence');
    const read = answersOf(serviceOn(pool));
    const occurrence = `${name}@2026-01-01T00:00:00Z`;
    const samples: Sample[] = [];
    /** The live view, a little after the last report (so no report shares the instant's millisecond). */
    const look = async (label: string) => {
      await sleep(25);
      const live = await read.detail(name);
      if (!live.ok) throw new Error(`${label}: ${live.error.message}`);
      samples.push({ label, at: live.value.observedAt, gap: live.value.status.observation.gap, work: live.value.status.work.state });
    };

    await register(pool, name, { reportEveryMs: 100, stallAfterMs: 60_000 });
    const first = reporter(pool, await acquire(pool, name, 15_000, 'A'), 100);
    await first.report(occurrence, 1);
    await look('first report');
    await first.report(occurrence, 1);
    await first.report(occurrence, 1);
    await look('steady at 100 ms');
    await sleep(700);
    await look('silent for 700 ms');
    await first.report(occurrence, 1);
    await look('the silence closed');
    first.loseReports(2);
    await first.report(occurrence, 1);
    await look('two reports lost');
    // Another instance registers a slower cadence; the reporting epoch keeps its own.
    await register(pool, name, { reportEveryMs: 1_000, stallAfterMs: 60_000 });
    await first.report(occurrence, 1);
    await sleep(700);
    await look('silent again, registration now 1 s');
    await first.report(occurrence, 1);
    await look('that silence closed');
    // A new epoch reporting every second, while the registration says 100 ms.
    await forceExpire(pool, name);
    const second = reporter(pool, await acquire(pool, name, 15_000, 'B'), 1_000);
    await register(pool, name, { reportEveryMs: 100, stallAfterMs: 60_000 });
    await second.report(occurrence, 2);
    await look('epoch 2, first report');
    for (let i = 0; i < 2; i++) {
      await sleep(500);
      await second.report(occurrence, 2);
      await look('epoch 2 at its own 1 s cadence');
    }
    // The same epoch changes its own cadence: each quiet is judged by the cadence of the report before it.
    second.every(200);
    await second.report(occurrence, 2);
    await second.report(occurrence, 2);
    await look('epoch 2 now every 200 ms');
    await sleep(700);
    await look('epoch 2 silent 700 ms, over 3 × 200 ms');
    await second.report(occurrence, 2);
    await look('epoch 2: that silence closed');
    second.every(1_000);
    await second.report(occurrence, 2);
    await sleep(700);
    await second.report(occurrence, 2);
    await look('epoch 2 back at 1 s: 700 ms is no silence');

    // The gaps planted are the ones the live view named.
    const reasons = Object.fromEntries(samples.map((s) => [s.label, s.gap?.reason ?? null]));
    expect(reasons).toMatchObject({
      'silent for 700 ms': 'silence',
      'the silence closed': 'silence',
      'two reports lost': 'lost_reports',
      'silent again, registration now 1 s': 'silence',
      'that silence closed': 'silence',
      'epoch 2 at its own 1 s cadence': null,
      'epoch 2 now every 200 ms': null,
      'epoch 2 silent 700 ms, over 3 × 200 ms': 'silence',
      'epoch 2: that silence closed': 'silence',
    });
    // Back at 1 s, the 700 ms quiet is no new break: the gap shown is still the one closed before.
    const byLabel = (label: string) => samples.find((s) => s.label === label)!;
    expect(byLabel('epoch 2 back at 1 s: 700 ms is no silence').gap).toEqual(byLabel('epoch 2: that silence closed').gap);
    const open = samples.find((s) => s.label === 'silent for 700 ms')!;
    expect(open.gap!.to).toBe(open.at);

    // Each instant, rebuilt from the logs, names the same gap.
    for (const sample of samples) {
      const then = await read.detail(name, sample.at);
      if (!then.ok) throw new Error(`${sample.label}: ${then.error.message}`);
      expect({ label: sample.label, gap: then.value.status.observation.gap, work: then.value.status.work.state }).toEqual({
        label: sample.label,
        gap: sample.gap,
        work: sample.work,
      });
    }

    // History over the run lists every closed break the live view showed.
    const history = await read.history(name, new Date(Date.parse(samples[0]!.at) - 1_000).toISOString(), samples.at(-1)!.at);
    if (!history.ok) throw new Error(history.error.message);
    const closed = samples.filter((s) => s.gap !== null && s.gap.to !== s.at).map((s) => s.gap!);
    expect(closed.length).toBeGreaterThanOrEqual(4);
    for (const gap of closed) expect(history.value.gaps).toContainEqual(gap);
  });
});
