// The write counters' rule (./tenure-state.ts): one attempt per fenced side effect SENT; a write that
// never reached a server is no attempt (counted apart), an unknown outcome is an attempt and neither.
import { describe, expect, it } from 'vitest';
import type { WriteStats } from './events';
import { EpochSeqs, TenureState } from './tenure-state';

function counted(kinds: ('written' | 'accepted' | 'rejected' | 'unknown' | 'not_sent')[]): { writes: WriteStats; done: boolean[] } {
  const writes: WriteStats = { attempted: 0, accepted: 0, rejected: 0, unknown: 0, notSent: 0 };
  const state = new TenureState({ epoch: 1, seqs: new EpochSeqs(), writes });
  const done = kinds.map((kind) => state.count({ kind }));
  return { writes, done };
}

describe('TenureState.count', () => {
  it.each([
    ['a write', ['written'], { attempted: 1, accepted: 1, rejected: 0, unknown: 0, notSent: 0 }, [true]],
    ['a call accepted', ['accepted'], { attempted: 1, accepted: 1, rejected: 0, unknown: 0, notSent: 0 }, [true]],
    ['a refusal', ['rejected'], { attempted: 1, accepted: 0, rejected: 1, unknown: 0, notSent: 0 }, [false]],
    ['an unknown outcome', ['unknown'], { attempted: 1, accepted: 0, rejected: 0, unknown: 1, notSent: 0 }, [false]],
    ['a write never sent', ['not_sent'], { attempted: 0, accepted: 0, rejected: 0, unknown: 0, notSent: 1 }, [false]],
    [
      'a mix',
      ['not_sent', 'not_sent', 'unknown', 'written', 'rejected'],
      { attempted: 3, accepted: 1, rejected: 1, unknown: 1, notSent: 2 },
      [false, false, false, true, false],
    ],
  ] as const)('%s', (_why, kinds, writes, done) => {
    const result = counted([...kinds]);
    expect(result.writes).toEqual(writes);
    expect(result.done).toEqual(done);
    expect(result.writes.attempted).toBe(result.writes.accepted + result.writes.rejected + result.writes.unknown);
  });
});
