/**
 * The generic batcher, with a scripted call and a fake clock: requests asked
 * within one window leave as one call, a full batch leaves at once, every
 * caller gets its own answer or the call's error, and no window is left
 * waiting.
 */
import { describe, expect, it } from 'vitest';
import { Batcher, perPoolAndClock } from './batcher';
import { fakeClock } from './testing/fake-clock';

function harness(answer: (requests: readonly string[]) => Promise<readonly string[]>, maxBatch = 500) {
  const { clock, advance, waiting } = fakeClock();
  const calls: string[][] = [];
  const batcher = new Batcher<string, string>(
    (requests) => {
      calls.push([...requests]);
      return answer(requests);
    },
    clock,
    50,
    maxBatch,
  );
  return { batcher, calls, advance, waiting };
}

const upper = async (requests: readonly string[]) => requests.map((r) => r.toUpperCase());

describe('Batcher', () => {
  it('sends the requests of one window as ONE call, and answers each caller with its own answer', async () => {
    const h = harness(upper);
    const a = h.batcher.ask('a');
    h.advance(30);
    const b = h.batcher.ask('b');
    expect(h.calls).toEqual([]); // the window is still open
    h.advance(19);
    expect(h.calls).toEqual([]); // 49 ms after the first request
    h.advance(1);
    expect(await Promise.all([a, b])).toEqual(['A', 'B']);
    expect(h.calls).toEqual([['a', 'b']]);
    // The next request opens the next window.
    const c = h.batcher.ask('c');
    h.advance(50);
    expect(await c).toBe('C');
    expect(h.calls).toEqual([['a', 'b'], ['c']]);
    expect(h.waiting()).toBe(0);
  });

  it('answers the same request twice in one batch each at its own position', async () => {
    const h = harness(async (requests) => requests.map((r, i) => `${r}${i}`));
    const asked = Promise.all([h.batcher.ask('x'), h.batcher.ask('x')]);
    h.advance(50);
    expect(await asked).toEqual(['x0', 'x1']);
  });

  it('sends a full batch at once, and cancels its window', async () => {
    const h = harness(upper, 2);
    const full = Promise.all([h.batcher.ask('a'), h.batcher.ask('b')]);
    expect(h.calls).toEqual([['a', 'b']]);
    expect(h.waiting()).toBe(0);
    const next = h.batcher.ask('c'); // the next batch has its own window
    expect(h.waiting()).toBe(1);
    h.advance(50);
    expect([...(await full), await next]).toEqual(['A', 'B', 'C']);
  });

  it('an error of the call reaches every request of the batch, and the next batch is sent as usual', async () => {
    let fail = true;
    const h = harness(async (requests) => {
      if (fail) throw new Error('call: boom');
      return upper(requests);
    });
    const failed = Promise.allSettled([h.batcher.ask('a'), h.batcher.ask('b')]);
    h.advance(50);
    const settled = await failed;
    expect(settled.map((r) => (r.status === 'rejected' ? (r.reason as Error).message : r.status))).toEqual(['call: boom', 'call: boom']);
    fail = false;
    const next = h.batcher.ask('c');
    h.advance(50);
    expect(await next).toBe('C');
  });

  it('a call that throws at once, or answers a different number of requests, fails its batch', async () => {
    const thrown = harness(() => {
      throw new Error('call: sync');
    });
    const a = thrown.batcher.ask('a');
    thrown.advance(50);
    await expect(a).rejects.toThrow('call: sync');
    const short = harness(async () => ['only one']);
    const both = Promise.allSettled([short.batcher.ask('a'), short.batcher.ask('b')]);
    short.advance(50);
    expect((await both).map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});

describe('perPoolAndClock', () => {
  it('makes one instance per pool and clock, on first use', () => {
    const shared = perPoolAndClock<object>();
    const [pool, other] = [{}, {}];
    const { clock } = fakeClock();
    let made = 0;
    const make = () => ({ n: ++made });
    const first = shared(pool, clock, make);
    expect(shared(pool, clock, make)).toBe(first);
    expect(shared(other, clock, make)).not.toBe(first);
    expect(shared(pool, fakeClock().clock, make)).not.toBe(first);
    expect(made).toBe(3);
  });
});
