/**
 * A scripted Clock for unit tests: time moves only by `advance(ms)`, which
 * resolves the sleeps it passes; an aborted sleep resolves at once.
 * `waiting()` counts the sleeps neither due nor aborted.
 */
import type { Clock } from '../clock';

export function fakeClock(): { clock: Clock; advance(ms: number): void; waiting(): number } {
  let now = 0;
  let sleepers: { at: number; resolve: () => void; signal?: AbortSignal }[] = [];
  const clock: Clock = {
    now: () => now,
    random: () => 0.5,
    sleep: (ms, signal) =>
      new Promise<void>((resolve) => {
        if (signal?.aborted) return resolve();
        sleepers.push({ at: now + ms, resolve, signal });
        signal?.addEventListener('abort', () => resolve(), { once: true });
      }),
  };
  const advance = (ms: number) => {
    now += ms;
    const due = sleepers.filter((s) => s.at <= now);
    sleepers = sleepers.filter((s) => s.at > now);
    for (const s of due) s.resolve();
  };
  const waiting = () => sleepers.filter((s) => !s.signal?.aborted).length;
  return { clock, advance, waiting };
}
