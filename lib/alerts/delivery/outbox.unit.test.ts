/**
 * The outbox and the retry delays, pure: latest state per alert wins, the
 * bound drops the oldest, a failed batch goes back in front unless a newer
 * state waits; equal-jitter backoff within its bounds.
 */
import { describe, expect, it } from 'vitest';
import type { OutgoingAlert } from '../types';
import { checkBackoff, retryDelayMs } from './backoff';
import { Outbox } from './outbox';

const item = (key: string, version = 1): OutgoingAlert => ({
  key,
  alert: { labels: { alertname: key }, annotations: { v: String(version) }, startsAt: 'a', endsAt: 'b', generatorURL: 'g' },
  sentAt: 'a',
});
const keys = (items: OutgoingAlert[]) => items.map((i) => `${i.key}@${i.alert.annotations.v}`);

describe('Outbox', () => {
  it('given a newer state of a waiting alert, then it replaces it in place', () => {
    const box = new Outbox(10);
    box.put(item('a'));
    box.put(item('b'));
    box.put(item('a', 2));
    expect(box.size).toBe(2);
    expect(keys(box.take(10))).toEqual(['a@2', 'b@1']);
  });

  it('given it is full, then the oldest waiting alert is dropped and counted', () => {
    const box = new Outbox(2);
    box.put(item('a'));
    box.put(item('b'));
    box.put(item('c'));
    box.put(item('c', 2)); // a replacement needs no room
    expect(box.dropped).toBe(1);
    expect(keys(box.take(10))).toEqual(['b@1', 'c@2']);
  });

  it('take returns the oldest first, at most max', () => {
    const box = new Outbox(10);
    ['a', 'b', 'c'].forEach((k) => box.put(item(k)));
    expect(keys(box.take(2))).toEqual(['a@1', 'b@1']);
    expect(box.size).toBe(1);
  });

  it('given a failed batch, then it goes back in front, except alerts with a newer state waiting', () => {
    const box = new Outbox(10);
    ['a', 'b'].forEach((k) => box.put(item(k)));
    const batch = box.take(2);
    box.put(item('c'));
    box.put(item('b', 2));
    box.restore(batch);
    expect(keys(box.take(10))).toEqual(['a@1', 'c@1', 'b@2']);
  });

  it('given a restore beyond capacity, then the restored (older) alerts are dropped first', () => {
    const box = new Outbox(2);
    ['a', 'b'].forEach((k) => box.put(item(k)));
    const batch = box.take(2);
    box.put(item('c'));
    box.restore(batch);
    expect(keys(box.take(10))).toEqual(['b@1', 'c@1']);
    expect(box.dropped).toBe(1);
  });

  it('refuses a capacity below 1', () => {
    expect(() => new Outbox(0)).toThrow(/capacity/);
  });
});

describe('retryDelayMs (equal jitter)', () => {
  const o = { baseMs: 500, maxMs: 30_000 };
  it.each([
    [1, 250, 500],
    [2, 500, 1_000],
    [3, 1_000, 2_000],
    [7, 15_000, 30_000],
    [50, 15_000, 30_000],
  ])('attempt %i lies in [%i, %i] ms', (attempt, low, high) => {
    expect(retryDelayMs(attempt, o, () => 0)).toBe(low);
    expect(retryDelayMs(attempt, o, () => 1)).toBe(high);
  });
  it('checks its options, naming the field', () => {
    expect(() => checkBackoff({ baseMs: 0, maxMs: 1 })).toThrow(/baseMs/);
    expect(() => checkBackoff({ baseMs: 10, maxMs: 5 })).toThrow(/maxMs/);
  });
});
