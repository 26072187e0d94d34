import { describe, expect, it } from 'vitest';
import { primaryFacts as primary } from './test-fixtures';
import { EPOCH_SPAN } from './epoch';
import { answeredTooFarBehind, failoverWindows, judgeDurability, type ReplicationFacts } from './durability';

const NOW = '2026-12-02T10:00:00.000Z';

const standby = (over: Partial<Extract<ReplicationFacts, { role: 'standby' }>> = {}): ReplicationFacts => ({
  role: 'standby',
  node: 'node-2',
  lastReplayAt: '2026-12-02T09:59:59.000Z',
  caughtUp: false,
  receiving: true,
  ...over,
});

describe('judgeDurability: which mode protects the authority', () => {
  it('given a primary without standbys, it is a single node, and there is no lag to judge', () => {
    const d = judgeDurability(primary(), NOW);
    expect(d).toMatchObject({ mode: 'single', synchronousStandbys: 0, asynchronousStandbys: 0, generation: 0, lag: { state: 'none', ms: null } });
    expect(d.answeredBy).toEqual({ node: 'node-1', role: 'primary' });
    expect(d.reasons.map((r) => r.code)).toEqual(['single_node']);
  });

  it('given a streaming standby and no synchronous names, it is asynchronous and says what can be lost', () => {
    const d = judgeDurability(primary({ standbys: { synchronous: 0, asynchronous: 1, hidden: 0 }, standbyReplayLagMs: 120, standbyLagBytes: 4096 }), NOW);
    expect(d).toMatchObject({ mode: 'async', asynchronousStandbys: 1, lag: { state: 'ok', ms: 120, bytes: 4096 } });
    expect(d.reasons[0]!.message).toMatch(/newest grants and fenced writes can be lost/);
  });

  it('given synchronous names, a waiting synchronous_commit and two sync standbys, it is synchronous with 2', () => {
    const d = judgeDurability(
      primary({ synchronousStandbyNamesSet: true, synchronousCommit: 'remote_apply', standbys: { synchronous: 2, asynchronous: 1, hidden: 0 } }),
      NOW,
    );
    expect(d).toMatchObject({ mode: 'sync', synchronousStandbys: 2, asynchronousStandbys: 1 });
    expect(d.reasons[0]).toMatchObject({ code: 'synchronous', message: expect.stringContaining('2 synchronous standbys') });
  });

  it('given synchronous names but no standby streaming, it is synchronous with 0: commits block', () => {
    const d = judgeDurability(primary({ synchronousStandbyNamesSet: true }), NOW);
    expect(d).toMatchObject({ mode: 'sync', synchronousStandbys: 0, lag: { state: 'none' } });
    expect(d.reasons[0]!.code).toBe('synchronous_without_standby');
  });

  it.each(['local', 'off'])('given synchronous_commit %s, a sync standby does not make commits wait: asynchronous', (commit) => {
    const d = judgeDurability(
      primary({ synchronousStandbyNamesSet: true, synchronousCommit: commit, standbys: { synchronous: 1, asynchronous: 0, hidden: 0 } }),
      NOW,
    );
    expect(d.mode).toBe('async');
    expect(d.reasons.map((r) => r.code)).toContain('commit_does_not_wait');
  });

  it('given standby rows the reader may not see, it is unknown — never a single node', () => {
    const d = judgeDurability(primary({ standbys: { synchronous: 0, asynchronous: 0, hidden: 1 } }), NOW);
    expect(d).toMatchObject({ mode: 'unknown', synchronousStandbys: null, lag: { state: 'unknown' } });
    expect(d.reasons[0]!.message).toMatch(/pg_read_all_stats/);
  });

  it('given no facts (the store unreadable), everything is unknown', () => {
    expect(judgeDurability(null, NOW)).toMatchObject({ mode: 'unknown', answeredBy: null, generation: null, lag: { state: 'unknown' } });
  });

  it('given a standby answering, the mode is unknown (it cannot see the primary) but its lag is judged', () => {
    const d = judgeDurability(standby(), NOW);
    expect(d).toMatchObject({ mode: 'unknown', answeredBy: { node: 'node-2', role: 'standby' }, lag: { state: 'ok', ms: 1000 } });
    expect(d.reasons.map((r) => r.code)).toEqual(['answered_by_standby', 'lag_ok']);
  });

  it('rejects a lag bound that is not positive', () => {
    expect(() => judgeDurability(null, NOW, 0)).toThrow(/maxLagMs/);
  });
});

describe('judgeDurability: is the lag too far', () => {
  it('behind only when strictly older than the bound', () => {
    const at = (lagMs: number) =>
      judgeDurability(primary({ standbys: { synchronous: 0, asynchronous: 1, hidden: 0 }, standbyReplayLagMs: lagMs }), NOW, 5_000).lag.state;
    expect(at(5_000)).toBe('ok');
    expect(at(5_001)).toBe('behind');
  });

  it('an idle caught-up standby (replay_lag cleared, 0 bytes behind) is 0 behind; cleared with bytes behind is unknown', () => {
    const idle = judgeDurability(primary({ standbys: { synchronous: 0, asynchronous: 1, hidden: 0 }, standbyLagBytes: 0 }), NOW);
    expect(idle.lag).toMatchObject({ state: 'ok', ms: 0 });
    const unmeasured = judgeDurability(primary({ standbys: { synchronous: 0, asynchronous: 1, hidden: 0 }, standbyLagBytes: 100 }), NOW);
    expect(unmeasured.lag).toMatchObject({ state: 'unknown', ms: null, bytes: 100 });
  });

  it('a standby dates its lag from the last replayed commit, unless it streams and has replayed all it received', () => {
    const old = '2026-12-02T09:59:00.000Z';
    expect(judgeDurability(standby({ lastReplayAt: old }), NOW, 10_000).lag).toMatchObject({ state: 'behind', ms: 60_000 });
    expect(judgeDurability(standby({ lastReplayAt: old, caughtUp: true }), NOW, 10_000).lag).toMatchObject({ state: 'ok', ms: 0 });
    expect(judgeDurability(standby({ lastReplayAt: old, caughtUp: true, receiving: false }), NOW, 10_000).lag.state).toBe('behind');
    expect(judgeDurability(standby({ lastReplayAt: null }), NOW).lag.state).toBe('unknown');
  });
});

describe('answeredTooFarBehind: when a read cannot vouch for anything', () => {
  it('a standby over the bound, or whose lag cannot be measured, cannot; a caught-up standby and any primary can', () => {
    const old = '2026-12-02T09:59:00.000Z';
    expect(answeredTooFarBehind(judgeDurability(standby({ lastReplayAt: old }), NOW))).toBe(true);
    expect(answeredTooFarBehind(judgeDurability(standby({ lastReplayAt: null }), NOW))).toBe(true);
    expect(answeredTooFarBehind(judgeDurability(standby({ lastReplayAt: old, caughtUp: true }), NOW))).toBe(false);
    const laggingStandbys = primary({ standbys: { synchronous: 0, asynchronous: 1, hidden: 0 }, standbyReplayLagMs: 600_000 });
    expect(answeredTooFarBehind(judgeDurability(laggingStandbys, NOW))).toBe(false);
    expect(answeredTooFarBehind(judgeDurability(null, NOW))).toBe(false);
  });
});

describe('failoverWindows: where a failover makes the timeline unknown', () => {
  const gen = (g: number, tenure: number) => g * EPOCH_SPAN + tenure;

  it('given a grant of a later generation, the window runs from the previous tenure’s last renewal to the grant', () => {
    const windows = failoverWindows([
      { epoch: gen(0, 1), atMs: 0, previousEpoch: null, previousRenewedMs: null, previousEndedMs: null },
      { epoch: gen(0, 2), atMs: 20_000, previousEpoch: gen(0, 1), previousRenewedMs: 4_000, previousEndedMs: 19_000 },
      { epoch: gen(1, 1), atMs: 50_000, previousEpoch: gen(0, 2), previousRenewedMs: 30_000, previousEndedMs: 45_000 },
    ]);
    expect(windows).toEqual([{ fromMs: 30_000, toMs: 50_000, fromGeneration: 0, toGeneration: 1 }]);
  });

  it('given a released previous tenure, the window starts at the release (nothing after it survived for sure)', () => {
    const windows = failoverWindows([{ epoch: gen(2, 1), atMs: 9_000, previousEpoch: gen(1, 5), previousRenewedMs: null, previousEndedMs: 7_000 }]);
    expect(windows).toEqual([{ fromMs: 7_000, toMs: 9_000, fromGeneration: 1, toGeneration: 2 }]);
  });

  it('given grants within one generation, or a first grant, no window', () => {
    expect(
      failoverWindows([
        { epoch: gen(1, 1), atMs: 1, previousEpoch: null, previousRenewedMs: null, previousEndedMs: null },
        { epoch: gen(1, 2), atMs: 2, previousEpoch: gen(1, 1), previousRenewedMs: 1, previousEndedMs: 2 },
      ]),
    ).toEqual([]);
  });
});
