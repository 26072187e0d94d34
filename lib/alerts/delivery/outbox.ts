/**
 * A bounded outbox of alerts for one Alertmanager: latest state per alert
 * wins.
 *
 * Guarantees: pure data structure (no timers, no I/O).
 * - `put` replaces an alert already waiting (same key) in place, so a
 *   resolve never queues behind a stale "firing" of the same alert.
 * - At most `capacity` alerts wait; putting one more drops the OLDEST
 *   waiting one and counts it (`dropped`). A dropped firing alert is re-sent
 *   by the next re-send; Alertmanager resolves a lost one by its `endsAt`.
 * - `restore` puts a failed batch back in FRONT (it is older than whatever
 *   arrived meanwhile), except alerts that have a newer state waiting.
 * Non-guarantees: no persistence — a restarted evaluator re-sends from its
 *   stored alert state.
 */
import type { OutgoingAlert } from '../types';

export class Outbox {
  private items = new Map<string, OutgoingAlert>();
  private droppedCount = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`outbox: capacity must be a positive integer, got ${capacity}`);
  }

  get size(): number {
    return this.items.size;
  }

  /** Alerts dropped because the outbox was full (since it was made). */
  get dropped(): number {
    return this.droppedCount;
  }

  put(item: OutgoingAlert): void {
    if (!this.items.has(item.key)) this.makeRoom(1);
    this.items.set(item.key, item);
  }

  /** Removes and returns up to `max` of the oldest waiting alerts. */
  take(max: number): OutgoingAlert[] {
    const batch: OutgoingAlert[] = [];
    for (const [key, item] of this.items) {
      if (batch.length >= max) break;
      batch.push(item);
      this.items.delete(key);
    }
    return batch;
  }

  restore(batch: readonly OutgoingAlert[]): void {
    const back = batch.filter((item) => !this.items.has(item.key));
    if (back.length === 0) return;
    const merged = new Map<string, OutgoingAlert>();
    for (const item of back) merged.set(item.key, item);
    for (const [key, item] of this.items) merged.set(key, item);
    this.items = merged;
    this.makeRoom(0);
  }

  /** Drops everything waiting (not counted as `dropped`); returns how many. */
  clear(): number {
    const n = this.items.size;
    this.items.clear();
    return n;
  }

  private makeRoom(incoming: number): void {
    while (this.items.size + incoming > this.capacity) {
      const oldest = this.items.keys().next();
      if (oldest.done) return;
      this.items.delete(oldest.value);
      this.droppedCount += 1;
    }
  }
}
