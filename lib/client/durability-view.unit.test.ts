import { describe, expect, it } from 'vitest';
import { primaryFacts as primary } from '@/lib/status/test-fixtures';
import { judgeDurability } from '@/lib/status';
import { durabilityView, standbyBehindText } from './durability-view';

const NOW = '2026-12-02T10:00:00.000Z';

describe('durabilityView', () => {
  it('synchronous with standbys reads good, with its lag, the answering node and a failover generation', () => {
    const d = judgeDurability(
      primary({ generation: 2, synchronousStandbyNamesSet: true, standbys: { synchronous: 2, asynchronous: 0, hidden: 0 }, standbyReplayLagMs: 300 }),
      NOW,
    );
    expect(durabilityView(d, false)).toMatchObject({
      tone: 'good',
      headline: 'Synchronous replication · 2 standbys',
      details: ['lag 300 ms', 'answered by node-1', 'failover generation 2'],
    });
  });

  it('synchronous without a standby reads bad; asynchronous warns what can be lost; a single node is a plain fact', () => {
    expect(durabilityView(judgeDurability(primary({ synchronousStandbyNamesSet: true }), NOW), false)).toMatchObject({
      tone: 'bad',
      headline: expect.stringMatching(/writes wait/),
    });
    expect(
      durabilityView(judgeDurability(primary({ standbys: { synchronous: 0, asynchronous: 1, hidden: 0 }, standbyLagBytes: 0 }), NOW), false),
    ).toMatchObject({
      tone: 'warn',
      headline: expect.stringMatching(/^Asynchronous replication · 1 standby: newest grants can be lost/),
      details: ['lag 0 ms', 'answered by node-1'],
    });
    expect(durabilityView(judgeDurability(primary(), NOW), false)).toMatchObject({ tone: 'muted', headline: 'Single database node: no standby' });
  });

  it('a synchronous standby too far behind warns; a standby answering is unknown, never good', () => {
    const behind = judgeDurability(
      primary({ synchronousStandbyNamesSet: true, standbys: { synchronous: 1, asynchronous: 0, hidden: 0 }, standbyReplayLagMs: 60_000 }),
      NOW,
    );
    expect(durabilityView(behind, false)).toMatchObject({ tone: 'warn', details: expect.arrayContaining(['lag 1 min > 10 s']) });
    const standby = judgeDurability({ role: 'standby', node: 'node-2', lastReplayAt: NOW, caughtUp: true, receiving: true }, NOW);
    expect(durabilityView(standby, false)).toMatchObject({
      tone: 'unknown',
      headline: 'Durability unknown',
      details: ['lag 0 ms', 'answered by node-2 (a standby)'],
    });
  });

  it('a stale browser withdraws it to unknown', () => {
    const d = judgeDurability(primary({ synchronousStandbyNamesSet: true, standbys: { synchronous: 1, asynchronous: 0, hidden: 0 }, standbyLagBytes: 0 }), NOW);
    expect(durabilityView(d, true)).toMatchObject({ tone: 'unknown', headline: 'Durability unknown' });
  });

  it('says which standby answered too far behind, only when that is why the read was refused', () => {
    const behind = judgeDurability({ role: 'standby', node: 'node-2', lastReplayAt: '2026-12-02T09:59:48.000Z', caughtUp: false, receiving: true }, NOW);
    expect(standbyBehindText(behind, false)).toBe('Answered by standby node-2, 12 s behind (more than 10 s)');
    expect(standbyBehindText(behind, true)).toBeNull();
    expect(standbyBehindText(judgeDurability(null, NOW), false)).toBeNull();
  });
});
