import { describe, expect, it } from 'vitest';
import { EPOCH_SPAN, epochAfter, formatEpoch, generationOf, tenureOf } from './epoch';

describe('epochs: generation × span + tenure', () => {
  it('a later generation outranks every epoch of an earlier one, as plain numbers', () => {
    const lastOfGen1 = EPOCH_SPAN + (EPOCH_SPAN - 1);
    const firstOfGen2 = epochAfter(EPOCH_SPAN + 3, 2);
    expect(firstOfGen2).toEqual({ kind: 'epoch', epoch: 2 * EPOCH_SPAN + 1 });
    expect(2 * EPOCH_SPAN + 1).toBeGreaterThan(lastOfGen1);
    expect(generationOf(2 * EPOCH_SPAN + 1)).toBe(2);
    expect(tenureOf(2 * EPOCH_SPAN + 1)).toBe(1);
  });

  it('within a generation: the next number; a first grant: the generation’s first', () => {
    expect(epochAfter(null, 0)).toEqual({ kind: 'epoch', epoch: 1 });
    expect(epochAfter(7, 0)).toEqual({ kind: 'epoch', epoch: 8 });
    expect(epochAfter(null, 4)).toEqual({ kind: 'epoch', epoch: 4 * EPOCH_SPAN + 1 });
  });

  it('never borrows: a previous epoch of a later generation, or a generation’s last, is refused', () => {
    expect(epochAfter(3 * EPOCH_SPAN + 1, 2)).toEqual({ kind: 'refused', reason: 'generation_behind' });
    expect(epochAfter(2 * EPOCH_SPAN - 1, 1)).toEqual({ kind: 'refused', reason: 'generation_exhausted' });
  });

  it('the largest generation still fits a JavaScript number exactly', () => {
    const last = Math.floor(Number.MAX_SAFE_INTEGER / EPOCH_SPAN) - 1;
    const epoch = epochAfter(null, last);
    expect(epoch.kind === 'epoch' && Number.isSafeInteger(epoch.epoch + EPOCH_SPAN - 2)).toBe(true);
  });

  it('reads as a person expects: the bare tenure before any failover, the generation first after', () => {
    expect(formatEpoch(17)).toBe('17');
    expect(formatEpoch(2 * EPOCH_SPAN + 17)).toBe('gen 2 · 17');
  });
});
