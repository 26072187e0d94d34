// The one deadline rule, on a scripted sleep: given an answer before the
// deadline, then that answer and the timer cancelled; given the deadline
// first, then onTimeout's value or its throw, and a later failure of the
// abandoned work swallowed.
import { describe, expect, it } from 'vitest';
import { type Sleep, withDeadline } from './deadline';

function scriptedSleep() {
  const timers: { ms: number; fire: () => void; cancelled: () => boolean }[] = [];
  const sleep: Sleep = (ms, signal) =>
    new Promise<void>((resolve) => {
      timers.push({ ms, fire: resolve, cancelled: () => signal?.aborted === true });
      signal?.addEventListener('abort', () => resolve(), { once: true });
    });
  return { sleep, timers };
}

describe('withDeadline', () => {
  it('given the answer first, then the answer, and the timer is cancelled', async () => {
    const { sleep, timers } = scriptedSleep();
    await expect(withDeadline(Promise.resolve('renewed'), 10_000, () => 'unknown', sleep)).resolves.toBe('renewed');
    expect(timers).toHaveLength(1);
    expect(timers[0]!.ms).toBe(10_000);
    expect(timers[0]!.cancelled()).toBe(true);
  });

  it('given a failure first, then that failure', async () => {
    const { sleep } = scriptedSleep();
    await expect(withDeadline(Promise.reject(new Error('refused')), 10_000, () => 'unknown', sleep)).rejects.toThrow('refused');
  });

  it('given the deadline first, then onTimeout: its value, or what it throws', async () => {
    const { sleep, timers } = scriptedSleep();
    const never = new Promise<string>(() => {});
    const valued = withDeadline(never, 10_000, () => 'unknown', sleep);
    const thrown = withDeadline(
      never,
      50,
      () => {
        throw new Error('store read took longer than 50 ms');
      },
      sleep,
    );
    await Promise.resolve();
    for (const timer of timers) timer.fire();
    await expect(valued).resolves.toBe('unknown');
    await expect(thrown).rejects.toThrow('took longer than 50 ms');
  });

  it('a failure of the abandoned work after the deadline is swallowed, never unhandled', async () => {
    const { sleep, timers } = scriptedSleep();
    let fail!: (error: Error) => void;
    const late = new Promise<string>((_resolve, reject) => (fail = reject));
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const answer = withDeadline(late, 10, () => 'unknown', sleep);
      await Promise.resolve();
      timers[0]!.fire();
      await expect(answer).resolves.toBe('unknown');
      fail(new Error('connection terminated'));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
